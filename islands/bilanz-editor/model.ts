// What the Bilanz editor shows, computed without React or the DOM so it is tested on its own: the allocation lines
// in the order and filter the user chose, with the running total in exactly that order; the footer's sums; what
// each position holds; numbers as the page's language writes them and typed numbers as the API wants them; the
// split's first part. Quantities are decimal strings (the API's "38000", "2500.5"); sums are exact (BigInt in
// ten-thousandths, the finest scale the API sends: t CO2eq has four decimals), never floating point.
import type { BilanzDetail, BilanzPosition, BilanzZuordnung } from '../../src/features/bilanzen/detail';

/** An allocation line as the grid shows it; a preview's lines have no number of their own, date or POC yet. */
export type Zeile = BilanzZuordnung;

/** `POST …/verteilung?vorschau=1`: what allocating would give, nothing stored. */
export interface Vorschau {
  mengeGesamt: string | null;
  bioMenge: string | null;
  zugeordnet: string;
  restBioMenge: string;
  biogehalt: string | null;
  thgMinderungT: string | null;
  zuordnungen: (Omit<BilanzZuordnung, 'nr' | 'lieferdatum' | 'partnerNr' | 'nachweisbescheinigungNr'> & { lieferdatum?: string | null })[];
  nichtGedeckt: BilanzDetail['nichtGedeckt'];
}

export type ZeilenSpalte = 'nr' | 'ablieferungNr' | 'lieferdatum' | 'partnerNr' | 'nachweisNr' | 'menge' | 'thg' | 'thgMinderungT' | 'nachweisbescheinigungNr';
export interface Sortierung {
  spalte: ZeilenSpalte;
  richtung: 'asc' | 'desc';
}

const SCALE = 4;
const FACTOR = 10n ** BigInt(SCALE);

/** A decimal string as a whole number of ten-thousandths; null for null, empty or not a number. */
export function einheiten(v: string | null | undefined): bigint | null {
  if (v == null) return null;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(v).trim());
  if (!m) return null;
  const frac = (m[3] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  const n = BigInt(m[2]) * FACTOR + BigInt(frac);
  return m[1] ? -n : n;
}

