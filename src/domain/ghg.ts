// The greenhouse-gas figures of a certificate (Nachweis, PoS): its intensity E, its saving against the fossil
// comparator, the minimum saving its plant must reach, its energy and its saving in tonnes for the German
// quota. Pure and exact (decimal strings in and out, BigInt inside, see dezimal.ts); no I/O.
//
// The law's numbers (comparator, Basiswert, thresholds and their dates) change with the law, so none of them
// is written here: the caller reads the values valid on the certificate's date from the dated settings and
// passes them in as `Gesetzeswerte`. Reference energy contents are RED II Annex III data from fuels.ts.
import type { Gesetzeswerte } from './gesetzeswerte.js';
import { referenzLcv, type Produktgruppe } from './fuels.js';
import {
  alsKurztext, alsText, betrag, dez, gerundet, mal, minus, plus, quotient, vergleiche, verschoben, type Dec, type Dez,
} from './dezimal.js';
import type { Einheit } from './units.js';

export type { Dec } from './dezimal.js';

/** RED II Annex V part C: E = eec + el + ep + etd + eu − esca − eccs − eccr (gCO2eq/MJ). */
export const EMISSIONSTEILE = ['eec', 'el', 'ep', 'etd', 'eu', 'esca', 'eccs', 'eccr'] as const;
export type Emissionsteil = (typeof EMISSIONSTEILE)[number];
export type Emissionen = Partial<Record<Emissionsteil, Dec | null>>;

/** The savings (soil carbon, carbon capture and storage, capture and replacement): subtracted, not added. */
export const GUTSCHRIFTEN: readonly Emissionsteil[] = ['esca', 'eccs', 'eccr'];

/** E and the saving in percent are stated with two decimals on a PoS, and compared as stated. */
export const THG_STELLEN = 2;
/** A converted LCV is stored with four decimals (the scale of the LCV columns). */
export const LCV_STELLEN = 4;
/**
 * The parts and the total default value of one PoS may differ by rounding (each part is rounded on the form);
 * beyond 0.1 g they disagree. A rule of the check, not of the law.
 */
export const SUMME_TOLERANZ_G = '0.1';

/** The law values valid on one date (read from the dated settings table by the caller): see gesetzeswerte.ts. */
export type { Gesetzeswerte } from './gesetzeswerte.js';

/** A part counts as given when it holds a value; an empty form field arrives as '' and is not a zero. */
function gegeben(value: Dec | null | undefined): value is Dec {
  return value != null && value.trim() !== '';
}

const VORZEICHEN: Record<Emissionsteil, 1 | -1> = { eec: 1, el: 1, ep: 1, etd: 1, eu: 1, esca: -1, eccs: -1, eccr: -1 };

const NULL: Dez = { n: 0n, s: 0 };

function eExakt(teile: Emissionen): Dez | null {
  let summe: Dez | null = null;
  for (const teil of EMISSIONSTEILE) {
    const wert = teile[teil];
    if (!gegeben(wert)) continue;
    const bisher: Dez = summe ?? NULL;
    summe = VORZEICHEN[teil] === 1 ? plus(bisher, dez(wert)) : minus(bisher, dez(wert));
  }
  return summe;
}

/** E from the parts, rounded to two decimals (half away from zero); null when no part is given. */
export function eAusTeilen(teile: Emissionen): Dec | null {
  const e = eExakt(teile);
  return e === null ? null : alsText(gerundet(e, THG_STELLEN));
}

/** The certificate's E: from the parts when any is given, else its total default value; two decimals. */
export function thg(teile: Emissionen, gesamtStandardwert: Dec | null): { wert: Dec | null; quelle: 'teile' | 'standardwert' | null } {
  const ausTeilen = eAusTeilen(teile);
  if (ausTeilen !== null) return { wert: ausTeilen, quelle: 'teile' };
  if (gegeben(gesamtStandardwert)) return { wert: alsText(gerundet(dez(gesamtStandardwert), THG_STELLEN)), quelle: 'standardwert' };
  return { wert: null, quelle: null };
}

/**
 * Do the parts and the total default value disagree? Both are compared as the certificate states them, at two
 * decimals, so that a difference of 0.10 on the page is never a mismatch while 0.11 is.
 */
export function summeWeichtAb(teile: Emissionen, gesamtStandardwert: Dec | null): boolean {
  const ausTeilen = eAusTeilen(teile);
  if (ausTeilen === null || !gegeben(gesamtStandardwert)) return false;
  const differenz = betrag(minus(dez(ausTeilen), gerundet(dez(gesamtStandardwert), THG_STELLEN)));
  return vergleiche(differenz, dez(SUMME_TOLERANZ_G)) > 0;
}

/** Saving in percent, (EF − E) / EF × 100, rounded to two decimals before anything compares it. */
export function einsparung(e: Dec, vergleichswert: Dec): Dec {
  const ef = dez(vergleichswert);
  if (ef.n <= 0n) throw new RangeError(`fossil comparator must be positive: ${vergleichswert}`);
  return alsText(quotient(verschoben(minus(ef, dez(e)), -2), ef, THG_STELLEN));
}

/**
 * The minimum saving for a plant. Without a plant date the strictest threshold applies (only an import of
 * old data may omit it, and it must not pass on a laxer rule). A date before every entry also gets the
 * strictest: the settings do not cover it, and the safe reading is the strict one.
 */
