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
      ctx.addIssue({ code: 'custom', message: 'validation.range', params: { min: opts.min, max: opts.max } });
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
