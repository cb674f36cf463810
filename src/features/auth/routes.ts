// HTML sign-in: login form, tenant selection, logout. The JSON account API shares the services in src/auth.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { PassportStatic } from 'passport';
import type { CurrentUser } from '../../auth/current-user.js';
import { audit } from '../../db/audit.js';
import { requireLogin } from '../../http/guards.js';
import { safeRedirectTarget } from '../../http/language.js';
import { LoginForm, MandantForm } from './schema.js';

function afterLoginTarget(res: Response, redirect: unknown): string {
  return safeRedirectTarget(redirect, res.locals.lang) ?? `/${res.locals.lang}/benutzer/dashboard`;
}

function logIn(req: Request, user: CurrentUser): Promise<void> {
  // passport 0.7 regenerates the session id here: no session fixation.
  return new Promise((resolve, reject) => req.login(user, (err) => (err ? reject(err) : resolve())));
}

export function authRoutes(knex: Knex, passport: PassportStatic): Router {
  const router = Router({ mergeParams: true });

  router.get('/login', async (req, res) => {
    if (res.locals.currentUser && res.locals.mandant) return res.redirect(afterLoginTarget(res, req.query.redirect));
    await res.page('auth/login', { title: req.t('auth:login.title'), layout: 'public', redirect: safeRedirectTarget(req.query.redirect, res.locals.lang) ?? '' });
  });

  router.post('/login', (req, res, next) => {
    const parsed = LoginForm.safeParse(req.body);
    const renderFailure = async (status: number, key: string) => {
      res.status(status);
      await res.page('auth/login', {
        title: req.t('auth:login.title'), layout: 'public', error: req.t(key),
        login: typeof req.body?.login === 'string' ? req.body.login.slice(0, 254) : '',
        redirect: safeRedirectTarget(req.body?.redirect, res.locals.lang) ?? '',
      });
    };
    if (!parsed.success) return void renderFailure(400, 'auth:login.missing').catch(next);
    passport.authenticate('local', async (err: unknown, user: CurrentUser | false) => {
      try {
        if (err) return next(err);
        if (!user) {
          await audit(knex, { kind: 'auth.login.failed', entity: 'benutzer', entityId: parsed.data.login.slice(0, 64), ip: req.ip });
          return await renderFailure(401, 'auth:errors.invalidCredentials');
        }
        await logIn(req, user);
        await audit(knex, { kind: 'auth.login', benutzerId: user.id, ip: req.ip });
        const target = afterLoginTarget(res, parsed.data.redirect);
        if (user.mandanten.length === 1) {
          req.session.mandant = user.mandanten[0].mandant;
          return res.redirect(target);
        }
        res.redirect(`/${res.locals.lang}/mandant-selection?redirect=${encodeURIComponent(target)}`);
      } catch (e) {
        next(e);
      }
    })(req, res, next);
  });

  router.get('/mandant-selection', requireLogin(), async (req, res) => {
    const user = res.locals.currentUser!;
    if (user.mandanten.length === 1 && !res.locals.mandant) {
      req.session.mandant = user.mandanten[0].mandant;
      return res.redirect(afterLoginTarget(res, req.query.redirect));
    }
    await res.page('auth/mandant-selection', {
      title: req.t('auth:mandant.title'),
      layout: 'public',
      mandanten: user.mandanten,
      redirect: safeRedirectTarget(req.query.redirect, res.locals.lang) ?? '',
    });
  });

  router.post('/mandant-selection', requireLogin(), async (req, res, next) => {
    const parsed = MandantForm.safeParse(req.body);
    const user = res.locals.currentUser!;
    const wanted = parsed.success ? parsed.data.mandant.toUpperCase() : '';
    // Only a tenant from the user's own list is accepted (case-insensitive, stored upper-case).
    if (!user.mandanten.some((m) => m.mandant === wanted)) {
      res.status(400);
      return res.page('auth/mandant-selection', {
        title: req.t('auth:mandant.title'), layout: 'public', mandanten: user.mandanten,
        error: req.t('auth:mandant.invalid'), redirect: safeRedirectTarget(req.body?.redirect, res.locals.lang) ?? '',
      });
    }
    // A change of tenant changes privileges: new session id, same user.
    const previous = req.session.mandant;
    req.session.regenerate((err) => {
      if (err) return next(err);
      req.session.passport = { user: user.id };
      req.session.mandant = wanted;
      if (previous !== wanted) void audit(knex, { kind: 'auth.mandant.switch', benutzerId: user.id, mandant: wanted, ip: req.ip }).catch(() => {});
      req.session.save((saveErr) => (saveErr ? next(saveErr) : res.redirect(afterLoginTarget(res, parsed.data?.redirect))));
    });
  });

  router.post('/logout', (req, res, next) => {
    const lang = res.locals.lang;
    req.logout((err) => {
      if (err) return next(err);
      req.session.destroy(() => {
        res.clearCookie('portal.sid', { path: '/' });
        res.flash('success', 'flash.loggedOut');
        res.redirect(`/${lang}/login`);
      });
    });
  });

  return router;
}
