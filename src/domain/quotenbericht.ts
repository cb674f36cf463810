// The Quotenbericht (issue 18): per calendar year, the tenant's quota-relevant energy and GHG saving against the
// German GHG quota of that year (§37a BImSchG, 38. BImSchV). Pure and exact.
//
// §37a (4) BImSchG obliges whoever puts fuel on the market to lower the greenhouse-gas emissions of that fuel by
// the year's quota (in %) against a reference value: the energy of all the fuel (fossil and bio) times the
// Basiswert. The fossil part is counted at the Basiswert, so what the obliged party achieves is the saving of its
// bio part, the same posts as the THG-Bericht and the public display:
//
//   Referenzwert (t)  = Σ energy of the outbound deliveries (MJ) × Basiswert / 10⁶
//   Verpflichtung (t) = Quote / 100 × Referenzwert
//   Minderung (t)     = Σ bio posts: MJ × (Basiswert − E) / 10⁶
//   Erfüllung (%)     = Minderung / Verpflichtung × 100
//   Saldo (t)         = Minderung − Verpflichtung   (> 0 surplus, < 0 shortfall)
//
// Only deliveries from quota-obligated locations count (the query's job); the Basiswert of each delivery is the
// one valid on its date; the quota is the year's as the law stands at the year's end (gesetzeswerte.ts quoteAus).
import { alsText, dez, gerundet, mal, minus, plus, quotient, verschoben, type Dec, type Dez } from './dezimal.js';
import { isProduktgruppe, referenzLcv, REFERENZWERTE, type Produktgruppe } from './fuels.js';
import { BIOKOMPONENTE, energie, lcvUmrechnen } from './ghg.js';
import { einsparungT, type Einsparposten } from './thg-anzeige.js';

/** The fossil fuel a product group's non-bio share is (a B7's 93 % are diesel, an E10's 90 % petrol). */
export const FOSSILE_KOMPONENTE: Readonly<Record<Produktgruppe, Produktgruppe>> = {
  diesel: 'diesel',
  biodiesel: 'diesel',
  hvo: 'diesel',
  pflanzenoel: 'diesel',
  benzin: 'benzin',
  bioethanol: 'benzin',
};

export interface Lieferung {
  menge: Dec;
  einheit: 'L' | 'kg';
  produktgruppe: string;
  /** % of menge that is bio; null: the group's (0 for diesel and petrol, 100 for the bio groups). */
  biogehalt: Dec | null;
  /** The product's own LCV, if it has one, and its unit. */
  lcv: Dec | null;
  lcvEinheit: 'MJ/L' | 'MJ/kg' | null;
}

/**
 * MJ of a delivery, fossil and bio: menge × the product's LCV when it has one (converted with the group's density
 * when its unit is the other), else menge × (fossil share × the fossil component's LCV + bio share × the bio
 * component's LCV), RED II Annex III reference values. 10,000 L of B7 hold 9,300 L × 36 + 700 L × 33 = 357,900 MJ.
 */
export function lieferungEnergie(l: Lieferung): Dec {
  const gruppe: Produktgruppe = isProduktgruppe(l.produktgruppe) ? l.produktgruppe : 'diesel';
  const einheit = l.einheit === 'kg' ? 'MJ/kg' : 'MJ/L';
  if (l.lcv != null && l.lcvEinheit != null) {
    return energie(l.menge, lcvUmrechnen(l.lcv, l.lcvEinheit, einheit, String(REFERENZWERTE[gruppe].kgProL)));
  }
  const fossil = FOSSILE_KOMPONENTE[gruppe];
  const bio = dez(l.biogehalt ?? (fossil === gruppe ? '0' : '100'));
  const fossilAnteil = minus(dez('100'), bio);
  const lcv = verschoben(
    plus(mal(fossilAnteil, dez(String(referenzLcv(fossil, einheit)))), mal(bio, dez(String(referenzLcv(BIOKOMPONENTE[gruppe], einheit))))),
    2,
  );
  return energie(l.menge, alsText(lcv));
}

export interface Lieferenergie {
  /** ISO date of the delivery. */
  datum: string;
  energieMJ: Dec;
  /** Basiswert valid on `datum`. */
  basiswert: Dec;
}

export interface Quotenjahr {
  jahr: number;
  /** The part of the year the report covers. */
  von: string;
  bis: string;
  energieMJ: Dec;
  /** MJ of the certified bio quantities (the posts). */
  bioEnergieMJ: Dec;
  referenzT: Dec;
  /** % of the year, null when the law values name none. */
  quote: Dec | null;
  pflichtT: Dec | null;
  einsparungT: Dec;
  erfuellungProzent: Dec | null;
  saldoT: Dec | null;
}

