// The values the law fixes for the GHG computations, and which of them apply on a date: pure, over the rows
// of the `gesetzeswerte` table (migrations/20261128000000_gesetzeswerte.ts). The values themselves live only
// there; this file knows their kinds and the rule of their validity, never a figure.
//
// The rule (docs/decisions.md, "Legal values"): for each kind and reference (a threshold's plant date, a quota's
// year) the row with the latest valid-from date on or before the date applies. A date before the first
// valid-from date of a kind is read as that first date, so the earliest values also cover older dates; a
// reference that only came into force later (a new plant band, say) is not carried back.
//
// Beside the law's values the table holds the factors of the public THG display's equivalents (kind
// 'aequivalent', one per everyday unit: kg CO2eq of a car trip of 100 km, …): estimates, not law, but dated and
// chosen by the same rule, so a better estimate is a new row from a later date (docs/decisions.md, "Public THG
// display").
import { AEQUIVALENT_EINHEITEN, type Aequivalentfaktor, type AequivalentEinheit } from './thg-anzeige.js';

export const GESETZESWERT_ARTEN = ['fossiler_vergleichswert', 'basiswert', 'schwelle', 'quote', 'nachweis_ablauf', 'aequivalent'] as const;
export type GesetzeswertArt = (typeof GESETZESWERT_ARTEN)[number];

export function isGesetzeswertArt(value: unknown): value is GesetzeswertArt {
  return typeof value === 'string' && (GESETZESWERT_ARTEN as readonly string[]).includes(value);
}

/** The extra key of a kind: a threshold's plant date, a quota's year, an equivalent's unit; the other kinds have none (''). */
export const BEZUG_DER_ART: Record<GesetzeswertArt, 'anlageAb' | 'jahr' | 'einheit' | null> = {
  fossiler_vergleichswert: null,
  basiswert: null,
  schwelle: 'anlageAb',
  quote: 'jahr',
  nachweis_ablauf: null,
  aequivalent: 'einheit',
};

/** The units of the equivalents (the reference of kind 'aequivalent'), in the order the display names them. */
export { AEQUIVALENT_EINHEITEN, type AequivalentEinheit };

export function isAequivalentEinheit(value: unknown): value is AequivalentEinheit {
  return typeof value === 'string' && (AEQUIVALENT_EINHEITEN as readonly string[]).includes(value);
}

/** The values of the GHG computation valid on one date. Decimals are exact strings without trailing zeros. */
export interface Gesetzeswerte {
  /** Fossil comparator EF in g CO2eq/MJ (RED II Annex V C). */
  fossilerVergleichswert: string;
  /** Basiswert of the German THG quota in kg CO2eq/GJ (= g/MJ). */
  basiswert: string;
  /** Minimum saving in % by the plant's start of operation: the band whose `anlageAb` is the latest on or before it. Ascending by anlageAb. */
  schwellen: { anlageAb: string; prozent: string }[];
}

/** One stored row as the selection needs it. `wert`: a decimal for the numeric kinds, 'MM-DD' for nachweis_ablauf. */
export interface GesetzeswertZeile {
  art: GesetzeswertArt;
  bezug: string;
  gueltigAb: string;
  wert: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];

/** Whether `value` is an existing calendar day written YYYY-MM-DD (years 0001 to 9999). */
export function isIsoDate(value: unknown): value is string {
  const m = typeof value === 'string' ? ISO_DATE.exec(value) : null;
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo);
}

/** A day of the year, 'MM-DD', that exists in every year (so not 02-29). */
export function isTagImJahr(value: unknown): value is string {
  const m = typeof value === 'string' ? /^(\d{2})-(\d{2})$/.exec(value) : null;
  return !!m && isIsoDate(`2001-${m[1]}-${m[2]}`);
}

