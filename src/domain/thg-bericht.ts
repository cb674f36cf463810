// The THG-Bericht (issue 18): energy, emissions, GHG saving and saving in percent of the bio quantities a tenant
// delivered, per product group and month. Pure and exact (decimal strings in and out, see dezimal.ts).
//
// Its posts are the public THG display's (src/domain/thg-anzeige.ts, docs/decisions.md "Public THG display"):
// one post per live proof on an outbound delivery and per open Bilanz line without a POC, with its bio quantity,
// the certificate's LCV per unit of that quantity, E, and the law values valid on the delivery's date. So the
// report's saving of a month is the display's, to the kilogram.
//
//   energy (MJ)          = menge × LCV
//   emissions (t CO2eq)  = MJ × E / 10⁶
//   saving (t CO2eq)     = MJ × (Basiswert − E) / 10⁶          (thgMinderungT, the German quota's measure)
//   saving (%)           = Σ MJ × (EF − E) / EF  ÷  Σ MJ × 100   (RED II's saving, weighted by energy)
import { alsKurztext, alsText, dez, gerundet, mal, minus, plus, quotient, verschoben, type Dec, type Dez } from './dezimal.js';
import { energie, thgMinderungT } from './ghg.js';

export interface ThgPosten {
  /** ISO date of the outbound delivery. */
  datum: string;
  /** The certificate's product group (the bio component's: FAME, HVO, ethanol …). */
  produktgruppe: string;
  menge: Dec;
  /** MJ per unit of `menge`. */
  lcv: Dec;
  /** E of the post, g CO2eq/MJ. */
  e: Dec;
  /** Basiswert valid on `datum`, g CO2eq/MJ. */
  basiswert: Dec;
  /** Fossil comparator EF valid on `datum`, g CO2eq/MJ. */
  vergleichswert: Dec;
}

export interface ThgZeile {
  /** 'YYYY-MM'. */
  monat: string;
  produktgruppe: string;
  energieMJ: Dec;
  emissionenT: Dec;
  einsparungT: Dec;
  /** Saving in % of the comparator, weighted by energy; null without energy. */
  einsparungProzent: Dec | null;
}

export type ThgSumme = Omit<ThgZeile, 'monat' | 'produktgruppe'>;

/** Places of the figures served: MJ and tonnes to three (a kilogram, as the display), percent to two (as a PoS). */
export const MJ_STELLEN = 3;
export const T_STELLEN = 3;
export const PROZENT_STELLEN = 2;
/** Places a single post's weighted saving is carried with before the sums are divided (far below what is shown). */
const ZWISCHEN_STELLEN = 12;

interface Topf {
  mj: Dez;
  emission: Dez;
  einsparung: Dez;
  /** Σ MJ × (EF − E) / EF */
  gewichtet: Dez;
}

const NULL: Dez = { n: 0n, s: 0 };
const leer = (): Topf => ({ mj: NULL, emission: NULL, einsparung: NULL, gewichtet: NULL });

function addiere(topf: Topf, p: ThgPosten): void {
  const mj = dez(energie(p.menge, p.lcv));
  const ef = dez(p.vergleichswert);
  if (ef.n <= 0n) throw new RangeError(`fossil comparator must be positive: ${p.vergleichswert}`);
  topf.mj = plus(topf.mj, mj);
  topf.emission = plus(topf.emission, verschoben(mal(mj, dez(p.e)), 6));
  topf.einsparung = plus(topf.einsparung, dez(thgMinderungT(alsKurztext(mj), p.e, p.basiswert)));
  topf.gewichtet = plus(topf.gewichtet, quotient(mal(mj, minus(ef, dez(p.e))), ef, ZWISCHEN_STELLEN));
}

function figuren(t: Topf): ThgSumme {
  return {
    energieMJ: alsText(gerundet(t.mj, MJ_STELLEN)),
    emissionenT: alsText(gerundet(t.emission, T_STELLEN)),
    einsparungT: alsText(gerundet(t.einsparung, T_STELLEN)),
    einsparungProzent: t.mj.n === 0n ? null : alsText(quotient(verschoben(t.gewichtet, -2), t.mj, PROZENT_STELLEN)),
  };
}

/**
 * Rows per month and product group (months ascending, groups by name), and the totals. Each row and the total are
 * rounded from the exact sums, so a total may differ from the sum of its rounded rows by less than a gram per row.
 */
export function thgBericht(posten: readonly ThgPosten[]): { zeilen: ThgZeile[]; summe: ThgSumme } {
  const toepfe = new Map<string, Topf>();
  const gesamt = leer();
  for (const p of posten) {
    const key = `${p.datum.slice(0, 7)}|${p.produktgruppe}`;
    let topf = toepfe.get(key);
    if (!topf) toepfe.set(key, (topf = leer()));
    addiere(topf, p);
    addiere(gesamt, p);
  }
  const zeilen = [...toepfe.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, topf]) => {
      const [monat, produktgruppe] = key.split('|');
      return { monat, produktgruppe, ...figuren(topf) };
    });
  return { zeilen, summe: figuren(gesamt) };
}
