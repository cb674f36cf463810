// The chain of custody's statuses (certificates-and-balances.md section 3), as pure rules: what the delivery
// lists show as a column and filter, and what the tracing labels each certificate with. The lists compute the
// same in SQL (features/abholungen, features/zuordnung); their tests compare both against the links.
import { BIOKOMPONENTE } from './ghg.js';
import { umrechnen, type Einheit } from './units.js';
import type { Produktgruppe } from './fuels.js';

/** Inbound link status: no collection, linked with some provisional certificate, linked with all final. */
export const VERKNUEPFUNG_STATUS = ['nicht_verknuepft', 'vorlaeufig', 'endgueltig'] as const;
export type VerknuepfungStatus = (typeof VERKNUEPFUNG_STATUS)[number];

/** Delivery certificate status: nothing assigned; assigned but provisional or not fully covered; fully covered by final ones. */
export const ZERTIFIKAT_STATUS = ['keine', 'ohne_endgueltige', 'mit_endgueltigen'] as const;
export type ZertifikatStatus = (typeof ZERTIFIKAT_STATUS)[number];

/** Tracking status labels of a certificate in the Nachweisverfolgung. */
export const VERFOLGUNG_STATUS = ['aktiv', 'verbraucht', 'abgelaufen', 'ausstehend'] as const;
export type VerfolgungStatus = (typeof VERFOLGUNG_STATUS)[number];

/** How many months after the end of its period a certificate with rest still counts as active at most. */
export const AKTIV_MONATE = 12;

const MILLI = 1000n;

/** "12.5" → 12500n (thousandths, half away from zero beyond). */
export function milli(value: string | number): bigint {
  const s = typeof value === 'number' ? value.toFixed(6) : String(value).trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new RangeError(`not a decimal: ${value}`);
  const [, sign, int, frac = ''] = m;
  const digits = BigInt(int + frac.padEnd(4, '0').slice(0, 4));
  const v = (digits + 5n) / 10n;
  return sign ? -v : v;
}

export function ausMilli(v: bigint): string {
  const sign = v < 0n ? '-' : '';
  const abs = v < 0n ? -v : v;
  const frac = (abs % MILLI).toString().padStart(3, '0').replace(/0+$/, '');
  return `${sign}${abs / MILLI}${frac ? `.${frac}` : ''}`;
}

/**
 * The bio quantity of a delivery (menge × biogehalt / 100, to the thousandth) in the unit of a certificate:
 * what may be covered by certificates at most. No bio content given: the whole quantity. Converted between L
 * and kg with the density of the blend's bio component (BIOKOMPONENTE: FAME in diesel, ethanol in petrol), not
 * the blend's: the 700 L of FAME in 10,000 L of B7 weigh 700 × 0.892 = 624.4 kg, not 700 × 0.837.
 */
export function bioMenge(l: { menge: string; einheit: Einheit; biogehalt: string | null; gruppe: Produktgruppe }, nach: Einheit = l.einheit): string {
  const anteil = l.biogehalt == null ? 100_000n : milli(l.biogehalt); // percent in thousandths
  const product = milli(l.menge) * anteil;
  const den = 100n * MILLI;
  const bio = (product + den / 2n) / den;
  return umrechnen(ausMilli(bio), l.einheit, nach, BIOKOMPONENTE[l.gruppe]);
}

/**
 * The product group of the certificates that can back a delivery or collection of `gruppe`: that of its bio
 * component (BIOKOMPONENTE). A certificate is for the biofuel (FAME, ethanol, HVO, vegetable oil); a B7 diesel or
 * an E10 petrol carries FAME or ethanol, so "the same product group" (certificates-and-balances.md section 3)
 * means the bio component's group: a biodiesel certificate backs the 7 % of a B7 (docs/decisions.md).
 */
export function zertifikatGruppe(gruppe: Produktgruppe): Produktgruppe {
  return BIOKOMPONENTE[gruppe];
}

/** Inbound link status from the delivery's collection and whether each of the collection's certificates is provisional. */
export function verknuepfungStatus(abholungNr: string | null, vorlaeufig: readonly boolean[]): VerknuepfungStatus {
  if (!abholungNr) return 'nicht_verknuepft';
  return vorlaeufig.some(Boolean) ? 'vorlaeufig' : 'endgueltig';
}

/**
 * Delivery certificate status from its bio quantity and its live assignments (volume in the same unit and
 * whether the certificate is provisional): fully covered by final certificates, or not.
 */
export function zertifikatStatus(bio: string, zuordnungen: readonly { volumen: string; vorlaeufig: boolean }[]): ZertifikatStatus {
  if (!zuordnungen.length) return 'keine';
  const gedeckt = zuordnungen.reduce((s, z) => s + milli(z.volumen), 0n);
  return gedeckt >= milli(bio) && zuordnungen.every((z) => !z.vorlaeufig) ? 'mit_endgueltigen' : 'ohne_endgueltige';
}

/** ISO date `months` months after `iso` (the last day of the month when that month is shorter). */
export function plusMonate(iso: string, months: number): string {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export interface VerfolgungEingabe {
  /** Remaining quantity of the certificate (or proof). */
  rest: string;
  vorlaeufig: boolean;
  /** Whether a delivery it is linked to (through its collection, or assigned) is not yet completed (open or in progress). */
  lieferungOffen: boolean;
  /** End of the certificate's period (ISO date), or null: its issue date then stands for it. */
  zeitraumBis: string | null;
  /** Its expiry (nachweisAblauf: by default 15 April of the year after zeitraumBis), ISO date. */
  ablauf: string;
  heute: string;
}

/**
 * The tracking label, in this order (docs/decisions.md, "Tracking status"):
 * 1. `ausstehend`: provisional, or linked to a delivery not yet completed: it cannot be relied on yet;
 * 2. `verbraucht`: nothing remains;
 * 3. `abgelaufen`: rest remains but today is after its expiry, or more than 12 months after its period ended;
 * 4. `aktiv`: rest remains and it may still be used.
 */
export function verfolgungStatus(e: VerfolgungEingabe): VerfolgungStatus {
  if (e.vorlaeufig || e.lieferungOffen) return 'ausstehend';
  if (milli(e.rest) <= 0n) return 'verbraucht';
  const ende = e.zeitraumBis ? plusMonate(e.zeitraumBis, AKTIV_MONATE) : null;
  if (e.heute > e.ablauf || (ende && e.heute > ende)) return 'abgelaufen';
  return 'aktiv';
}
