// Inputs of the legal values, checked at the edge (page forms and API alike). What a value may be depends on its
// kind, so the checks run over the whole input and report every field at once. The limits here are the law's
// shape (a percentage is 0–100, a year 2000–2100), not its values: those live only in the table.
import { z } from 'zod';
import {
  BEZUG_DER_ART, isAequivalentEinheit, isGesetzeswertArt, isIsoDate, isTagImJahr, ohneNachkommaNullen, type AequivalentEinheit, type GesetzeswertArt,
} from '../../domain/gesetzeswerte.js';
import { fieldErrors, invalid, type FieldError } from '../../errors.js';
import { optionalText, parseDecimal } from '../../records/fields.js';

/** Valid-from dates: the portal's business dates begin in 2000; the law is announced years ahead, but not a century. */
export const GUELTIG_VON = '2000-01-01';
export const GUELTIG_BIS = '2100-12-31';
/** Plant dates: the first band starts at the beginning of time. */
const ANLAGE_VON = '0001-01-01';
export const JAHR_VON = 2000;
export const JAHR_BIS = 2100;
/** numeric(12,4): four decimals. */
const SCALE = 4;
/** Comparator and Basiswert are g CO2eq/MJ: above zero (the saving divides by the comparator), at most this. */
const MAX_GRAMM = 1000;

type Problem = Omit<FieldError, 'field'>;
const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** "2015-10-06" or "06.10.2015" → "2015-10-06"; null for anything else. Years before 1000 too (the first plant band). */
export function kalendertag(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const s = input.trim();
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  const iso = german ? `${german[3]}-${german[2].padStart(2, '0')}-${german[1].padStart(2, '0')}` : s;
  return isIsoDate(iso) ? iso : null;
}

function datum(raw: unknown, von: string, bis: string): { ok: string } | Problem {
  if (empty(raw)) return { message: 'validation.required' };
  const day = kalendertag(raw);
  if (!day) return { message: 'validation.date' };
  if (day < von || day > bis) return { message: 'validation.dateRange', params: { from: von, to: bis } };
  return { ok: day };
}

function jahr(raw: unknown): { ok: number } | Problem {
  if (empty(raw)) return { message: 'validation.required' };
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const n = /^\d{1,4}$/.test(s) ? Number(s) : NaN;
  if (!(n >= JAHR_VON && n <= JAHR_BIS)) return { message: 'gesetzeswerte:errors.jahr', params: { min: JAHR_VON, max: JAHR_BIS } };
  return { ok: n };
}

/**
 * A value of a kind: a decimal (German comma or English point) for the numeric kinds, a day of the year for
 * nachweis_ablauf ("15.04." or "04-15", stored "04-15").
 */
export function pruefeWert(art: GesetzeswertArt, raw: unknown): { ok: string } | Problem {
  if (empty(raw)) return { message: 'validation.required' };
  if (art === 'nachweis_ablauf') {
    const s = typeof raw === 'string' ? raw.trim() : '';
    const german = /^(\d{1,2})\.(\d{1,2})\.?$/.exec(s);
    const tag = german ? `${german[2].padStart(2, '0')}-${german[1].padStart(2, '0')}` : s;
    return isTagImJahr(tag) ? { ok: tag } : { message: 'gesetzeswerte:errors.tag' };
  }
  const parsed = parseDecimal(raw);
  if (parsed === null) return { message: 'validation.number' };
  const n = Number(parsed);
  if (art === 'schwelle' || art === 'quote') {
    if (n < 0 || n > 100) return { message: 'validation.range', params: { min: 0, max: 100 } };
  } else if (!(n > 0 && n <= MAX_GRAMM)) {
    return { message: 'gesetzeswerte:errors.positiv', params: { max: MAX_GRAMM } };
  }
  if ((parsed.split('.')[1] ?? '').replace(/0+$/, '').length > SCALE) return { message: 'validation.scale' };
  return { ok: n === 0 ? '0' : ohneNachkommaNullen(parsed) };
}

const isProblem = (x: object): x is Problem => 'message' in x;

