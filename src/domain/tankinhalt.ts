// Where a tank's current bio content comes from (the Tankstelle's chain view; docs/decisions.md "Tankstelle
// views"): the bio content B of the latest Bestand is explained by the inbound deliveries, newest first (date
// descending, then number descending), each contributing its bio quantity until B is reached; the last one
// contributes only what is still unexplained. What no recorded delivery explains (a tank that held fuel before
// its first recorded delivery, or a Bestand above what came in) is `ohneHerkunft`.
//
// Newest first because a tank is a mixing vessel that is topped up: what is in it now arrived most recently;
// older deliveries have been pumped out already. Pure and exact (thousandths of a litre as BigInt), so that
// Σ anteil + ohneHerkunft = B to the thousandth.
import { ausMilli, milli } from './lieferkette.js';

export interface InhaltLieferung {
  nr: string;
  /** ISO date of the delivery. */
  datum: string;
  /** Its bio quantity in litres (bioMenge of lieferkette.ts), ≥ 0. */
  bioMenge: string;
}

export interface InhaltAnteil<L extends InhaltLieferung = InhaltLieferung> {
  lieferung: L;
  /** The part of B this delivery explains: its bio quantity, the last one less. */
  anteil: string;
}

export interface Tankinhalt<L extends InhaltLieferung = InhaltLieferung> {
  /** The contributing deliveries, newest first. */
  anteile: InhaltAnteil<L>[];
  /** The part of B no delivery explains ("0" when all is explained). */
  ohneHerkunft: string;
  /** B itself, normalised: Σ anteil + ohneHerkunft. */
  summe: string;
}

/** Newest first: date descending, then number descending (the lists' order). */
export const neuesteZuerst = (a: InhaltLieferung, b: InhaltLieferung) =>
  a.datum === b.datum ? (a.nr < b.nr ? 1 : a.nr > b.nr ? -1 : 0) : a.datum < b.datum ? 1 : -1;

/**
 * The composition of bio content `bestandBio` (litres, ≥ 0) from `lieferungen` (any order). Deliveries without
 * bio quantity explain nothing and are left out; once B is explained, older deliveries are not listed.
 */
export function tankinhalt<L extends InhaltLieferung>(bestandBio: string, lieferungen: readonly L[]): Tankinhalt<L> {
  const b = milli(bestandBio);
  if (b < 0n) throw new RangeError(`bio content below zero: ${bestandBio}`);
  let offen = b;
  const anteile: InhaltAnteil<L>[] = [];
  for (const l of [...lieferungen].sort(neuesteZuerst)) {
    if (offen === 0n) break;
    const bio = milli(l.bioMenge);
    if (bio < 0n) throw new RangeError(`bio quantity below zero: ${l.nr}`);
    if (bio === 0n) continue;
    const anteil = bio < offen ? bio : offen;
    anteile.push({ lieferung: l, anteil: ausMilli(anteil) });
    offen -= anteil;
  }
  return { anteile, ohneHerkunft: ausMilli(offen), summe: ausMilli(b) };
}
