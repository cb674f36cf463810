// Assigning certificates to an outbound delivery (certificates-and-balances.md section 3), as pure rules over
// exact decimals: how much of the delivery's bio quantity its live assignments cover, how much is still open,
// the most a certificate may still give, each assignment's share, and the delivery's certificate status.
// The service (src/features/zuordnung) checks with these; the list computes the status with the same rules in
// SQL (zertifikatStatusSql), and the tests hold both against each other.
//
// Everything is measured in the delivery's unit. An assignment in the other unit (a certificate in kg for a
// delivery in L) counts with its quantity converted with the density of the certificate's group (the delivery's
// bio component, as bioMenge converts) and rounded to the thousandth, as the list sums convert
// (src/domain/units.ts). Such a rounding can leave a thousandth of a unit that no certificate quantity hits
// exactly; so that a delivery covered as far as the units allow counts as covered, each assignment in the other
// unit forgives one thousandth (docs/decisions.md, "Certificates on outbound deliveries").
import type { Produktgruppe } from './fuels.js';
import { ausMilli, bioMenge, milli, zertifikatGruppe, zertifikatStatus, type ZertifikatStatus } from './lieferkette.js';
import { umrechnen, type Einheit } from './units.js';

/** The delivery as the assignment rules see it. */
export interface ZuLieferung {
  menge: string;
  einheit: Einheit;
  /** Percent; null: the whole quantity is bio. */
  biogehalt: string | null;
  gruppe: Produktgruppe;
}

/** A live assignment: its volume in its certificate's unit, and whether the certificate is provisional. */
export interface Belegung {
  volumen: string;
  einheit: Einheit;
  vorlaeufig?: boolean;
}

/** A volume of a certificate in the delivery's unit (rounded to the thousandth). */
export const inLieferEinheit = (l: ZuLieferung, volumen: string, einheit: Einheit): string => umrechnen(volumen, einheit, l.einheit, zertifikatGruppe(l.gruppe));

/** The delivery's bio quantity in its own unit. */
export const bioDerLieferung = (l: ZuLieferung): string => bioMenge({ menge: l.menge, einheit: l.einheit, biogehalt: l.biogehalt, gruppe: l.gruppe });

/** What the live assignments cover, in the delivery's unit. */
export function gedeckt(l: ZuLieferung, belegt: readonly Belegung[]): string {
  return ausMilli(belegt.reduce((s, b) => s + milli(inLieferEinheit(l, b.volumen, b.einheit)), 0n));
}

/** What is still open of the bio quantity, in the delivery's unit (never below zero). */
export function offen(l: ZuLieferung, belegt: readonly Belegung[]): string {
  const rest = milli(bioDerLieferung(l)) - milli(gedeckt(l, belegt));
  return ausMilli(rest > 0n ? rest : 0n);
}

/** Whether `neu` (a volume in its certificate's unit) still fits into the bio quantity beside `belegt`. */
export function passt(l: ZuLieferung, belegt: readonly Belegung[], neu: { volumen: string; einheit: Einheit }): boolean {
  return milli(inLieferEinheit(l, neu.volumen, neu.einheit)) <= milli(offen(l, belegt));
}

/**
 * The most a certificate with `rest` left (in its unit `einheit`) may still give to the delivery: its rest, or
 * the largest volume in its unit that still fits (`passt`), whichever is less. "0" when nothing fits.
 */
export function hoechstens(l: ZuLieferung, belegt: readonly Belegung[], rest: string, einheit: Einheit): string {
  const open = offen(l, belegt);
  let v = milli(umrechnen(open, l.einheit, einheit, zertifikatGruppe(l.gruppe)));
  // The conversion back may round up past what is open: step down a thousandth at a time (at most two steps,
  // since a thousandth of one unit is less than two of the other for every product group's density).
  while (v > 0n && milli(inLieferEinheit(l, ausMilli(v), einheit)) > milli(open)) v -= 1n;
  const r = milli(rest);
  return ausMilli(v < r ? (v > 0n ? v : 0n) : r);
}

/** An assignment's share of the delivery's bio quantity in percent, to two decimals; null without bio quantity. */
export function anteil(l: ZuLieferung, volumen: string, einheit: Einheit): string | null {
  const bio = milli(bioDerLieferung(l));
  if (bio <= 0n) return null;
  // percent × 100 (two decimals), half away from zero: v × 10000 / bio.
  const num = milli(inLieferEinheit(l, volumen, einheit)) * 10_000n;
  const hundredths = (2n * num + bio) / (2n * bio);
  const frac = (hundredths % 100n).toString().padStart(2, '0');
  return `${hundredths / 100n}.${frac}`;
}

/** The thousandths forgiven for assignments in the other unit (see the header). */
const nachsicht = (l: ZuLieferung, belegt: readonly Belegung[]) => BigInt(belegt.filter((b) => b.einheit !== l.einheit).length);

/**
 * The delivery certificate status (`zertifikatStatus` of lieferkette.ts) of a delivery and its live
 * assignments in whatever units they come: converted to the delivery's unit first.
 */
export function lieferungZertifikatStatus(l: ZuLieferung, belegt: readonly Belegung[]): ZertifikatStatus {
  const bio = milli(bioDerLieferung(l)) - nachsicht(l, belegt);
  return zertifikatStatus(ausMilli(bio > 0n ? bio : 0n), belegt.map((b) => ({ volumen: inLieferEinheit(l, b.volumen, b.einheit), vorlaeufig: Boolean(b.vorlaeufig) })));
}
