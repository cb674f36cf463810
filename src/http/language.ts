// Spec section 2: every page lives below /de or /en. A path without prefix goes to /de/…; a prefix that
// looks like a language but is not supported (/fr/…, /de-AT/…) is rewritten to /de/….
import type { RequestHandler } from 'express';
import { DEFAULT_LANG, isLang } from './i18n.js';

/** Paths that are not pages and therefore carry no language prefix. */
const UNPREFIXED = /^\/(api|healthz|build|static|favicon\.ico|robots\.txt)(\/|$)/;
const LANGUAGE_LIKE = /^[a-zA-Z]{2}([-_][a-zA-Z]{2,4})?$/;

export function languageRedirects(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const pathname = req.path;
    if (UNPREFIXED.test(pathname)) return next();
    const [first = '', ...rest] = pathname.split('/').slice(1);
    if (isLang(first)) return next();
    const query = req.originalUrl.slice(req.originalUrl.indexOf('?') === -1 ? req.originalUrl.length : req.originalUrl.indexOf('?'));
    const tail = LANGUAGE_LIKE.test(first) ? rest : [first, ...rest];
    // Always German (spec sections 2 and 9): the URL's language decides, never a stored one, so an address
    // without prefix means the same page in the same language for everyone.
    const target = `/${DEFAULT_LANG}/${tail.join('/')}`.replace(/\/+$/, '') || `/${DEFAULT_LANG}`;
    res.redirect(302, target + query);
  };
}

/** `/de/benutzer/dashboard` → `benutzer/dashboard`; used for the language switch and login redirects. */
export function pathWithoutLang(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean);
  if (parts.length && isLang(parts[0])) parts.shift();
  return parts.join('/');
}

/** Only local paths below a language prefix may be redirect targets: no open redirects. */
export function safeRedirectTarget(value: unknown, lang: string): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  try {
    const url = new URL(value, 'http://local.invalid');
    if (url.host !== 'local.invalid') return null;
    const rest = pathWithoutLang(url.pathname);
    return `/${lang}/${rest}`.replace(/\/$/, '') + url.search;
  } catch {
    return null;
  }
}
