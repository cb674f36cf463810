// Validation at the edge: a zod schema per input; failures become a 400 whose errors name each field.
import type { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { HttpError } from './errors.js';

export { fieldErrors };

export function parseOr400<S extends z.ZodType>(schema: S, input: unknown, messageKeyFor400 = 'errors.badRequest'): z.infer<S> {
  // A missing body counts as an empty object for object schemas; a missing scalar stays missing.
  let parsed = schema.safeParse(input);
  if (!parsed.success && input === undefined) {
    const asObject = schema.safeParse({});
    if (asObject.success || asObject.error.issues.some((i) => i.path.length > 0)) parsed = asObject;
  }
  if (!parsed.success) throw new HttpError(400, 'BAD_REQUEST', messageKeyFor400, fieldErrors(parsed.error));
  return parsed.data;
}

/**
 * An identifier from the path: one that cannot exist is "not found" (404) like one that does not, so a caller
 * cannot tell a malformed id from an unknown one.
 */
export function idOr404<S extends z.ZodType>(schema: S, raw: unknown, messageKey: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new HttpError(404, 'NOT_FOUND', messageKey);
  return parsed.data;
}