/** A new value: a kind, its reference if it has one, the date from which it applies, the value, a comment. */
export const NeuerGesetzeswert = z
  .object({
    art: z.unknown().optional(),
    anlageAb: z.unknown().optional(),
    jahr: z.unknown().optional(),
    einheit: z.unknown().optional(),
    gueltigAb: z.unknown().optional(),
    wert: z.unknown().optional(),
    kommentar: optionalText(1000),
  })
  .transform((input, ctx) => {
    const problem = (field: string, p: Problem) => ctx.addIssue({ code: 'custom', path: [field], message: p.message, params: p.params });
    const art = input.art;
    if (!isGesetzeswertArt(art)) problem('art', { message: empty(art) ? 'validation.required' : 'gesetzeswerte:errors.art' });
    const gueltigAb = datum(input.gueltigAb, GUELTIG_VON, GUELTIG_BIS);
    if (isProblem(gueltigAb)) problem('gueltigAb', gueltigAb);
    if (!isGesetzeswertArt(art)) {
      // The value and the reference are checked against the kind: without one, only what needs no kind.
      if (empty(input.wert)) problem('wert', { message: 'validation.required' });
      return z.NEVER;
    }
    let anlageAb: string | null = null;
    let jahrWert: number | null = null;
    let einheit: AequivalentEinheit | null = null;
    const bezug = BEZUG_DER_ART[art];
    for (const field of ['anlageAb', 'jahr', 'einheit'] as const) {
      if (field !== bezug && !empty(input[field])) problem(field, { message: 'gesetzeswerte:errors.keinBezug' });
    }
    if (bezug === 'anlageAb') {
      const d = datum(input.anlageAb, ANLAGE_VON, GUELTIG_BIS);
      if (isProblem(d)) problem('anlageAb', d);
      else anlageAb = d.ok;
    } else if (bezug === 'jahr') {
      const j = jahr(input.jahr);
      if (isProblem(j)) problem('jahr', j);
      else jahrWert = j.ok;
    } else if (bezug === 'einheit') {
      const raw = typeof input.einheit === 'string' ? input.einheit.trim() : input.einheit;
      if (isAequivalentEinheit(raw)) einheit = raw;
      else problem('einheit', { message: empty(raw) ? 'validation.required' : 'gesetzeswerte:errors.einheit' });
    }
    const wert = pruefeWert(art, input.wert);
    if (isProblem(wert)) problem('wert', wert);
    if (isProblem(wert) || isProblem(gueltigAb)) return z.NEVER;
    return { art, anlageAb, jahr: jahrWert, einheit, gueltigAb: gueltigAb.ok, wert: wert.ok, kommentar: input.kommentar };
  });
export type NeuerGesetzeswert = z.infer<typeof NeuerGesetzeswert>;

/**
 * A correction of a stored row: its value and comment. Kind, reference and valid-from date are the row's
 * identity; they may be sent along (a client that sends the row back as it read it) but not changed: a change
 * of the law from a new date is a new row. A comment left out stays as it was.
 */
export const Korrektur = z.object({
  wert: z.unknown().optional(),
  // Left out: undefined (unchanged); empty: null (cleared).
  kommentar: optionalText(1000).optional(),
  art: z.unknown().optional(),
  anlageAb: z.unknown().optional(),
  jahr: z.unknown().optional(),
  einheit: z.unknown().optional(),
  gueltigAb: z.unknown().optional(),
});
export type Korrektur = z.infer<typeof Korrektur>;

/** The row's identity fields sent with a correction that differ from the row. */
export function geaenderteSchluessel(
  input: Korrektur, row: { art: string; anlageAb: string | null; jahr: number | null; einheit: string | null; gueltigAb: string },
): FieldError[] {
  const same = {
    art: (v: unknown) => v === row.art,
    anlageAb: (v: unknown) => kalendertag(v) === row.anlageAb,
    jahr: (v: unknown) => String(v).trim() === String(row.jahr),
    einheit: (v: unknown) => String(v).trim() === row.einheit,
    gueltigAb: (v: unknown) => kalendertag(v) === row.gueltigAb,
  };
  return (Object.keys(same) as (keyof typeof same)[])
    .filter((k) => input[k] !== undefined && !(empty(input[k]) && row[k] === null) && !same[k](input[k]))
    .map((field) => ({ field, message: 'gesetzeswerte:errors.fest' }));
}

/** The date of GET /api/gesetzeswerte/am/{datum}: an ISO calendar day, else a 400 naming `datum`. */
export function stichtag(raw: unknown): string {
  if (!isIsoDate(raw)) throw invalid([{ field: 'datum', message: 'gesetzeswerte:errors.stichtag' }]);
  return raw;
}

/** Parses an input (page form or API body); a 400 names each field, and says so when required ones are missing. */
export function parseInput<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const errors = fieldErrors(parsed.error);
  throw invalid(errors, errors.some((e) => e.message === 'validation.required') ? 'errors.requiredFields' : 'errors.badRequest');
}

/** A row's id in a path: digits only, so anything else is a 404 like an id that does not exist. */
export const GesetzeswertId = z.string().regex(/^[1-9]\d{0,8}$/).transform(Number);
