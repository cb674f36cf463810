// The inputs and answers of API keys (page form and /api/api-keys), of idempotent POSTs and of the bulk
// endpoints. Every request and response shape of these routes is a schema here, for the OpenAPI description.
import { z } from 'zod';
import { ROLE_TYPES } from '../../permissions/index.js';

export const MAX_NAME = 100;
/** Records in one bulk request (issue 19): more is refused whole, 413. */
export const MAX_BULK = 1000;
/** Longest Idempotency-Key header accepted (a UUID is 36). */
export const MAX_IDEMPOTENCY_KEY = 255;

const ROLE_NUMBERS = Object.keys(ROLE_TYPES).map(Number);

/** A role type by its number (1–25, spec section 6); a form sends it as text. */
const RoleType = z
  .union([z.number(), z.string().trim().regex(/^\d{1,3}$/).transform(Number)], { error: 'api-keys:errors.rolle' })
  .refine((n) => ROLE_NUMBERS.includes(n), { message: 'api-keys:errors.rolle' });

/** One value or several: a form's checkboxes and multi-selects send one as text, several as a list. */
const list = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]), z.array(item, { error: 'validation.invalid' }));

export const ApiKeyCreateBody = z.object({
  name: z.string({ error: 'api-keys:errors.name' }).trim().min(1, 'api-keys:errors.name').max(MAX_NAME, 'api-keys:errors.nameLang'),
  /** The scope: role types the key holds (a subset of the role types; never administration). */
  rollen: list(RoleType).pipe(z.array(z.number()).min(1, 'api-keys:errors.rollenLeer').max(ROLE_NUMBERS.length)).transform((r) => [...new Set(r)].sort((a, b) => a - b)),
  /** Location numbers the key is limited to; absent or empty: all locations. */
  standorte: list(z.string({ error: 'validation.invalid' }).trim().min(1).max(32)).optional().transform((s) => (s && s.length ? [...new Set(s)].sort() : null)),
});
export type ApiKeyCreateInput = z.output<typeof ApiKeyCreateBody>;

/** POST /api/api-keys → 201: the key itself, shown this once. */
export const ApiKeyCreated = z.object({
  data: z.object({ id: z.number().int(), name: z.string(), key: z.string().describe('npk_<MANDANT>_<secret>; shown only in this answer') }),
});

export const ApiKeyListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters, to recognise it. */
  praefix: z.string(),
  rollen: z.array(z.number().int()),
  /** null: all locations. */
  standorte: z.array(z.string()).nullable(),
  erstelltAm: z.string().describe('ISO instant'),
  erstelltVon: z.string().nullable().describe('login of the creator'),
  zuletztBenutztAm: z.string().nullable(),
  widerrufenAm: z.string().nullable(),
  status: z.enum(['aktiv', 'widerrufen']),
});
export type ApiKeyListItem = z.output<typeof ApiKeyListItem>;

/** GET /api/api-keys → 200. */
export const ApiKeyList = z.object({ data: z.array(ApiKeyListItem), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

/** DELETE /api/api-keys/{id} → 200 (also for a key already revoked). */
export const ApiKeyRevoked = z.object({ success: z.literal(true) });

/** A key id in a path: a positive whole number, else no such key (404). */
export const ApiKeyId = z.string().regex(/^[1-9]\d{0,15}$/).transform(Number);

/** The Idempotency-Key header of a POST on /api: printable ASCII without spaces, 1–255 characters. */
export const IdempotencyKeyHeader = z.string().regex(/^[\x21-\x7e]{1,255}$/);

/** POST /api/{einlieferungen|ablieferungen|bestaende}/bulk: the records as POST /api/{resource} takes them one by one. */
export const BulkBody = z.object({ data: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_BULK) });

/** → 201: the records as created, in the order sent. */
export const BulkCreated = z.object({ success: z.literal(true), data: z.array(z.record(z.string(), z.unknown())), total: z.number().int() });

/**
 * A refused bulk request (400): nothing was written; each error names the record by its position in `data`
 * (`index`, from 0) and the field as `[index].field` (or `[index]` for the record as a whole).
 */
export const BulkError = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
  errors: z.array(z.object({ index: z.number().int().optional(), field: z.string(), message: z.string() })),
});
