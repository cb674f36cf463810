// Route guards, all asking the one permission service.
import type { RequestHandler } from 'express';
import { can, type Action, type Gate } from '../permissions/index.js';
import { PAGES } from '../permissions/route-tree.js';
import { safeRedirectTarget } from './language.js';

/** Signed in, else the login page with the path as redirect target. */
export function requireLogin(): RequestHandler {
  return (req, res, next) => {
    if (res.locals.currentUser) return next();
    const lang = res.locals.lang ?? 'de';
    res.redirect(`/${lang}/login?redirect=${encodeURIComponent(req.originalUrl)}`);
  };
}

/** A tenant chosen; else tenant selection, coming back here afterwards. */
export function requireMandant(): RequestHandler {
  return (req, res, next) => {
    if (res.locals.mandant) return next();
    const lang = res.locals.lang ?? 'de';
    res.redirect(`/${lang}/mandant-selection?redirect=${encodeURIComponent(req.originalUrl)}`);
  };
}

/** A forbidden page sends the user to the dashboard, where the no-permission dialog explains why. */
export function requirePermission(gate: Gate, action: Action = 'view'): RequestHandler {
  return (_req, res, next) => {
    if (res.locals.principal && can(res.locals.principal, action, gate)) return next();
    res.flash('error', 'flash.noPermission');
    res.redirect(`/${res.locals.lang}/benutzer/dashboard`);
  };
}

/**
 * The guards of a page of the route tree (signed in, tenant chosen, permitted), looked up by its path, so a
 * feature's routes are guarded exactly as the route tree and the sidebar say.
 */
export function guardsFor(path: string, action?: Action): RequestHandler[] {
  const page = PAGES.find((p) => p.path === path);
  if (!page) throw new Error(`no page ${path} in the route tree`);
  return [requireLogin(), requireMandant(), requirePermission(page.gate, action ?? page.action ?? 'view')];
}

/**
 * For a form post in a page: refused → back to the page the user was on, where the no-permission dialog
 * opens (the flash tells the layout to show it).
 */
export function requireActionPermission(gate: Gate, action: Action = 'edit'): RequestHandler {
  return (req, res, next) => {
    if (res.locals.principal && can(res.locals.principal, action, gate)) return next();
    res.flash('error', 'flash.noPermission');
    const back = safeRedirectTarget(req.get('referer') ? new URL(req.get('referer')!, 'http://x').pathname : null, res.locals.lang);
    res.redirect(back ?? `/${res.locals.lang}/benutzer/dashboard`);
  };
}
