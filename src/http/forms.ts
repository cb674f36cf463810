// Shared helpers of the plain-HTML forms: a failed save renders the form again with each field's error.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { HttpError, httpErrorOf } from './errors.js';
import { fieldErrors } from './validate.js';

/** Parses a form body; invalid input becomes the same 400 HttpError a service would throw. */
export function parseForm<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', fieldErrors(parsed.error));
  return parsed.data;
}

/**
 * A 400 (or a 413: a file too large) as `{ field: translated message }` for the form (first message per field;
 * `_` when no field is named), or null when the error is not the user's mistake and must travel on to the error
 * handler.
 */
export function formErrors(err: unknown, req: Request): Record<string, string> | null {
  const known = httpErrorOf(err);
  if (known?.status !== 400 && known?.status !== 413) return null;
  const map: Record<string, string> = {};
  for (const e of known.errors) map[e.field] ??= req.t(e.message, e.params ?? {});
  if (!Object.keys(map).length) map._ = req.t(known.messageKey);
  return map;
}

/**
 * A change refused for a reason the user can act on (any 4xx: a mistake, a conflict with the current state) as
 * a tab's own form shows it: its status and `{ field: translated message }` (`_` when no field is named, with
 * the error's parameters). Anything else (a 5xx, an unknown error) is thrown on to the error handler.
 */
export function refusedForm(err: unknown, req: Request): { status: number; errors: Record<string, string> } {
  const known = httpErrorOf(err);
  if (!known || known.status >= 500) throw err;
  const errors: Record<string, string> = {};
  for (const e of known.errors) errors[e.field] ??= req.t(e.message, e.params ?? {});
  if (!Object.keys(errors).length) errors._ = req.t(known.messageKey, known.params ?? {});
  return { status: known.status, errors };
}

/**
 * The plain-HTML save: `save` stores and returns where to go next; the page then says "Gespeichert." there.
 * A user's mistake (400) shows the form again with each field's error via `again`; anything else travels on to
 * the error handler.
 */
export async function submitForm(
  req: Request, res: Response, save: () => Promise<string>, again: (errors: Record<string, string>, err: HttpError) => Promise<void>,
): Promise<void> {
  try {
    const next = await save();
    res.flash('success', 'flash.saved');
    res.redirect(next);
  } catch (err) {
    const errors = formErrors(err, req);
    if (!errors) throw err;
    res.status(httpErrorOf(err)!.status);
    await again(errors, httpErrorOf(err)!);
  }
}
