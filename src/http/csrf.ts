// CSRF protection for every state-changing request with a cookie session (csrf-csrf, double submit bound to
// the session). Bearer-token API calls carry no cookie and need none.
import type { Request, RequestHandler } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import type { Config } from '../config.js';

function csrfFor(config: Config, secure: boolean) {
  return doubleCsrf({
    getSecret: () => config.sessionSecret,
    // Before sign-in there is no stored session; the token is then bound to the anonymous cookie alone.
    getSessionIdentifier: (req: Request) => (req.session?.passport?.user ? req.sessionID : 'anonymous'),
    // Over HTTPS the cookie gets the __Host- prefix (bound to this host, Secure, path /); plain http://localhost
    // keeps working for `npm start`.
    cookieName: secure ? '__Host-portal.csrf' : 'portal.csrf',
    cookieOptions: { sameSite: 'lax', secure, httpOnly: true, path: '/' },
    // A multipart form (a file upload) is parsed only by its route, after this check: its token travels in the
    // form's action URL instead (`?_csrf=`), so the upload is refused before a byte of it is read.
    getCsrfTokenFromRequest: (req: Request) =>
      req.body && typeof req.body._csrf === 'string' ? req.body._csrf
        : req.headers['x-csrf-token'] ?? (req.is('multipart/form-data') && typeof req.query._csrf === 'string' ? req.query._csrf : undefined),
    // A JSON API call that carries no cookie has no ambient authority a forged request could borrow
    // (Bearer tokens are never sent by the browser on its own), so it needs no CSRF token.
    skipCsrfProtection: (req: Request) => !req.headers.cookie && req.path.startsWith('/api/'),
  });
}

export function setUpCsrf(config: Config): RequestHandler[] {
  const plain = csrfFor(config, false);
  const secure = csrfFor(config, true);
  return [
    (req, res, next) => (req.secure ? secure : plain).doubleCsrfProtection(req, res, next),
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
