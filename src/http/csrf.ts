// CSRF protection for every state-changing request with a cookie session (csrf-csrf, double submit bound to
// the session). Bearer-token API calls carry no cookie and need none.
import type { Request, RequestHandler } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import type { Config } from '../config.js';
import { readFirstField } from './first-field.js';

/** Methods that change nothing (csrf-csrf's default, named here because tokenInFirstPart must agree with it). */
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

// A JSON API call that carries no cookie has no ambient authority a forged request could borrow
// (Bearer tokens are never sent by the browser on its own), so it needs no CSRF token.
const skipCsrfProtection = (req: Request) => !req.headers.cookie && req.path.startsWith('/api/');

/**
 * A multipart form (a file upload) is parsed only by its route, after this check, so its token cannot come from
 * req.body: it is the body's first part instead (the form's first field is the hidden `_csrf`), read here before
 * any route runs and before a byte of a file (first-field.ts). Every multipart request that needs a token and
 * sends none in the header goes this way, whatever its route: none is left unchecked. Never the URL: a token there
 * ends up in the address bar, history, logs and Referer headers.
 */
const tokenInFirstPart = (req: Request) =>
  !(SAFE_METHODS as readonly string[]).includes(req.method) && !skipCsrfProtection(req)
  && req.headers['x-csrf-token'] === undefined && Boolean(req.is('multipart/form-data'));

/** The first part's token of each multipart request (absent when its first part was no `_csrf` field). */
const firstPartTokens = new WeakMap<Request, string>();

function csrfFor(config: Config, secure: boolean) {
  return doubleCsrf({
    getSecret: () => config.sessionSecret,
    // Before sign-in there is no stored session; the token is then bound to the anonymous cookie alone.
    getSessionIdentifier: (req: Request) => (req.session?.passport?.user ? req.sessionID : 'anonymous'),
    // Over HTTPS the cookie gets the __Host- prefix (bound to this host, Secure, path /); plain http://localhost
    // keeps working for `npm start`.
    cookieName: secure ? '__Host-portal.csrf' : 'portal.csrf',
    cookieOptions: { sameSite: 'lax', secure, httpOnly: true, path: '/' },
    getCsrfTokenFromRequest: (req: Request) =>
      tokenInFirstPart(req) ? firstPartTokens.get(req)
        : req.body && typeof req.body._csrf === 'string' ? req.body._csrf : req.headers['x-csrf-token'],
    ignoredMethods: [...SAFE_METHODS],
    skipCsrfProtection,
  });
}

export function setUpCsrf(config: Config): RequestHandler[] {
  const plain = csrfFor(config, false);
  const secure = csrfFor(config, true);
  return [
    (req, res, next) => {
      const { doubleCsrfProtection } = req.secure ? secure : plain;
      if (!tokenInFirstPart(req)) return doubleCsrfProtection(req, res, next);
      // Having read from the body, Node no longer drops what is left of it after the answer; a refused upload
      // (or one posted to a route that reads no body) would leave the connection holding it. Drop it, as Node would.
      res.once('finish', () => req.resume());
      void readFirstField(req, '_csrf').then((token) => {
        if (token !== undefined) firstPartTokens.set(req, token);
        doubleCsrfProtection(req, res, next);
      });
    },
    (req, res, next) => {
      const { generateCsrfToken } = req.secure ? secure : plain;
      // Generated lazily: only pages that render a form set the cookie.
      Object.defineProperty(res.locals, 'csrfToken', {
        configurable: true,
        enumerable: true,
        get: () => generateCsrfToken(req, res),
      });
      next();
    },
  ];
}