/** "94.0000" → "94", "9.2500" → "9.25": a stored decimal as the computations and the API carry it. */
export function ohneNachkommaNullen(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/**
 * The rows valid on `datum`: for each kind and reference the one with the latest valid-from date on or before
 * it, where a date before a kind's first valid-from date counts as that date. Sorted by kind, then reference.
 */
export function gueltigeZeilen<Z extends GesetzeswertZeile>(zeilen: readonly Z[], datum: string): Z[] {
  if (!isIsoDate(datum)) throw new RangeError(`not a date: ${datum}`);
  const erstesAb = new Map<GesetzeswertArt, string>();
  for (const z of zeilen) if (!erstesAb.has(z.art) || z.gueltigAb < erstesAb.get(z.art)!) erstesAb.set(z.art, z.gueltigAb);
  const gueltig = new Map<string, Z>();
  for (const z of zeilen) {
    const stichtag = datum < erstesAb.get(z.art)! ? erstesAb.get(z.art)! : datum;
    if (z.gueltigAb > stichtag) continue;
    const key = `${z.art}|${z.bezug}`;
    const bisher = gueltig.get(key);
    if (!bisher || z.gueltigAb > bisher.gueltigAb) gueltig.set(key, z);
  }
  return [...gueltig.values()].sort((a, b) => (a.art === b.art ? (a.bezug < b.bezug ? -1 : a.bezug > b.bezug ? 1 : 0) : a.art < b.art ? -1 : 1));
}

/** Thrown when the table lacks a value a computation needs: a setup error, not the user's. */
export class GesetzeswertFehlt extends Error {
  constructor(readonly art: GesetzeswertArt, datum: string) {
    super(`no ${art} valid on ${datum} in gesetzeswerte`);
  }
}

/** The values of the GHG computation on `datum`. */
export function gesetzeswerteAus(zeilen: readonly GesetzeswertZeile[], datum: string): Gesetzeswerte {
  const gueltig = gueltigeZeilen(zeilen, datum);
  const einer = (art: GesetzeswertArt) => {
    const z = gueltig.find((x) => x.art === art);
    if (!z) throw new GesetzeswertFehlt(art, datum);
    return ohneNachkommaNullen(z.wert);
  };
  const schwellen = gueltig.filter((z) => z.art === 'schwelle').map((z) => ({ anlageAb: z.bezug, prozent: ohneNachkommaNullen(z.wert) }));
  if (!schwellen.length) throw new GesetzeswertFehlt('schwelle', datum);
  return { fossilerVergleichswert: einer('fossiler_vergleichswert'), basiswert: einer('basiswert'), schwellen };
}

/** The Basiswert valid on `datum` alone (from rows of any kinds), for computations that need nothing else. */
export function basiswertAus(zeilen: readonly GesetzeswertZeile[], datum: string): string {
  const z = gueltigeZeilen(zeilen.filter((x) => x.art === 'basiswert'), datum)[0];
  if (!z) throw new GesetzeswertFehlt('basiswert', datum);
  return ohneNachkommaNullen(z.wert);
}

/**
 * The minimum saving in % for a plant in operation since `anlageInbetriebnahme`: the band with the latest
 * `anlageAb` on or before it. A plant older than every band gets the first band.
 */
export function schwelleFuer(werte: Pick<Gesetzeswerte, 'schwellen'>, anlageInbetriebnahme: string): string {
  let treffer = werte.schwellen[0];
  for (const s of werte.schwellen) if (s.anlageAb <= anlageInbetriebnahme) treffer = s;
  return treffer.prozent;
}

/**
 * The quota of calendar year `jahr` in %, as the law stands on `stichtag` (default: the year's last day, so a
 * change enacted for that year applies); null when the table names no quota for that year.
 */
export function quoteAus(zeilen: readonly GesetzeswertZeile[], jahr: number, stichtag = `${String(jahr).padStart(4, '0')}-12-31`): string | null {
  const z = gueltigeZeilen(zeilen.filter((x) => x.art === 'quote'), stichtag).find((x) => x.bezug === String(jahr));
  return z ? ohneNachkommaNullen(z.wert) : null;
}

/**
 * The day a certificate's rest expires: the day of the year (a dated setting) in the year after its period
 * ends, by the rule valid on the period's last day.
 */
export function nachweisAblaufAus(zeilen: readonly GesetzeswertZeile[], zeitraumBis: string): string {
  const z = gueltigeZeilen(zeilen.filter((x) => x.art === 'nachweis_ablauf'), zeitraumBis).find(() => true);
  if (!z) throw new GesetzeswertFehlt('nachweis_ablauf', zeitraumBis);
  const jahr = Number(zeitraumBis.slice(0, 4)) + 1;
  return `${String(jahr).padStart(4, '0')}-${z.wert}`;
}

/**
 * The equivalents' factors valid on `datum`, in the display's order (car, flight, pork, beef): for each unit the
 * row chosen by the rule above, its value the kg CO2eq of one unit and its comment the source shown on screen.
 * A unit without a row is left out.
 */
export function aequivalentfaktorenAus(zeilen: readonly (GesetzeswertZeile & { kommentar?: string | null })[], datum: string): Aequivalentfaktor[] {
  const gueltig = gueltigeZeilen(zeilen.filter((z) => z.art === 'aequivalent'), datum);
  return AEQUIVALENT_EINHEITEN.flatMap((einheit) => {
    const z = gueltig.find((x) => x.bezug === einheit);
    return z ? [{ einheit, kgCo2e: ohneNachkommaNullen(z.wert), quelle: z.kommentar ?? '' }] : [];
  });
}
