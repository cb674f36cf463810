import session from 'express-session';
import type { RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { KnexSessionStore } from './session-store.js';

export const SESSION_COOKIE = 'portal.sid';

/**
 * The session check of the browser (`GET /api/v1/account/session` with `X-Activity: idle`) asks whether the
 * session is alive without keeping it alive; every other request counts as activity and restarts the idle
 * window.
 */
export function isPassiveCheck(req: { method: string; path: string; headers: Record<string, unknown> }): boolean {
  return req.method === 'GET' && req.path === '/api/v1/account/session' && req.headers['x-activity'] === 'idle';
}

export function setUpWebSession(config: Config, store: KnexSessionStore): RequestHandler {
  const active = sessionMiddleware(config, store, true);
  const passive = sessionMiddleware(config, store.passive(), false);
  return (req, res, next) => (isPassiveCheck(req) ? passive(req, res, next) : active(req, res, next));
}

function sessionMiddleware(config: Config, store: session.Store, rolling: boolean): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling, // every request restarts the 30-minute idle window
    proxy: config.trustProxy > 0,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto', // Secure whenever the request came over HTTPS, so plain http://localhost works too
      maxAge: config.sessionIdleMs,
      path: '/',
    },
  });
}
