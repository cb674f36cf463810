// passport-local for the HTML login form, on the same credential check (and brute-force limits) as the JSON
// API. The session holds only the user id and the chosen tenant; the rest is loaded per request, so rights
// granted or removed take effect on the next request.
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import passport, { type PassportStatic } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { loadCurrentUser, principalFor } from '../auth/current-user.js';
import type { AccountService, CredentialResult } from '../auth/services.js';
import type { SessionUser } from './session-store.js';

/** What the local strategy hands the login route besides the user: why it failed, or that a code is due. */
export type LoginInfo = Exclude<CredentialResult, { kind: 'ok' }> | { kind: 'mfa'; userId: number };

export function createPassport(knex: Knex, accounts: AccountService): PassportStatic {
  const instance = new passport.Passport() as unknown as PassportStatic;
  instance.use(
    new LocalStrategy(
      { usernameField: 'login', passwordField: 'password', passReqToCallback: true },
      async (req, login, password, done) => {
        try {
          const result = await accounts.checkCredentials(login, password, req.ip ?? 'unknown');
          if (result.kind !== 'ok') return done(null, false, { message: result.kind, ...result });
          // The password alone never signs in a user who has a second factor.
          if (result.mfa) return done(null, false, { message: 'mfa', kind: 'mfa', userId: result.userId } as { message: string });
          const user = await loadCurrentUser(knex, result.userId);
          return done(null, user ?? false);
        } catch (err) {
          return done(err);
        }
      },
    ),
  );
  instance.serializeUser((user, done) => done(null, (user as Express.User).id));
  instance.deserializeUser<number, IncomingMessage>(async (req, id, done) => {
    try {
      // Usually read together with the session (KnexSessionStore.get): no round trip of its own.
      const handed = accounts.store.takeUser((req as { sessionID?: string }).sessionID ?? '', id);
      const user = handed !== undefined ? handed : await loadCurrentUser(knex, id);
      // A deactivated user's session ends at once.
      done(null, user && user.status === 'active' ? user : false);
    } catch (err) {
      done(err);
    }
  });
  return instance;
}

export function setUpAuthentication(instance: PassportStatic): RequestHandler[] {
  return [
    instance.initialize(),
    instance.session(),
    (req, res, next) => {
      const user = req.user ?? null;
      let mandant = req.session?.mandant ?? null;
      // The chosen tenant must still be one of the user's active tenants.
      if (user && mandant && !user.mandanten.some((m) => m.mandant === mandant)) {
        delete req.session.mandant;
        mandant = null;
      }
      res.locals.currentUser = user;
      res.locals.mandant = user ? mandant : null;
      res.locals.principal = user ? principalFor(user, mandant) : null;
      // The header's unread count, read with the session for the session's tenant (session-store.ts).
      const { nachrichtenUngelesen: ungelesen, staende } = (user ?? {}) as SessionUser;
      res.locals.nachrichtenUngelesen = ungelesen && ungelesen.mandant === mandant ? ungelesen.anzahl : null;
      // Likewise the tenant's change counters, for what is kept across requests (src/db/stand-cache.ts, src/records/list/pages.ts).
      res.locals.staende = staende && staende.mandant === mandant ? staende : null;
      next();
    },
  ];
}
