// The figures of the public THG display (certificates-and-balances.md section 6; docs/decisions.md "Public THG
// display"): the GHG saving of the bio quantities a tenant delivered today, this month and this year, and what
// the year's saving equals in everyday terms. Pure and exact; the query collects the posts.
//
// One post is one allocation line or one assignment of a certificate to an outbound delivery: its bio quantity,
// the certificate's LCV per unit of that quantity and E. Saving in t CO2eq = menge × LCV × (Basiswert − E) / 10⁶
// (thgMinderungT), with the Basiswert valid on the delivery's date.
import { alsKurztext, dez, gerundet, plus, quotient, vergleiche, verschoben, type Dec } from './dezimal.js';
import { energie, thgMinderungT } from './ghg.js';

export interface Einsparposten {
  /** ISO date of the outbound delivery. */
  datum: string;
  menge: Dec;
  /** MJ per unit of `menge`. */
  lcv: Dec;
  /** E of the certificate, g CO2eq/MJ. */
  e: Dec;
  /** Basiswert valid on `datum`, g CO2eq/MJ. */
  basiswert: Dec;
}

export interface Einsparungen {
  heute: Dec;
  monat: Dec;
  jahr: Dec;
}

/** Decimal places of the tonnes shown and served (a kilogram). */
export const TONNEN_STELLEN = 3;

/** Saving of one post in t CO2eq, exact. */
export function einsparungT(p: Einsparposten): Dec {
  return thgMinderungT(energie(p.menge, p.lcv), p.e, p.basiswert);
}

/** The first day of `heute`'s month and year: the periods "this month" and "this year" run from there to today. */
export function zeitraeume(heute: string): { heute: string; monatAb: string; jahrAb: string } {
  return { heute, monatAb: `${heute.slice(0, 8)}01`, jahrAb: `${heute.slice(0, 5)}01-01` };
}

/** Sums of today, this month and this year (to `TONNEN_STELLEN` places); posts after today or before the year are ignored. */
export function einsparungen(posten: readonly Einsparposten[], heute: string): Einsparungen {
  const z = zeitraeume(heute);
  let tag = dez('0');
  let monat = dez('0');
  let jahr = dez('0');
  for (const p of posten) {
    if (p.datum > heute || p.datum < z.jahrAb) continue;
    const t = dez(einsparungT(p));
    jahr = plus(jahr, t);
    if (p.datum >= z.monatAb) monat = plus(monat, t);
    if (p.datum === heute) tag = plus(tag, t);
  }
  const runde = (d: typeof tag) => alsKurztext(gerundet(d, TONNEN_STELLEN));
  return { heute: runde(tag), monat: runde(monat), jahr: runde(jahr) };
}

export const AEQUIVALENT_EINHEITEN = ['auto_100km', 'flug_500km', 'schwein_kg', 'rind_kg'] as const;
export type AequivalentEinheit = (typeof AEQUIVALENT_EINHEITEN)[number];

export interface Aequivalentfaktor {
  einheit: AequivalentEinheit;
  /** kg CO2eq of one unit. */
  kgCo2e: Dec;
  /** Where the estimate comes from (shown on screen). */
  quelle: string;
}

export interface Aequivalent {
  einheit: AequivalentEinheit;
  /** Whole units, rounded half up; 0 for a saving of zero or less. */
  anzahl: number;
  quelle: string;
}

/** How many units of each comparison a saving of `tonnen` t CO2eq equals: tonnes × 1000 / kg per unit. */
export function aequivalente(tonnen: Dec, faktoren: readonly Aequivalentfaktor[]): Aequivalent[] {
  const kg = verschoben(dez(tonnen), -3);
  return faktoren.map((f) => {
    const faktor = dez(f.kgCo2e);
    if (faktor.n <= 0n) throw new RangeError(`factor must be positive: ${f.kgCo2e}`);
    const anzahl = vergleiche(kg, dez('0')) <= 0 ? 0 : Number(alsKurztext(quotient(kg, faktor, 0)));
    return { einheit: f.einheit, anzahl, quelle: f.quelle };
  });
}