export function schwelle(anlageInbetriebnahme: string | null, werte: Gesetzeswerte): { prozent: Dec; anlageBekannt: boolean } {
  if (werte.schwellen.length === 0) throw new RangeError('no minimum-saving thresholds in the law values');
  const strengste = werte.schwellen.reduce((a, b) => (vergleiche(dez(b.prozent), dez(a.prozent)) > 0 ? b : a));
  const datum = anlageInbetriebnahme?.trim() ? anlageInbetriebnahme.trim().slice(0, 10) : null;
  if (datum === null) return { prozent: strengste.prozent, anlageBekannt: false };
  // ISO dates compare as text.
  const gilt = werte.schwellen
    .filter((s) => s.anlageAb <= datum)
    .reduce<(typeof werte.schwellen)[number] | null>((a, b) => (a === null || b.anlageAb > a.anlageAb ? b : a), null);
  return { prozent: (gilt ?? strengste).prozent, anlageBekannt: true };
}

/** A saving exactly at the threshold passes. */
export function erfuellt(einsparung: Dec, schwelle: Dec): boolean {
  return vergleiche(dez(einsparung), dez(schwelle)) >= 0;
}

/**
 * Energy in MJ of the bio component: menge × lcv × biogehalt / 100, with lcv in MJ per unit of menge. A blend
 * counts only its bio share (10,000 L of B7 hold 700 L of FAME). Exact.
 */
export function energie(menge: Dec, lcv: Dec, biogehalt?: Dec | null): Dec {
  const anteil = gegeben(biogehalt) ? dez(biogehalt) : dez('100');
  return alsKurztext(verschoben(mal(mal(dez(menge), dez(lcv)), anteil), 2));
}

/** An LCV in the other unit with the density in kg/L (MJ/L = MJ/kg × kg/L), to four decimals. */
export function lcvUmrechnen(lcv: Dec, von: 'MJ/L' | 'MJ/kg', nach: 'MJ/L' | 'MJ/kg', dichte: Dec): Dec {
  const wert = dez(lcv);
  if (von === nach) return alsText(gerundet(wert, LCV_STELLEN));
  const d = dez(dichte);
  if (d.n <= 0n) throw new RangeError(`density must be positive: ${dichte}`);
  return alsText(von === 'MJ/kg' ? gerundet(mal(wert, d), LCV_STELLEN) : quotient(wert, d, LCV_STELLEN));
}

/**
 * Tonnes of CO2eq saved against the Basiswert: energy × (Basiswert − E) / 10⁶. Exact and unrounded, so that
 * the savings of the parts of a split certificate add up to the saving of the whole; negative when E is above
 * the Basiswert.
 */
export function thgMinderungT(energieMJ: Dec, e: Dec, basiswert: Dec): Dec {
  return alsKurztext(verschoben(mal(dez(energieMJ), minus(dez(basiswert), dez(e))), 6));
}

/**
 * The product group whose Annex III energy content a certificate's quantity has. A certificate for a blend
 * certifies its bio component, so B7 diesel counts FAME's 33 MJ/L and E10 petrol ethanol's 21 MJ/L, never
 * the blend's own (certificates-and-balances.md §1). HVO in diesel needs its LCV given.
 */
export const BIOKOMPONENTE: Readonly<Record<Produktgruppe, Produktgruppe>> = {
  diesel: 'biodiesel',
  benzin: 'bioethanol',
  biodiesel: 'biodiesel',
  bioethanol: 'bioethanol',
  hvo: 'hvo',
  pflanzenoel: 'pflanzenoel',
};

export type NachweisEingabe = {
  menge: Dec;
  einheit: Einheit;
  /** MJ per unit of menge; null: the reference of the bio component in that unit. */
  lcv: Dec | null;
  /** Percent of menge that is bio; null: all of it. */
  biogehalt: Dec | null;
  produktgruppe: Produktgruppe;
  anlageInbetriebnahme: string | null;
  gesamtStandardwert: Dec | null;
} & Emissionen;

export interface NachweisErgebnis {
  /** E in gCO2eq/MJ, two decimals. */
  thg: Dec | null;
  thgQuelle: 'teile' | 'standardwert' | null;
  /** Saving in percent, two decimals. */
  einsparung: Dec | null;
  /** The minimum saving that applies, percent. */
  schwelle: Dec;
  anlageBekannt: boolean;
  /** null when there is no E to judge. */
  schwelleErfuellt: boolean | null;
  /** The given LCV, or the bio component's reference in the unit of einheit. */
  lcv: Dec;
  lcvAusReferenz: boolean;
  /** MJ of the bio component. */
  energiegehalt: Dec;
  thgMinderungT: Dec | null;
  summeWeichtAb: boolean;
  /** E from the parts alone (for the mismatch display), two decimals. */
  eTeile: Dec | null;
}

/** Everything a certificate's page and list show, computed from its inputs with the law values of its date. */
export function berechneNachweis(n: NachweisEingabe, werte: Gesetzeswerte): NachweisErgebnis {
  const e = thg(n, n.gesamtStandardwert);
  const s = schwelle(n.anlageInbetriebnahme, werte);
  const prozent = e.wert === null ? null : einsparung(e.wert, werte.fossilerVergleichswert);
  const lcvAusReferenz = !gegeben(n.lcv);
  const lcv = gegeben(n.lcv) ? n.lcv : String(referenzLcv(BIOKOMPONENTE[n.produktgruppe], n.einheit === 'L' ? 'MJ/L' : 'MJ/kg'));
  const energiegehalt = energie(n.menge, lcv, n.biogehalt);
  return {
    thg: e.wert,
    thgQuelle: e.quelle,
    einsparung: prozent,
    schwelle: s.prozent,
    anlageBekannt: s.anlageBekannt,
    schwelleErfuellt: prozent === null ? null : erfuellt(prozent, s.prozent),
    lcv,
    lcvAusReferenz,
    energiegehalt,
    thgMinderungT: e.wert === null ? null : thgMinderungT(energiegehalt, e.wert, werte.basiswert),
    summeWeichtAb: summeWeichtAb(n, n.gesamtStandardwert),
    eTeile: eAusTeilen(n),
  };
}
