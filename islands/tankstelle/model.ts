// What the filling-station island (Tankstelle) decides, without React or the DOM, so it is tested on its own:
// the page's state (location, view, product) read from and written to the query the server's page understands
// (`standort`, `ansicht`, `produkt`), which API calls a state needs, which product the supply-chain view shows,
// when the next refresh is due, and numbers and dates as the server's page writes them (the number and date
// helpers are the Bilanz editor's, so every island formats alike). The JSON shapes are the server's
// (src/features/tankstelle/service.ts, api.ts).
export { datum, fill, zahl, zeitpunkt } from '../bilanz-editor/model';
import { zahl } from '../bilanz-editor/model';

export const ANSICHTEN = ['tanks', 'zapfsaeulen', 'lieferkette'] as const;
export type Ansicht = (typeof ANSICHTEN)[number];

/** What the page shows: a location (null: the user's first, the server decides), a view, the supply chain's product. */
export interface Zustand {
  standortNr: string | null;
  ansicht: Ansicht;
  produktNr: string | null;
}

// The API's answers: the server's own types (src/features/tankstelle/service.ts), so the two cannot drift apart.
export type {
  Tank, LetzteLieferung as Lieferung, TankUebersicht as TankstelleDaten, Zapfsaeulen as ZapfsaeulenDaten, PumpenProdukt,
  Lieferkette as LieferketteDaten, KettenAnteil,
} from '../../src/features/tankstelle/service';
import type { Tank } from '../../src/features/tankstelle/service';

// The page's state and its URL -------------------------------------------------------------------------------------

export const istAnsicht = (v: unknown): v is Ansicht => typeof v === 'string' && (ANSICHTEN as readonly string[]).includes(v);

/** A query value as the server reads it: trimmed, empty is none. */
const parameter = (v: string | null) => (v == null || !v.trim() ? null : v.trim());

/**
 * The state a query describes (`?standort=S&ansicht=zapfsaeulen`): an unknown view is the tank view, as on the
 * server's page; a product counts only for the supply-chain view.
 */
export function zustandAus(search: string): Zustand {
  const q = new URLSearchParams(search);
  const a = q.get('ansicht');
  const ansicht = istAnsicht(a) ? a : 'tanks';
  return { standortNr: parameter(q.get('standort')), ansicht, produktNr: ansicht === 'lieferkette' ? parameter(q.get('produkt')) : null };
}

/** The query of a state, the same parameters the server's page reads and its links write. */
export function query(z: Zustand): string {
  const q = new URLSearchParams();
  if (z.standortNr) q.set('standort', z.standortNr);
  q.set('ansicht', z.ansicht);
  if (z.ansicht === 'lieferkette' && z.produktNr) q.set('produkt', z.produktNr);
  return `?${q}`;
}

/**
 * The page's URL for a state (what history.replaceState writes, so the address can be shared and reloads to the
 * same view): other query parameters and the fragment of the current URL stay.
 */
