// Field types of forms and JSON alike. Numbers are kept as exact decimal strings (never floats); a person may
// type a German decimal comma or an English point: with both present the last one is the decimal separator.
import { z } from 'zod';

export const requiredText = (max: number) => z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(max, 'validation.tooLong');

export const optionalText = (max: number) =>
  z.string({ error: 'validation.invalidType' }).trim().max(max, 'validation.tooLong').nullable().optional().transform((v) => v || null);

export const optionalEmail = () =>
  optionalText(254).refine((v) => v === null || z.email().safeParse(v).success, 'validation.email');

export const checkbox = () =>
  z.union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('false'), z.literal('1'), z.literal('0'), z.literal(''), z.undefined(), z.null()])
    .optional()
    .transform((v) => v === true || v === 'on' || v === 'true' || v === '1');

/** "1.234,5", "1,234.5", "12,5", "12.5", 12.5 → "1234.5" / "12.5"; anything else is invalid. */
export function parseDecimal(input: unknown): string | null {
  if (typeof input === 'number') return Number.isFinite(input) ? String(input) : null;
  if (typeof input !== 'string') return null;
  let s = input.trim().replace(/\s/g, '');
  if (!s) return null;
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma > -1 && lastDot > -1) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    s = s.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma > -1) {
    if (s.indexOf(',') !== lastComma) return null;
    s = s.replace(',', '.');
  } else if (lastDot > -1 && s.indexOf('.') !== lastDot) {
    return null;
  }
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  return s.replace(/^(-?)0+(?=\d)/, '$1');
}

export function decimal(opts: { min?: number; max?: number; scale?: number; required?: boolean } = {}) {
  return z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') {
      if (opts.required) ctx.addIssue({ code: 'custom', message: 'validation.required' });
      return null;
    }
    const parsed = parseDecimal(v);
    if (parsed === null) {
      ctx.addIssue({ code: 'custom', message: 'validation.number' });
      return z.NEVER;
    }
    const n = Number(parsed);
    if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
      const message = opts.min !== undefined && opts.max !== undefined ? 'validation.range' : opts.min !== undefined ? 'validation.min' : 'validation.max';
      ctx.addIssue({ code: 'custom', message, params: { min: opts.min, max: opts.max } });
      return z.NEVER;
    }
    const [, frac = ''] = parsed.split('.');
    if (opts.scale !== undefined && frac.length > opts.scale) {
      ctx.addIssue({ code: 'custom', message: 'validation.scale' });
      return z.NEVER;
    }
    return parsed;
  });
}

/** A required choice from a fixed list: empty is "required", anything outside the list "invalid". */
export const choice = <V extends string>(values: readonly [V, ...V[]]) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(values, { error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.invalid') }),
  );

/** An optional choice: empty is null. */
export const optionalChoice = <V extends string>(values: readonly [V, ...V[]]) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), z.enum(values, { error: 'validation.invalid' }).nullable());

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const GERMAN_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

/** "2025-12-31" or "31.12.2025" → "2025-12-31" if that day exists; else null. */
export function parseDate(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const s = input.trim();
  let y: number, m: number, d: number;
  let match = ISO_DATE.exec(s);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = GERMAN_DATE.exec(s))) [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** Business dates lie between this day and a year from today: anything else is a typing mistake. */
export const EARLIEST_DATE = '2000-01-01';
export const MAX_DAYS_AHEAD = 366;

/** A calendar day (ISO or German notation) within EARLIEST_DATE … today + MAX_DAYS_AHEAD. */
export function date(opts: { required?: boolean } = {}) {
  return z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') {
      if (opts.required) ctx.addIssue({ code: 'custom', message: 'validation.required' });
      return null;
    }
    const parsed = parseDate(v);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'validation.date' });
      return z.NEVER;
    }
    const latest = new Date(Date.now() + MAX_DAYS_AHEAD * 86_400_000).toISOString().slice(0, 10);
    if (parsed < EARLIEST_DATE || parsed > latest) {
      ctx.addIssue({ code: 'custom', message: 'validation.dateRange', params: { from: EARLIEST_DATE, to: latest } });
      return z.NEVER;
    }
    return parsed;
  });
}

/** A record number: letters, digits, dot, dash, underscore. `neu` is the address of the create form. */
export const recordNr = () =>
  z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(32, 'validation.tooLong')
    .regex(/^[A-Za-z0-9._-]+$/, 'validation.nr').refine((v) => v.toLowerCase() !== 'neu', 'validation.nr');

/** A postal address as locations, partners and tenants keep it (all parts optional). */
export const addressFields = () => ({
  strasse: optionalText(200),
  hausNr: optionalText(20),
  plz: optionalText(20),
  stadt: optionalText(100),
  land: optionalText(100),
});

/** The address fields' database columns. */
export const ADDRESS_COLUMNS = { strasse: 'strasse', hausNr: 'haus_nr', plz: 'plz', stadt: 'stadt', land: 'land' } as const;
