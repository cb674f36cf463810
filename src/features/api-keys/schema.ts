// The inputs and answers of API keys (page form and /api/api-keys), of idempotent POSTs and of the bulk
// endpoints. Every request and response shape of these routes is a schema here, for the OpenAPI description.
import { z } from 'zod';
import { ROLE_TYPES } from '../../permissions/index.js';

export const MAX_NAME = 100;
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
  data: z.object({
    id: z.number().int(), name: z.string(),
    key: z.string().nullable().describe('npk_<MANDANT>_<secret>; shown only in this answer (null in the answer repeated for an Idempotency-Key)'),
  }),
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

// The bulk endpoints' shapes live with the records layer that serves them (src/records/bulk.ts); named here too,
// so this file lists every request and response of issue 19's routes.
export { BulkBody, BulkCreated, BulkError, MAX_BULK } from '../../records/bulk.js';

/**
 * The answer kept for an Idempotency-Key and sent again to a retry: the first answer's status and JSON body, with
 * the header `Idempotent-Replayed: true`. Refusals use the contract's error shape with these codes.
 */
export const IDEMPOTENCY_CODES = {
  invalid: 'IDEMPOTENCY_KEY_INVALID', // 400: header not 1–255 printable characters, or a multipart upload
  reused: 'IDEMPOTENCY_KEY_REUSED', // 422: the same key with another method, URL or body
  inProgress: 'IDEMPOTENCY_IN_PROGRESS', // 409: the first request with the key is still running
} as const;

/** The API-key refusals, in the contract's error shape. */
export const API_KEY_CODES = {
  invalid: 'API_KEY_INVALID', // 401: malformed, unknown, revoked, tenant or creator deactivated
  rateLimited: 'RATE_LIMITED', // 429 with Retry-After
  notAllowed: 'API_KEY_NOT_ALLOWED', // 403: a person's route (/api/v1/*, /api/nachrichten)
} as const;
