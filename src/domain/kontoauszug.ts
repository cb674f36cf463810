// The Nachweis-Kontoauszug (certificate account statement, as Nabisy's; issue 18): per certificate held by the
// tenant (an original Nachweis or a Teilnachweis split off one) and a period, what it held at the start, what it
// received, what was split off it, what was assigned from it, and what it held at the end, with the numbers of
// the parts and deliveries as references. Pure and exact.
//
//   Anfangsbestand + Zugang − Geteilt − Zugeordnet = Endbestand ≥ 0
//
// (for a certificate received in the period the opening balance is 0, so received − split − assigned = remaining).
//
// Which dates put a movement in the period (docs/decisions.md "Reports: certificate statement, THG and quota"):
// - Zugang: an original certificate on the earlier of its issue date and the day it was entered; a Teilnachweis
//   on the day of its split;
// - Teilung: the day the part was split off (the part's creation, in Germany);
// - Zuordnung: the day the proof was made from the certificate (an assignment to an outbound delivery, a POC a
//   closed Bilanz issued, or a proof issued without a delivery), in Germany.
// A movement dated before its certificate's receipt (a data entry back-dated by hand) counts on the day of the
// receipt, so no balance is ever negative. Cancelled parts and cancelled proofs gave their quantity back and are
// no movements: the statement shows the live state, whose closing balance today is the certificate's stored rest.
import { alsText, dez, gerundet, minus, plus, quotient, vergleiche, type Dec, type Dez } from './dezimal.js';

export interface Konto {
  nr: string;
  /** ISO date the certificate came into the account. */
  zugangAm: string;
  menge: Dec;
  einheit: 'L' | 'kg';
  /** Density in kg/L of the certificate's product group, to add kilograms to the litres of the sums. */
  kgProL: Dec;
}

export type BewegungArt = 'teilung' | 'zuordnung';

export interface Bewegung {
  nachweisNr: string;
  art: BewegungArt;
  /** ISO date of the booking. */
  datum: string;
  menge: Dec;
  /** The part's number (Teilung), the delivery's or else the proof's number (Zuordnung). */
  referenz: string;
}

export interface KontoZeile {
  nr: string;
  anfangsbestand: Dec;
  zugang: Dec;
  geteilt: Dec;
  zugeordnet: Dec;
  endbestand: Dec;
  /** References of the period's movements, in date order then as given. */
  teile: string[];
  zuordnungen: string[];
}

export type KontoSumme = Pick<KontoZeile, 'anfangsbestand' | 'zugang' | 'geteilt' | 'zugeordnet' | 'endbestand'>;

/**
 * Quantities are stored with three places (NUMERIC(18,3)); the statement serves them so. Rows keep their
 * certificate's unit; the sums are litres, a row in kg converted with its group's density (as the lists' sums),
 * each of its figures but the closing balance, which is opening + received − split − assigned of the converted
 * figures, so the sums keep the identity exactly.
 */
export const MENGE_STELLEN = 3;

const NULL: Dez = { n: 0n, s: 0 };
const text = (d: Dez) => alsText(gerundet(d, MENGE_STELLEN));

export class KontoUngueltig extends RangeError {}

/**
 * The statement for `von`..`bis` (inclusive ISO dates). A certificate appears when it held something at the start
 * or had a movement in the period; rows in the order of `konten`. Movements of certificates not in `konten` are
 * ignored. Throws KontoUngueltig when a certificate's outflows exceed its quantity (the database forbids it).
 */
export function kontoauszug(konten: readonly Konto[], bewegungen: readonly Bewegung[], von: string, bis: string): { zeilen: KontoZeile[]; summe: KontoSumme } {
  const jeKonto = new Map<string, Bewegung[]>();
  for (const b of bewegungen) {
    const liste = jeKonto.get(b.nachweisNr);
    if (liste) liste.push(b);
    else jeKonto.set(b.nachweisNr, [b]);
  }
  const summe = { anfangsbestand: NULL, zugang: NULL, geteilt: NULL, zugeordnet: NULL, endbestand: NULL };
  const zeilen: KontoZeile[] = [];
  for (const k of konten) {
    if (k.zugangAm > bis) continue;
    const menge = dez(k.menge);
    let anfang = k.zugangAm < von ? menge : NULL;
    const zugang = k.zugangAm >= von ? menge : NULL;
    let geteilt = NULL;
    let zugeordnet = NULL;
    let alle = NULL;
    const imZeitraum: (Bewegung & { wirksam: string })[] = [];
    for (const b of jeKonto.get(k.nr) ?? []) {
      const wirksam = b.datum < k.zugangAm ? k.zugangAm : b.datum;
      const m = dez(b.menge);
      alle = plus(alle, m);
      if (wirksam > bis) continue;
      if (wirksam < von) anfang = minus(anfang, m);
      else {
        if (b.art === 'teilung') geteilt = plus(geteilt, m);
        else zugeordnet = plus(zugeordnet, m);
        imZeitraum.push({ ...b, wirksam });
      }
    }
    if (vergleiche(alle, menge) > 0) throw new KontoUngueltig(`${k.nr}: ${alsText(alle)} taken from ${k.menge}`);
    const ende = minus(minus(plus(anfang, zugang), geteilt), zugeordnet);
    if (anfang.n === 0n && imZeitraum.length === 0 && zugang.n === 0n) continue;
    imZeitraum.sort((a, b) => (a.wirksam < b.wirksam ? -1 : a.wirksam > b.wirksam ? 1 : 0));
    zeilen.push({
      nr: k.nr,
      anfangsbestand: text(anfang),
      zugang: text(zugang),
      geteilt: text(geteilt),
      zugeordnet: text(zugeordnet),
      endbestand: text(ende),
      teile: imZeitraum.filter((b) => b.art === 'teilung').map((b) => b.referenz),
      zuordnungen: imZeitraum.filter((b) => b.art === 'zuordnung').map((b) => b.referenz),
    });
    const liter = (d: Dez) => (k.einheit === 'L' ? d : quotient(d, dez(k.kgProL), MENGE_STELLEN));
    const [a, z, g, o] = [liter(anfang), liter(zugang), liter(geteilt), liter(zugeordnet)];
    summe.anfangsbestand = plus(summe.anfangsbestand, a);
    summe.zugang = plus(summe.zugang, z);
    summe.geteilt = plus(summe.geteilt, g);
    summe.zugeordnet = plus(summe.zugeordnet, o);
    summe.endbestand = plus(summe.endbestand, minus(minus(plus(a, z), g), o));
  }
  return {
    zeilen,
    summe: {
      anfangsbestand: text(summe.anfangsbestand),
      zugang: text(summe.zugang),
      geteilt: text(summe.geteilt),
      zugeordnet: text(summe.zugeordnet),
      endbestand: text(summe.endbestand),
    },
  };
}
