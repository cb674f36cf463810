import session from 'express-session';
import type { RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { KnexSessionStore } from './session-store.js';

export const SESSION_COOKIE = 'portal.sid';

export function setUpWebSession(config: Config, store: KnexSessionStore): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true, // every request restarts the 30-minute idle window
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