export function seitenUrl(aktuell: string, z: Zustand): string {
  const url = new URL(aktuell, 'http://x');
  for (const key of ['standort', 'ansicht', 'produkt']) url.searchParams.delete(key);
  for (const [k, v] of new URLSearchParams(query(z))) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Same location, view and product. */
export const gleich = (a: Zustand, b: Zustand) => a.standortNr === b.standortNr && a.ansicht === b.ansicht && (a.ansicht !== 'lieferkette' || a.produktNr === b.produktNr);

/**
 * Another location: the view stays, the supply chain shows the new location's first tank (as the server page's
 * location form, which sends no product).
 */
export const mitStandort = (z: Zustand, standortNr: string): Zustand => ({ ...z, standortNr, produktNr: null });

/**
 * Another view at the same location. The supply chain of `produktNr` (a tank's link, the tank select); its tab
 * keeps the product shown while the chain is the current view, else the first tank's (as the server's tab links).
 */
export function mitAnsicht(z: Zustand, ansicht: Ansicht, produktNr: string | null = z.ansicht === 'lieferkette' ? z.produktNr : null): Zustand {
  return { ...z, ansicht, produktNr: ansicht === 'lieferkette' ? produktNr : null };
}

// What a state loads -----------------------------------------------------------------------------------------------

const mitStandortNr = (pfad: string, standortNr: string | null, extra: Record<string, string> = {}) => {
  const q = new URLSearchParams();
  if (standortNr) q.set('standortNr', standortNr);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `${pfad}?${s}` : pfad;
};

/** The location's tanks, its locations and its latest deliveries: every view shows the last ten deliveries. */
export const basisUrl = (standortNr: string | null) => mitStandortNr('/tankstelle', standortNr);
export const zapfsaeulenUrl = (standortNr: string) => mitStandortNr('/tankstelle/zapfsaeulen', standortNr);
export const lieferketteUrl = (standortNr: string, produktNr: string) => mitStandortNr('/tankstelle/lieferkette', standortNr, { produktNr });

/**
 * The product whose supply chain is shown: the one asked for if the location has that tank, else its first tank
 * (the server's page does the same); null when the location has no tank.
 */
export function lieferketteProdukt(gewuenscht: string | null, tanks: readonly Pick<Tank, 'produktNr'>[]): string | null {
  if (gewuenscht && tanks.some((t) => t.produktNr === gewuenscht)) return gewuenscht;
  return tanks[0]?.produktNr ?? null;
}

/**
 * The view-specific call that can start together with the base call (no answer needed first): the pumps always,
 * the supply chain when the product is known; null when the base answer must come first (or nothing more is needed).
 */
export function ansichtUrlVorab(z: Zustand): string | null {
  if (!z.standortNr) return null;
  if (z.ansicht === 'zapfsaeulen') return zapfsaeulenUrl(z.standortNr);
  if (z.ansicht === 'lieferkette' && z.produktNr) return lieferketteUrl(z.standortNr, z.produktNr);
  return null;
}

// Refreshing -------------------------------------------------------------------------------------------------------

/** The view is loaded again every minute while the page is visible. */
export const INTERVALL_MS = 60_000;

/** Milliseconds until the next refresh: an interval after the last load; now (0) when it is overdue or there was none. */
export function bisZurAktualisierung(letzteLadung: number | null, jetzt: number, intervall = INTERVALL_MS): number {
  if (letzteLadung == null) return 0;
  return Math.max(0, Math.min(intervall, letzteLadung + intervall - jetzt));
}

export type Planung = { art: 'pause' } | { art: 'jetzt' } | { art: 'warten'; ms: number };

/**
 * What the refresh does on a change of the page's visibility, or after a load: hidden → pause (no call for a tab
 * nobody looks at); visible → load now if a refresh fell due meanwhile, else wait for the rest of the minute. So a
 * tab the user returns to after a minute or more shows fresh data at once, and one that was hidden for a few
 * seconds does not load twice in a row.
 */
export function planen(sichtbar: boolean, letzteLadung: number | null, jetzt: number, intervall = INTERVALL_MS): Planung {
  if (!sichtbar) return { art: 'pause' };
  const ms = bisZurAktualisierung(letzteLadung, jetzt, intervall);
  return ms === 0 ? { art: 'jetzt' } : { art: 'warten', ms };
}

// Numbers as the server's page writes them ---------------------------------------------------------------------------

/** The decimals a quantity needs, at most three ("2500.5" → 1): as the server's pages show quantities. */
export const stellen = (v: string) => Math.min(3, (String(v).split('.')[1] ?? '').replace(/0+$/, '').length);

/** A quantity with its unit ("31.000 L", a no-break space between); null: "–". */
export function menge(v: string | null | undefined, lang: string, einheit = 'L'): string {
  return v == null || v === '' ? '–' : `${zahl(v, lang, stellen(v))}\u00a0${einheit}`;
}

/** A number with the decimals it needs, at most three ("62,5"), as the server's page writes figures; null: "–". */
export const wert = (v: string | number | null | undefined, lang: string) => (v == null || v === '' ? '–' : zahl(v, lang, stellen(String(v))));

/** A percentage as the server's page writes it ("82,9 %"); null: "–". */
export function prozent(v: string | null | undefined, lang: string): string {
  return v == null || v === '' ? '–' : `${wert(v, lang)}\u00a0%`;
}

/** The fill level as the gauge's height: whole percent from 0 to 100 (a CSS class each), null when unknown. */
export function stufe(fuellstand: string | null): number | null {
  if (fuellstand == null) return null;
  const n = Math.round(Number(fuellstand));
  return Number.isFinite(n) ? Math.max(0, Math.min(100, n)) : null;
}

/** The plural form of a count as the language has it ("1 Tag", "14 Tage"), from the forms the server translated. */
export function plural(formen: { one: string; other: string }, count: number, lang: string): string {
  const form = new Intl.PluralRules(lang).select(count) === 'one' ? formen.one : formen.other;
  return form.replace(/\{count\}/g, String(count));
}

/** An element id from a number, as the server's views make them ("pumpe-P_1"). */
export const idTeil = (nr: string) => nr.replace(/[^\w-]/g, '_');

/** Hours and minutes of an instant in the user's time zone ("14:05"), for "Aktualisiert um …". */
export function uhrzeit(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms));
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '';
  return `${p('hour')}:${p('minute')}`;
}
