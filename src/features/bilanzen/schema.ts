// The inputs of a Bilanz and its operations, one schema each, for the pages and the API alike. Cross-field rules
// (a period of at most 3 months, a position with a bio content and/or a bio quantity, a split that adds up) are
// checked here too, so every refusal names its field before anything is read or written.
import { z } from 'zod';
import { plusMonate } from '../../domain/lieferkette.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import { fieldErrors } from '../../http/validate.js';
import { date, decimal, optionalText, requiredText } from '../../records/fields.js';
import { MAX_MENGE } from '../lieferungen/lieferung.js';

/** A period is at most this many months (certificates-and-balances.md section 4). */
export const MAX_MONATE = 3;
export const MAX_PRIORITAET = 1_000_000;

const version = z.preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v), z.number({ error: 'validation.invalid' }).int('validation.invalid').min(1, 'validation.invalid').optional());

export const ZeitraumSchema = z.object({
  zeitraumVon: date({ required: true }),
  zeitraumBis: date({ required: true }),
  kommentar: optionalText(2000),
  version,
});

export const BilanzSchema = ZeitraumSchema.extend({
  standortNr: requiredText(32),
  produktNr: requiredText(32),
});

const prioritaet = (required: boolean) => decimal({ min: 1, max: MAX_PRIORITAET, scale: 0, required });
const biogehalt = () => decimal({ min: 0, max: 100, scale: 4 });
const bioMenge = () => decimal({ min: 0, max: MAX_MENGE, scale: 3 });

export const PositionSchema = z.object({
  partnerNr: requiredText(32),
  prioritaet: prioritaet(true),
  biogehalt: biogehalt(),
  bioMenge: bioMenge(),
  version,
});
export const PositionAenderungSchema = PositionSchema.omit({ partnerNr: true });

/** One part of a split: its bio quantity and, if it differs, its priority (the page's form sends the new part only). */
export const TeilSchema = z.object({ bioMenge: decimal({ min: 0.001, max: MAX_MENGE, scale: 3, required: true }), prioritaet: prioritaet(false) });

export const TeilungSchema = z.object({
  teile: z.array(TeilSchema, { error: 'bilanzen:errors.teileZwei' }).length(2, 'bilanzen:errors.teileZwei'),
  version,
});

export const VersionSchema = z.object({ version });

export type BilanzInput = z.infer<typeof BilanzSchema>;
export type ZeitraumInput = z.infer<typeof ZeitraumSchema>;
export type PositionInput = z.infer<typeof PositionSchema>;
export type PositionAenderung = z.infer<typeof PositionAenderungSchema>;
export type TeilungInput = z.infer<typeof TeilungSchema>;

const refuse = (errors: FieldError[]) => new HttpError(400, 'VALIDATION', errors[0]?.message ?? 'errors.badRequest', errors, errors[0]?.params ?? {});

/** The schema, then the cross-field rule over what was sent (also when a field failed: every problem at once). */
function parse<S extends z.ZodType>(schema: S, body: unknown, more: (d: Record<string, unknown>) => FieldError[] = () => []): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  const errors = parsed.success ? [] : fieldErrors(parsed.error);
  const failed = new Set(errors.map((e) => e.field));
  const raw = (body ?? {}) as Record<string, unknown>;
  // A field that failed counts as given (its own error says what is wrong); the rule sees the parsed values.
  const values = parsed.success ? (parsed.data as Record<string, unknown>) : Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, failed.has(k) ? v : v === '' ? null : v]));
  errors.push(...more(values).filter((e) => !failed.has(e.field)));
  if (errors.length || !parsed.success) throw refuse(errors);
  return parsed.data;
}

/** From ≤ to, and to before the day `MAX_MONATE` months after from (2026-01-01 … 2026-03-31 at most). */
export function zeitraumFehler(d: { zeitraumVon?: unknown; zeitraumBis?: unknown }): FieldError[] {
  if (typeof d.zeitraumVon !== 'string' || typeof d.zeitraumBis !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(d.zeitraumVon) || !/^\d{4}-\d{2}-\d{2}$/.test(d.zeitraumBis)) return [];
  if (d.zeitraumBis < d.zeitraumVon) return [{ field: 'zeitraumBis', message: 'bilanzen:errors.bisVorVon' }];
  if (d.zeitraumBis >= plusMonate(d.zeitraumVon, MAX_MONATE)) return [{ field: 'zeitraumBis', message: 'bilanzen:errors.zuLang', params: { monate: MAX_MONATE } }];
  return [];
}

/** Spec section 5: priority required, and a valid bio quantity and/or bio content. */
function bioFehler(d: { biogehalt?: unknown; bioMenge?: unknown }): FieldError[] {
  if (d.biogehalt != null || d.bioMenge != null) return [];
  return [{ field: 'biogehalt', message: 'bilanzen:errors.bioRequired' }, { field: 'bioMenge', message: 'bilanzen:errors.bioRequired' }];
}

export const parseBilanz = (body: unknown) => parse(BilanzSchema, body, zeitraumFehler);
export const parseZeitraum = (body: unknown) => parse(ZeitraumSchema, body, zeitraumFehler);
export const parsePosition = (body: unknown) => parse(PositionSchema, body, bioFehler);
export const parsePositionAenderung = (body: unknown) => parse(PositionAenderungSchema, body, bioFehler);
export const parseTeilung = (body: unknown) => parse(TeilungSchema, body);
export const parseTeil = (body: unknown) => parse(TeilSchema, body);
export const parseVersion = (body: unknown) => parse(VersionSchema, body).version;

/** The current quarter (a new Bilanz's default period), in Germany's calendar. */
export function quartal(heute: string): { von: string; bis: string } {
  const [y, m] = heute.split('-').map(Number);
  const q = Math.floor((m - 1) / 3) * 3 + 1;
  const ende = new Date(Date.UTC(y, q + 2, 0)).toISOString().slice(0, 10);
  return { von: `${y}-${String(q).padStart(2, '0')}-01`, bis: ende };
}
