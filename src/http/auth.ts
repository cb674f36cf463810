// passport-local for the HTML login form; the session holds only the user id and the chosen tenant, the
// rest is loaded per request (so rights granted or removed take effect on the next request).
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import passport, { type PassportStatic } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { findUserForLogin, loadCurrentUser, principalFor } from '../auth/current-user.js';
import { verifyPassword } from '../auth/passwords.js';

export function createPassport(knex: Knex): PassportStatic {
  const instance = new passport.Passport() as unknown as PassportStatic;
  instance.use(
    new LocalStrategy({ usernameField: 'login', passwordField: 'password' }, async (login, password, done) => {
      try {
        const row = await findUserForLogin(knex, login);
        const ok = await verifyPassword(row?.password_hash, password);
        if (!row || !ok || row.status !== 'active') return done(null, false);
        const user = await loadCurrentUser(knex, row.id);
        return done(null, user ?? false);
      } catch (err) {
        return done(err);
      }
    }),
  );
  instance.serializeUser((user, done) => done(null, (user as Express.User).id));
  instance.deserializeUser(async (id: number, done) => {
    try {
      const user = await loadCurrentUser(knex, id);
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
      next();
    },
  ];
}
