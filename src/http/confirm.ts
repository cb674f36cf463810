// Destructive actions ask first (issue 20): the button posts as it always did, but that first post changes
// nothing. It shows a confirmation page that names what will be lost, whose destructive button posts the same
// form again with `bestaetigt=ja`; "Abbrechen" goes back. Plain HTML, no script, as the records' number-change
// confirmation. The JSON API does not ask: a program has decided already.
import type { Request, Response } from 'express';

export const CONFIRM_FIELD = 'bestaetigt';

export interface Confirmation {
  /** The page's heading, naming the action and the thing ("EL-000320 stornieren?"). */
  heading: string;
  /** What will be lost or change, in a sentence or two. */
  text: string;
  /** The destructive button's label. */
  confirm: string;
  /** Where "Abbrechen" leads: the page the action was offered on. */
  cancelHref: string;
  /** The breadcrumb trail up to the thing (the confirmation's own heading is added last). */
  trail?: { label: string; href?: string }[];
}

/** Whether this post is the second step, the user's confirmation. */
export function isConfirmed(req: Request): boolean {
  return req.body?.[CONFIRM_FIELD] === 'ja';
}

/** The confirmation page, carrying the first post's fields (not the CSRF token: the page brings its own). */
export async function askFirst(req: Request, res: Response, c: Confirmation): Promise<void> {
  const fields: [string, string][] = [];
  for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
    if (name === '_csrf' || name === CONFIRM_FIELD) continue;
    for (const one of ([] as unknown[]).concat(value)) if (typeof one === 'string') fields.push([name, one]);
  }
  await res.page('shared/confirm', { title: c.heading, ...c, action: req.originalUrl, fields, confirmField: CONFIRM_FIELD });
}

/**
 * For a page route: runs `act` when the post is confirmed, else shows the confirmation. Returns whether it ran.
 */
export async function withConfirmation(req: Request, res: Response, c: Confirmation, act: () => Promise<void>): Promise<boolean> {
  if (!isConfirmed(req)) {
    await askFirst(req, res, c);
    return false;
  }
  await act();
  return true;
}
