// HTML sign-in: login form (credentials, then the code when the user has a second factor), tenant selection,
// logout. The same AccountService serves the JSON account API.
import { randomBytes } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { PassportStatic } from 'passport';
import type { CurrentUser } from '../../auth/current-user.js';
import { loadCurrentUser } from '../../auth/current-user.js';
import { CODE_PATTERN } from '../../auth/mfa.js';
import type { AccountService } from '../../auth/services.js';
import type { SsoVerifier } from '../../auth/sso.js';
import { MFA_PENDING_TTL_S } from '../../auth/tokens.js';
import { audit } from '../../db/audit.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import type { LoginInfo } from '../../http/auth.js';
import { requireLogin } from '../../http/guards.js';
import { safeRedirectTarget } from '../../http/language.js';
import { sessionCookieName } from '../../http/session.js';
import { CodeForm, LoginForm, MandantForm } from './schema.js';

function afterLoginTarget(res: Response, redirect: unknown): string {
  return safeRedirectTarget(redirect, res.locals.lang) ?? `/${res.locals.lang}/benutzer/dashboard`;
}

function logIn(req: Request, user: CurrentUser): Promise<void> {
  // passport 0.7 regenerates the session id here: no session fixation.
  return new Promise((resolve, reject) => req.login(user, (err) => (err ? reject(err) : resolve())));
}

