// Validation at the edge: a zod schema per input; failures become a 400 whose errors name each field.
import type { z } from 'zod';
import { HttpError, type FieldError } from './errors.js';

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