/** Ten-thousandths back to the API's decimal string, without trailing zeros ("38000", "99.3894"). */
export function dezimal(n: bigint): string {
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const frac = (abs % FACTOR).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${abs / FACTOR}${frac ? `.${frac}` : ''}`;
}

const summe = (werte: (string | null)[]) => dezimal(werte.reduce<bigint>((s, v) => s + (einheiten(v) ?? 0n), 0n));

/** A preview's lines as the grid's lines: numbered in the engine's order, the partner from their position. */
export function vorschauZeilen(v: Vorschau, positionen: BilanzPosition[]): Zeile[] {
  const partner = new Map(positionen.map((p) => [p.id, p.partnerNr]));
  return v.zuordnungen.map((z, i) => ({ ...z, nr: i + 1, lieferdatum: z.lieferdatum ?? null, partnerNr: partner.get(z.positionId) ?? '', nachweisbescheinigungNr: null }));
}

/** The lines whose delivery, date, partner, certificate, POC or reason contains `text` (any case); all for none. */
export function filtere(zeilen: Zeile[], text: string): Zeile[] {
  const q = text.trim().toLocaleLowerCase();
  if (!q) return zeilen;
  return zeilen.filter((z) =>
    [z.ablieferungNr, z.lieferdatum, z.partnerNr, z.nachweisNr, z.nachweisbescheinigungNr, z.begruendung].some((v) => v != null && v.toLocaleLowerCase().includes(q)),
  );
}

const NUMERISCH = new Set<ZeilenSpalte>(['nr', 'menge', 'thg', 'thgMinderungT']);
const text = new Intl.Collator('de', { numeric: true, sensitivity: 'base' });

function vergleiche(a: Zeile, b: Zeile, spalte: ZeilenSpalte): number {
  const x = a[spalte];
  const y = b[spalte];
  if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;
  if (NUMERISCH.has(spalte)) {
    const d = (einheiten(String(x)) ?? 0n) - (einheiten(String(y)) ?? 0n);
    return d === 0n ? 0 : d < 0n ? -1 : 1;
  }
  return text.compare(String(x), String(y));
}

/**
 * The lines in the chosen order (none: the engine's, by line number). Ties keep the engine's order; empty values
 * (a preview's date, a line without POC) go last in either direction.
 */
export function sortiere(zeilen: Zeile[], s: Sortierung | null): Zeile[] {
  const basis = [...zeilen].sort((a, b) => a.nr - b.nr);
  if (!s || s.spalte === 'nr') return s?.richtung === 'desc' ? basis.reverse() : basis;
  const dir = s.richtung === 'desc' ? -1 : 1;
  return basis.sort((a, b) => {
    const leer = (a[s.spalte] == null ? 1 : 0) - (b[s.spalte] == null ? 1 : 0);
    return leer || dir * vergleiche(a, b, s.spalte) || a.nr - b.nr;
  });
}

/** Click on a column: ascending, then descending, then back to the engine's order. */
export function naechsteSortierung(s: Sortierung | null, spalte: ZeilenSpalte): Sortierung | null {
  if (s?.spalte !== spalte) return { spalte, richtung: 'asc' };
  return s.richtung === 'asc' ? { spalte, richtung: 'desc' } : null;
}

export type MitLaufsumme = Zeile & { laufsumme: string };

/** Each line with the quantity of it and every line above it, in the order shown. */
export function mitLaufsumme(zeilen: Zeile[]): MitLaufsumme[] {
  let s = 0n;
  return zeilen.map((z) => {
    s += einheiten(z.menge) ?? 0n;
    return { ...z, laufsumme: dezimal(s) };
  });
}

/** The footer: Σ quantity and Σ t CO2eq of the lines shown. */
export function summen(zeilen: Zeile[]): { menge: string; thgMinderungT: string } {
  return { menge: summe(zeilen.map((z) => z.menge)), thgMinderungT: summe(zeilen.map((z) => z.thgMinderungT)) };
}

/** What the lines give each position (positions without lines: none). */
export function jePosition(zeilen: Zeile[]): Map<number, string> {
  const m = new Map<number, bigint>();
  for (const z of zeilen) m.set(z.positionId, (m.get(z.positionId) ?? 0n) + (einheiten(z.menge) ?? 0n));
  return new Map([...m].map(([id, n]) => [id, dezimal(n)]));
}

/** The order, the filter and the running total together: what the lines grid renders. */
export function ansicht(zeilen: Zeile[], s: Sortierung | null, filter: string) {
  const gezeigt = mitLaufsumme(filtere(sortiere(zeilen, s), filter));
  return { zeilen: gezeigt, summen: summen(gezeigt), gefiltert: gezeigt.length !== zeilen.length };
}

// Numbers in the page's language ---------------------------------------------------------------------------------

const formate = new Map<string, Intl.NumberFormat>();
const locale = (lang: string) => (lang === 'en' ? 'en-GB' : 'de-DE');

/** A number as the page's language writes it, with exactly `digits` decimals ("38.000", "99,39"); null: "–". */
export function zahl(v: string | number | null | undefined, lang: string, digits = 0): string {
  if (v == null || v === '') return '–';
  const key = `${lang}|${digits}`;
  let f = formate.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale(lang), { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formate.set(key, f);
  }
  // Intl formats decimal strings exactly (no float rounding on the way).
  return f.format(String(v) as unknown as number);
}

/** The decimals a quantity needs, at most three ("2500.5" → 1): as the server's page shows them. */
export const stellen = (v: string) => Math.min(3, (String(v).split('.')[1] ?? '').replace(/0+$/, '').length);

/** A quantity with its unit ("38.000 L", a no-break space between); null: "–". */
export function menge(v: string | null | undefined, einheit: string, lang: string): string {
  return v == null ? '–' : `${zahl(v, lang, stellen(v))}\u00a0${einheit}`;
}

/** A stored value as an input shows it for editing: no grouping, the language's decimal mark ("2500,5"). */
export function eingabe(v: string | number | null | undefined, lang: string): string {
  if (v == null || v === '') return '';
  const s = dezimal(einheiten(String(v)) ?? 0n);
  return lang === 'de' ? s.replace('.', ',') : s;
}

/**
 * A typed number as the API wants it ("2500.5"). German: "2.500,5", "2500,5", "2.500"; English: "2,500.5",
 * "2500.5", "2,500". Grouping marks count only where they group by three, so a lone other mark is read as the
 * decimal mark ("2500.5" in German, "2500,5" in English). Empty: null (the field is cleared). Anything else:
 * undefined, and the caller sends the text as typed so the server's message names the problem.
 */
export function parseZahl(input: string, lang: string): string | null | undefined {
  const s = input.replace(/[\s\u00a0\u202f]/g, '');
  if (!s) return null;
  const [dezimalzeichen, gruppe] = lang === 'en' ? ['.', ','] : [',', '.'];
  const m = /^(-?)([\d.,]+)$/.exec(s);
  if (!m) return undefined;
  const [, vorzeichen, ziffern] = m;
  const gruppiert = (ganz: string) => (ganz.includes(gruppe) ? new RegExp(`^\\d{1,3}(\\${gruppe}\\d{3})+$`).test(ganz) : /^\d+$/.test(ganz));
  let ganz: string;
  let bruch = '';
  const teile = ziffern.split(dezimalzeichen);
  if (teile.length === 2) {
    [ganz, bruch] = teile;
    if ((ganz && !gruppiert(ganz)) || !/^\d*$/.test(bruch) || (!ganz && !bruch)) return undefined;
    ganz = ganz.split(gruppe).join('') || '0';
  } else if (teile.length === 1) {
    if (gruppiert(ziffern)) ganz = ziffern.split(gruppe).join('');
    else {
      // One mark that does not group by three: the other language's decimal mark.
      const andere = ziffern.split(gruppe);
      if (andere.length !== 2 || !/^\d+$/.test(andere[0]) || !/^\d+$/.test(andere[1])) return undefined;
      [ganz, bruch] = andere;
    }
  } else return undefined;
  const g = ganz.replace(/^0+(?=\d)/, '');
  const b = bruch.replace(/0+$/, '');
  return `${vorzeichen}${g}${b ? `.${b}` : ''}`;
}

/** The split's part that stays with the position: what it holds minus the new part; null when nothing would stay. */
export function ersterTeil(positionsMenge: string, neuerTeil: string): string | null {
  const ganz = einheiten(positionsMenge);
  const neu = einheiten(neuerTeil);
  if (ganz === null || neu === null || neu <= 0n || neu >= ganz) return null;
  return dezimal(ganz - neu);
}

// Dates ----------------------------------------------------------------------------------------------------------

/** A calendar day ("2026-01-25") in the user's date format, as the server's pages write it. */
export function datum(iso: string | null | undefined, format: string): string {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  if (!m) return '–';
  const [, y, mo, d] = m;
  if (format === 'yyyy-MM-dd') return `${y}-${mo}-${d}`;
  if (format === 'MM/dd/yyyy') return `${mo}/${d}/${y}`;
  return `${d}.${mo}.${y}`;
}

/** An instant in the user's time zone and date format, with hours and minutes ("25.01.2026 14:05"). */
export function zeitpunkt(iso: string | null | undefined, format: string, timeZone: string): string {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '–';
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d);
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '';
  return `${datum(`${p('year')}-${p('month')}-${p('day')}`, format)} ${p('hour')}:${p('minute')}`;
}

/** Replaces {name} in a text the server translated. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
