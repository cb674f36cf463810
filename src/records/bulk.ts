// Bulk creation (issue 19 point 5): up to 1,000 records of one type in one request, all or nothing. Each record
// goes through the same write path as one sent alone (validation, the record service's checks, its version
// and its audit entry), each in a savepoint of one transaction (the record service makes one per call), so every bad record is found and named, not
// only the first; if any is refused, the transaction is rolled back and nothing is written. An error names
// the record by its position in `data` (`index`, from 0) and the field as `[index].field` (`[index]` for the
// record as a whole): the contract's error shape, with one more member.
import { z } from 'zod';
import type { TenantScope } from '../db/scope.js';
import type { FieldError } from '../errors.js';
import { HttpError, httpErrorOf } from '../http/errors.js';

/** Records in one bulk request: more is refused whole (413), before anything is checked. */
export const MAX_BULK = 1000;

/** POST /api/{resource}/bulk: the records as POST /api/{resource} takes them one by one. */
export const BulkBody = z.object({ data: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_BULK) });

/** → 201: the records as created, in the order sent. */
export const BulkCreated = z.object({ success: z.literal(true), data: z.array(z.record(z.string(), z.unknown())), total: z.number().int() });

/** → 400 when one or more records are refused: nothing was written. */
export const BulkError = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.literal('BULK_INVALID'),
  errors: z.array(z.object({ index: z.number().int().describe('position in data, from 0'), field: z.string().describe('[index].field, or [index] for the whole record'), message: z.string() })),
});

/** The records of a bulk body, or a 413 (too many) / 400 (not `{"data":[{…},…]}`). */
export function bulkRecords(body: unknown): Record<string, unknown>[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (Array.isArray(data) && data.length > MAX_BULK) throw new HttpError(413, 'BULK_TOO_LARGE', 'records:bulk.tooLarge', [], { max: MAX_BULK, count: data.length });
  const parsed = BulkBody.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'BAD_REQUEST', 'records:bulk.format', [{ field: 'data', message: 'records:bulk.format' }]);
  return parsed.data.data;
}

/** The errors of one refused record, each with its index and its field under `[index]`. */
function indexed(index: number, err: HttpError): FieldError[] {
  if (!err.errors.length) return [{ index, field: `[${index}]`, message: err.messageKey, params: err.params }];
  return err.errors.map((e) => ({ ...e, index, field: e.field && e.field !== '_' ? `[${index}].${e.field}` : `[${index}]` }));
}

/**
 * Creates every record in one transaction of `scope`, each with `create` (given the transaction's scope), which
 * must make a savepoint of its own (the record service's calls do); refused records are collected, and if there are any, everything is rolled back with a 400
 * naming them. A failure that is not the caller's doing (a bug, an outage) ends the whole at once.
 */
export async function createAll<R>(scope: TenantScope, records: readonly Record<string, unknown>[], create: (tx: TenantScope, record: Record<string, unknown>) => Promise<R>): Promise<R[]> {
  return scope.transaction(async (tx) => {
    const created: R[] = [];
    const errors: FieldError[] = [];
    for (const [index, record] of records.entries()) {
      try {
        // `create` is the record service's, whose every call is a transaction of its own: inside this one, a
        // savepoint, so a refused record leaves no trace and the next one goes on.
        const one = await create(tx, record);
        created.push(one);
      } catch (err) {
        const known = httpErrorOf(err);
        if (!known || known.status >= 500) throw err;
        errors.push(...indexed(index, known));
      }
    }
    if (errors.length) {
      const refused = new Set(errors.map((e) => e.index)).size;
      throw new HttpError(400, 'BULK_INVALID', 'records:bulk.invalid', errors, { refused, count: records.length });
    }
    return created;
  });
}