export type QuotenSumme = Pick<Quotenjahr, 'energieMJ' | 'bioEnergieMJ' | 'referenzT' | 'pflichtT' | 'einsparungT' | 'erfuellungProzent' | 'saldoT'>;

export const MJ_STELLEN = 3;
export const T_STELLEN = 3;
export const PROZENT_STELLEN = 2;

const NULL: Dez = { n: 0n, s: 0 };

interface Topf {
  mj: Dez;
  bio: Dez;
  referenz: Dez;
  einsparung: Dez;
}

function figuren(t: Topf, quote: Dec | null): QuotenSumme {
  const pflicht = quote == null ? null : verschoben(mal(t.referenz, dez(quote)), 2);
  const r = (d: Dez, s: number) => alsText(gerundet(d, s));
  return {
    energieMJ: r(t.mj, MJ_STELLEN),
    bioEnergieMJ: r(t.bio, MJ_STELLEN),
    referenzT: r(t.referenz, T_STELLEN),
    pflichtT: pflicht == null ? null : r(pflicht, T_STELLEN),
    einsparungT: r(t.einsparung, T_STELLEN),
    erfuellungProzent: pflicht == null || pflicht.n === 0n ? null : alsText(quotient(verschoben(t.einsparung, -2), pflicht, PROZENT_STELLEN)),
    saldoT: pflicht == null ? null : r(minus(t.einsparung, pflicht), T_STELLEN),
  };
}

/**
 * One row per calendar year from `von` to `bis` (clipped to the period), each with its quota; and the totals over
 * all years, whose obligation is the sum of the years' (null when a year has no quota). Deliveries and posts
 * outside the period are ignored.
 */
export function quotenbericht(
  lieferungen: readonly Lieferenergie[],
  posten: readonly Einsparposten[],
  quoteDesJahres: (jahr: number) => Dec | null,
  von: string,
  bis: string,
): { zeilen: Quotenjahr[]; summe: QuotenSumme } {
  if (von > bis) throw new RangeError(`period ends before it starts: ${von}..${bis}`);
  const ersteJahr = Number(von.slice(0, 4));
  const letztesJahr = Number(bis.slice(0, 4));
  const toepfe = new Map<number, Topf>();
  for (let j = ersteJahr; j <= letztesJahr; j++) toepfe.set(j, { mj: NULL, bio: NULL, referenz: NULL, einsparung: NULL });
  const imZeitraum = (datum: string) => datum >= von && datum <= bis;
  for (const l of lieferungen) {
    if (!imZeitraum(l.datum)) continue;
    const t = toepfe.get(Number(l.datum.slice(0, 4)))!;
    const mj = dez(l.energieMJ);
    t.mj = plus(t.mj, mj);
    t.referenz = plus(t.referenz, verschoben(mal(mj, dez(l.basiswert)), 6));
  }
  for (const p of posten) {
    if (!imZeitraum(p.datum)) continue;
    const t = toepfe.get(Number(p.datum.slice(0, 4)))!;
    t.bio = plus(t.bio, dez(energie(p.menge, p.lcv)));
    t.einsparung = plus(t.einsparung, dez(einsparungT(p)));
  }
  const gesamt: Topf = { mj: NULL, bio: NULL, referenz: NULL, einsparung: NULL };
  let pflichtGesamt: Dez | null = NULL;
  const zeilen: Quotenjahr[] = [];
  for (const [jahr, t] of toepfe) {
    const quote = quoteDesJahres(jahr);
    const jahrVon = `${String(jahr).padStart(4, '0')}-01-01`;
    const jahrBis = `${String(jahr).padStart(4, '0')}-12-31`;
    zeilen.push({ jahr, von: jahrVon < von ? von : jahrVon, bis: jahrBis > bis ? bis : jahrBis, quote, ...figuren(t, quote) });
    gesamt.mj = plus(gesamt.mj, t.mj);
    gesamt.bio = plus(gesamt.bio, t.bio);
    gesamt.referenz = plus(gesamt.referenz, t.referenz);
    gesamt.einsparung = plus(gesamt.einsparung, t.einsparung);
    pflichtGesamt = quote == null || pflichtGesamt == null ? null : plus(pflichtGesamt, verschoben(mal(t.referenz, dez(quote)), 2));
  }
  const ohnePflicht = figuren(gesamt, null);
  const summe: QuotenSumme = pflichtGesamt == null
    ? ohnePflicht
    : {
      ...ohnePflicht,
      pflichtT: alsText(gerundet(pflichtGesamt, T_STELLEN)),
      erfuellungProzent: pflichtGesamt.n === 0n ? null : alsText(quotient(verschoben(gesamt.einsparung, -2), pflichtGesamt, PROZENT_STELLEN)),
      saldoT: alsText(gerundet(minus(gesamt.einsparung, pflichtGesamt), T_STELLEN)),
    };
  return { zeilen, summe };
}