export function authRoutes(accounts: AccountService, passport: PassportStatic, sso: SsoVerifier | null, log: (err: unknown) => void): Router {
  const router = Router({ mergeParams: true });
  const knex = accounts.knex;

  const loginPage = (req: Request, res: Response, locals: Record<string, unknown> = {}) =>
    res.page('auth/login', {
      title: req.t('auth:login.title'),
      layout: 'public',
      redirect: safeRedirectTarget(req.query.redirect ?? req.body?.redirect, res.locals.lang) ?? '',
      step: 'credentials',
      ...locals,
    });

  /** Signed in: one tenant is chosen at once, several lead to the selection. */
  async function finishLogin(req: Request, res: Response, user: CurrentUser, redirect: unknown) {
    delete req.session.pendingMfa;
    await logIn(req, user);
    await audit(knex, { kind: 'auth.login', benutzerId: user.id, ip: req.ip });
    // The user's stored theme follows them to a device that has no choice of its own yet.
    if (!req.cookies?.theme) res.cookie('theme', user.settings.theme, { sameSite: 'lax', path: '/', maxAge: 365 * 24 * 3600 * 1000 });
    const target = afterLoginTarget(res, redirect);
    if (user.mandanten.length === 1) {
      req.session.mandant = user.mandanten[0].mandant;
      return res.redirect(target);
    }
    res.redirect(`/${res.locals.lang}/mandant-selection?redirect=${encodeURIComponent(target)}`);
  }

  router.get('/login', async (req, res) => {
    if (res.locals.currentUser && res.locals.mandant) return res.redirect(afterLoginTarget(res, req.query.redirect));
    const pending = req.session.pendingMfa;
    const step = pending && pending.until > accounts.clock.now() ? 'code' : 'credentials';
    // Sent here by the session countdown or a 401: say why.
    const notice = req.query.expired === '1' ? req.t('account:errors.sessionExpired') : undefined;
    await loginPage(req, res, { step, notice });
  });

  router.post('/login', (req: Request, res: Response, next: NextFunction) => {
    const parsed = LoginForm.safeParse(req.body);
    const login = typeof req.body?.login === 'string' ? req.body.login.slice(0, 254) : '';
    if (!parsed.success) {
      res.status(400);
      return void loginPage(req, res, { error: req.t('auth:login.missing'), login }).catch(next);
    }
    passport.authenticate('local', async (err: unknown, user: CurrentUser | false, info: LoginInfo | undefined) => {
      try {
        if (err) return next(err);
        if (user) return await finishLogin(req, res, user, parsed.data.redirect);
        if (info?.kind === 'mfa') {
          req.session.pendingMfa = { userId: info.userId, until: accounts.clock.now() + MFA_PENDING_TTL_S * 1000 };
          return await loginPage(req, res, { step: 'code' });
        }
        if (info?.kind === 'blocked') {
          res.status(429).setHeader('Retry-After', String(info.retryAfter));
          return await loginPage(req, res, { error: req.t('account:errors.tooManyAttempts', { minutes: Math.ceil(info.retryAfter / 60) }), login });
        }
        res.status(401);
        await loginPage(req, res, { error: req.t('auth:errors.invalidCredentials'), login });
      } catch (e) {
        next(e);
      }
    })(req, res, next);
  });

  router.post('/login/code', async (req, res) => {
    const pending = req.session.pendingMfa;
    if (!pending || pending.until <= accounts.clock.now()) {
      delete req.session.pendingMfa;
      res.status(401);
      return loginPage(req, res, { error: req.t('account:errors.codeOrToken') });
    }
    const parsed = CodeForm.safeParse(req.body);
    if (!parsed.success || !CODE_PATTERN.test(parsed.data.code)) {
      res.status(400);
      return loginPage(req, res, { step: 'code', codeError: req.t('account:errors.codeFormatClient') });
    }
    let result: Awaited<ReturnType<AccountService['checkCode']>>;
    try {
      result = await accounts.checkCode(pending.userId, parsed.data.code, req.ip ?? 'unknown');
    } catch (err) {
      // The one server error whose text the user sees (spec section 8), on the form, so they can try again.
      log(err);
      res.status(isDatabaseUnavailable(err) ? 503 : 500);
      return loginPage(req, res, { step: 'code', codeError: req.t('account:errors.serverError') });
    }
    if (result.kind === 'blocked') {
      res.status(429).setHeader('Retry-After', String(result.retryAfter));
      return loginPage(req, res, { step: 'code', codeError: req.t('account:errors.tooManyAttempts', { minutes: Math.ceil(result.retryAfter / 60) }) });
    }
    if (result.kind === 'invalid') {
      res.status(401);
      return loginPage(req, res, { step: 'code', codeError: req.t('account:errors.codeOrToken') });
    }
    if (result.kind === 'used') {
      res.status(401);
      return loginPage(req, res, { step: 'code', codeError: req.t('account:errors.codeNotValidated') });
    }
    const user = await loadCurrentUser(knex, pending.userId);
    if (!user || user.status !== 'active') {
      res.status(401);
      return loginPage(req, res, { error: req.t('auth:errors.invalidCredentials') });
    }
    await finishLogin(req, res, user, parsed.data.redirect);
  });

  router.post('/login/cancel', (req, res) => {
    delete req.session.pendingMfa;
    res.redirect(`/${res.locals.lang}/login`);
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

  // SSO (implicit flow with form_post): the page sends the browser to the identity provider with a state and
  // a nonce kept in the session; the provider posts the id_token back here.
  router.get('/sso', async (req, res) => {
    let startUrl: string | null = null;
    if (sso?.config.authorizeUrl && sso.config.clientId) {
      const state = randomBytes(16).toString('base64url');
      const nonce = randomBytes(16).toString('base64url');
      req.session.sso = { state, nonce, redirect: safeRedirectTarget(req.query.redirect, res.locals.lang) ?? undefined };
      const url = new URL(sso.config.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: sso.config.clientId, response_type: 'id_token', response_mode: 'form_post', scope: 'openid email',
        redirect_uri: `${req.protocol}://${req.get('host')}/${res.locals.lang}/sso`, state, nonce,
      }).toString();
      startUrl = url.toString();
    }
    await res.page('auth/sso', { title: req.t('auth:sso.title'), layout: 'public', configured: Boolean(sso), startUrl });
  });

  router.post('/sso', async (req, res) => {
    const expected = req.session.sso;
    delete req.session.sso;
    const token = typeof req.body?.id_token === 'string' && req.body.id_token.length < 8192 ? req.body.id_token : '';
    const fail = async (status: number) => {
      res.status(status);
      await res.page('auth/sso', { title: req.t('auth:sso.title'), layout: 'public', configured: Boolean(sso), startUrl: null, error: req.t('auth:sso.failed') });
    };
    if (!sso) return fail(404);
    if (!expected || req.body?.state !== expected.state || !token) return fail(400);
    const claims = await sso.verify(token, expected.nonce);
    const userId = claims ? await sso.userIdFor(knex, claims) : null;
    const user = userId ? await loadCurrentUser(knex, userId) : null;
    if (!user) {
      await audit(knex, { kind: 'auth.sso.failed', ip: req.ip });
      return fail(401);
    }
    await finishLogin(req, res, user, expected.redirect);
  });

  router.post('/logout', (req, res, next) => {
    const lang = res.locals.lang;
    const expired = req.body?.reason === 'expired';
    req.logout((err) => {
      if (err) return next(err);
      req.session.destroy(() => {
        res.clearCookie(sessionCookieName(req.secure), { path: '/', secure: req.secure });
        res.flash(expired ? 'warning' : 'success', expired ? 'flash.sessionExpired' : 'flash.loggedOut');
        const redirect = safeRedirectTarget(req.body?.redirect, lang);
        res.redirect(`/${lang}/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`);
      });
    });
  });

  return router;
}
