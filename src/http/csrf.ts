// CSRF protection for every state-changing request with a cookie session (csrf-csrf, double submit bound to
// the session). Bearer-token API calls carry no cookie and need none.
import type { Request, RequestHandler } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import type { Config } from '../config.js';

export function setUpCsrf(config: Config): RequestHandler[] {
  const { doubleCsrfProtection, generateCsrfToken } = doubleCsrf({
    getSecret: () => config.sessionSecret,
    // Before sign-in there is no stored session; the token is then bound to the anonymous cookie alone.
    getSessionIdentifier: (req: Request) => (req.session?.passport?.user ? req.sessionID : 'anonymous'),
    cookieName: 'portal.csrf',
    cookieOptions: { sameSite: 'lax', secure: 'auto' as unknown as boolean, httpOnly: true, path: '/' },
    getCsrfTokenFromRequest: (req: Request) => (req.body && typeof req.body._csrf === 'string' ? req.body._csrf : req.headers['x-csrf-token']),
    skipCsrfProtection: (req: Request) =>
      typeof req.headers.authorization === 'string' && req.headers.authorization.startsWith('Bearer ') && !req.headers.cookie,
  });
  return [
    doubleCsrfProtection,
    (req, res, next) => {
      if (req.method === 'GET' || req.method === 'HEAD') {
        Object.defineProperty(res.locals, 'csrfToken', {
          configurable: true,
          enumerable: true,
          get: () => generateCsrfToken(req, res),
        });
      }
      next();
    },
  ];
}
