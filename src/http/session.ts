import session from 'express-session';
import type { RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { KnexSessionStore } from './session-store.js';

export const SESSION_COOKIE = 'portal.sid';
/** Over HTTPS the cookie is bound to this host: Secure, Path=/, no Domain (OWASP ASVS 3.4.4). */
export const SECURE_SESSION_COOKIE = '__Host-portal.sid';

export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * A read the browser makes on its own, not for the user, says so with `X-Activity: idle`: the session check
 * (`GET /api/v1/account/session`) and the Tankstelle's minute refresh. It is answered within the session without
 * keeping the session alive; every other request counts as activity and restarts the idle window. Only reads:
 * a write is always the user's.
 */
export function isPassiveCheck(req: { method: string; path: string; headers: Record<string, unknown> }): boolean {
  return req.method === 'GET' && req.headers['x-activity'] === 'idle';
}

export function setUpWebSession(config: Config, store: KnexSessionStore): RequestHandler {
  // One middleware per combination of (active | passive check) × (HTTPS | plain http), each with its own view
  // of the one store (express-session keeps its cookie options on the store object it is given).
  const make = (touch: boolean, secure: boolean) => sessionMiddleware(config, store.view({ touch }), touch, secure);
  const pick = {
    active: { secure: make(true, true), plain: make(true, false) },
    passive: { secure: make(false, true), plain: make(false, false) },
  };
  return (req, res, next) => pick[isPassiveCheck(req) ? 'passive' : 'active'][req.secure ? 'secure' : 'plain'](req, res, next);
}

function sessionMiddleware(config: Config, store: session.Store, rolling: boolean, secure: boolean): RequestHandler {
  return session({
    name: sessionCookieName(secure),
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling, // every request restarts the 30-minute idle window
    proxy: config.trustProxy > 0,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure, // Secure whenever the request came over HTTPS, so plain http://localhost works too
      maxAge: config.sessionIdleMs,
      path: '/',
    },
  });
}
