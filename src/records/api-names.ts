// The API's field names where the spec's section 3 names a field otherwise than the code (the partner's `group`
// is stored as `gruppe`, a rule's `priority` as `prioritaet`), and fields the spec lists that a record does not
// store (a stock figure's `id` and `mandant`). Responses carry the spec's name and, for now, the old one too;
// requests take either, so clients written against the old names keep working (docs/decisions.md, "Field
// names of the API"). Pages keep the stored names: only the JSON API speaks the spec's.
import type { z } from 'zod';
import type { TenantScope } from '../db/scope.js';
import { HttpError } from '../http/errors.js';

/** Spec name → stored field name. */
export type ApiAliases = Readonly<Record<string, string>>;

export interface ApiShape<R> {
  aliases?: ApiAliases;
  /** What a response adds or reshapes beyond the aliases (a stock figure's `id` and `mandant`). */
  present?(record: R, mandant: string): Record<string, unknown>;
  /**
   * What `GET /api/<resource>/{nr}` adds beyond the record, read from linked records (a collection's
   * certificates with their characteristics, a delivery's link status); list rows stay light without it.
   */
  detail?(scope: TenantScope, record: R): Promise<Record<string, unknown>>;
  /**
   * The fields `present`, `detail` and the list's rows add beyond the stored ones, for the API description
   * (src/features/api-docs/records.ts): an answer with a field declared nowhere fails the tests.
   */
  fields?: Record<string, z.ZodType>;
}

/** A record as the API answers it: every stored field, plus the spec's name of each aliased one. */
export function apiRecord<R extends Record<string, unknown>>(shape: ApiShape<R> | undefined, record: R, mandant: string): R {
  if (!shape) return record;
  const out: Record<string, unknown> = { ...record };
  for (const [spec, field] of Object.entries(shape.aliases ?? {})) if (field in record) out[spec] = record[field];
  return (shape.present ? { ...out, ...shape.present(record, mandant) } : out) as R;
}

const blank = (v: unknown) => v === undefined;

/**
 * A request body with each spec name moved to its stored field, and which spec names were sent (so errors can
 * name the field as the client sent it). Both names with different values is a 400 naming the spec's name;
 * both with the same value is one value.
 */
export function acceptAliases(aliases: ApiAliases | undefined, body: unknown): { body: unknown; sentAs: Map<string, string> } {
  const sentAs = new Map<string, string>();
  if (!aliases || !body || typeof body !== 'object' || Array.isArray(body)) return { body, sentAs };
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [spec, field] of Object.entries(aliases)) {
    if (blank(out[spec])) continue;
    if (!blank(out[field]) && out[field] !== out[spec]) {
      throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: spec, message: 'records:errors.aliasConflict', params: { name: spec, other: field } }]);
    }
    out[field] = out[spec];
    delete out[spec];
    sentAs.set(field, spec);
  }
  return { body: out, sentAs };
}

/** Runs a write with the body's spec names accepted; a refused field is named as the client sent it. */
export async function withAliases<V>(aliases: ApiAliases | undefined, body: unknown, run: (body: unknown) => Promise<V>): Promise<V> {
  const accepted = acceptAliases(aliases, body);
  try {
    return await run(accepted.body);
  } catch (err) {
    if (!(err instanceof HttpError) || !accepted.sentAs.size) throw err;
    const errors = err.errors.map((e) => (accepted.sentAs.has(e.field) ? { ...e, field: accepted.sentAs.get(e.field)! } : e));
    throw new HttpError(err.status, err.code, err.messageKey, errors, err.params);
  }
}
