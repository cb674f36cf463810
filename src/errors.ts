// What can go wrong that is the caller's doing, said without HTTP: the storage layer (src/db), the record
// service (src/records) and the imports throw these; src/http/errors.ts is the one place that turns a kind into
// a status (httpErrorOf), for pages and API alike. Field errors name the field and an i18n key, so a form shows
// each message at its field and the API lists them.
import type { z } from 'zod';

export interface FieldError {
  field: string;
  message: string;
  /** Values the message names (e.g. the allowed range). */
  params?: Record<string, unknown>;
  /** The record's position in a bulk request's `data` (src/features/api-keys/bulk.ts). */
  index?: number;
}

/**
 * - invalid: the input is wrong (a field named in `errors`);
 * - not_found: no such record for this caller (never a hint that it exists elsewhere);
 * - conflict: the record is not in a state that allows this (changed meanwhile, locked, in use, stale import);
 * - forbidden: the caller may not do this to this record.
 */
export type ProblemKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden';

export class ProblemError extends Error {
  constructor(
    readonly kind: ProblemKind,
    /** Machine code, e.g. VERSION_CONFLICT. */
    readonly code: string,
    /** i18n key of the message (namespace:key). */
    readonly messageKey: string,
    readonly errors: FieldError[] = [],
    readonly params: Record<string, unknown> = {},
  ) {
    super(messageKey);
  }
}

/** Input that is wrong, each problem at its field. */
export const invalid = (errors: FieldError[], messageKey = 'errors.badRequest') => new ProblemError('invalid', 'VALIDATION', messageKey, errors);
export const notFound = (messageKey = 'records:errors.notFound') => new ProblemError('not_found', 'NOT_FOUND', messageKey);
export const conflict = (code: string, messageKey: string) => new ProblemError('conflict', code, messageKey);

/** The i18n key of a schema's complaint: our field types name theirs; zod's own are mapped here. */
function messageKey(issue: z.core.$ZodIssue): string {
  // Our own field types name their message key (validation.*); zod's built-in messages are mapped below.
  if (typeof issue.message === 'string' && /^(validation\.[a-zA-Z]+|[a-z-]+:[a-zA-Z.]+)$/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'too_big':
      return 'validation.tooLong';
    case 'too_small':
      return (issue as { minimum?: number | bigint }).minimum === 1 ? 'validation.required' : 'validation.tooShort';
    case 'invalid_type':
      // zod 4 leaves the input out of the issue; its message says what it received.
      return /received undefined/.test(issue.message) ? 'validation.required' : 'validation.invalidType';
    case 'unrecognized_keys':
      return 'validation.unknownField';
    default:
      return 'validation.invalid';
  }
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((k) => ({ field: k, message: 'validation.unknownField' }))
      : [{ field: issue.path.join('.') || '_', message: messageKey(issue), ...(issue.code === 'custom' && issue.params ? { params: issue.params } : {}) }],
  );
}

