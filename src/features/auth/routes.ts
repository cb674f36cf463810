// HTML sign-in: login form (credentials, then the code when the user has a second factor), tenant selection,
// logout. The same AccountService serves the JSON account API.
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { PassportStatic } from 'passport';
import type { CurrentUser } from '../../auth/current-user.js';
import { loadCurrentUser } from '../../auth/current-user.js';
import { CODE_PATTERN } from '../../auth/mfa.js';
import type { AccountService } from '../../auth/services.js';
import { SsoError, TRANSACTION_TTL_MS, type SsoClient, type SsoProblem } from '../../auth/sso.js';
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

const SSO_STATUS: Record<SsoProblem, number> = { unavailable: 503, denied: 401, invalid: 400, tooLarge: 413, noUser: 401 };
const SSO_TEXT: Record<SsoProblem, string> = {
  unavailable: 'auth:sso.unavailable', denied: 'auth:sso.denied', invalid: 'auth:sso.failed', tooLarge: 'auth:sso.tooLarge', noUser: 'auth:sso.noUser',
};

export function authRoutes(accounts: AccountService, passport: PassportStatic, sso: SsoClient | null, log: (err: unknown) => void): Router {
  const router = Router({ mergeParams: true });
  const knex = accounts.knex;

  const loginPage = (req: Request, res: Response, locals: Record<string, unknown> = {}) =>
    res.page('auth/login', {
      title: req.t('auth:login.title'),
      layout: 'public',
      redirect: safeRedirectTarget(req.query.redirect ?? req.body?.redirect, res.locals.lang) ?? '',
      step: 'credentials',
      // The SSO button only where the browser can sign in with it.
      sso: Boolean(sso?.browserFlow),
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
      // A switch from one tenant to another is confirmed on the next page (the first choice after sign-in is not a switch).
      if (previous && previous !== wanted) res.flash('success', 'flash.mandantSwitched');
      req.session.save((saveErr) => (saveErr ? next(saveErr) : res.redirect(afterLoginTarget(res, parsed.data?.redirect))));
    });
  });

  // SSO: the authorization code flow with PKCE (src/auth/sso.ts). /sso explains and offers the start;
  // /sso/start sends the browser to the provider; the provider sends it back to /sso/callback with a code.
  const ssoPage = (req: Request, res: Response, locals: { error?: string; status?: number; redirect?: string } = {}) => {
    if (locals.status) res.status(locals.status);
    return res.page('auth/sso', {
      title: req.t('auth:sso.title'), layout: 'public', configured: Boolean(sso), browserFlow: Boolean(sso?.browserFlow),
      redirect: locals.redirect ?? safeRedirectTarget(req.query.redirect, res.locals.lang) ?? '', error: locals.error,
    });
  };
  /** The callback's absolute URL: the one the provider has registered for this language. */
  const callbackUri = (req: Request, lang: string) => `${req.protocol}://${req.get('host')}/${lang}/sso/callback`;

  /** A failed sign-in: audited with its reason (and the user, when the token named a known one), then the page. */
  async function ssoFailed(req: Request, res: Response, err: unknown, redirect?: string) {
    if (!(err instanceof SsoError)) throw err;
    await audit(knex, { kind: 'auth.sso.failed', benutzerId: err.benutzerId, ip: req.ip, after: { grund: err.problem, detail: err.detail } });
    await ssoPage(req, res, { status: SSO_STATUS[err.problem], error: req.t(SSO_TEXT[err.problem]), redirect });
  }

  router.get('/sso', (req, res) => ssoPage(req, res));

  router.get('/sso/start', async (req, res, next) => {
    if (!sso?.browserFlow) return ssoPage(req, res, { status: 404 });
    const redirect = safeRedirectTarget(req.query.redirect, res.locals.lang) ?? undefined;
    let started: Awaited<ReturnType<typeof sso.start>>;
    try {
      started = await sso.start(callbackUri(req, res.locals.lang), redirect);
    } catch (err) {
      return ssoFailed(req, res, err);
    }
    // Several tabs may start a sign-in; each is found again by its state. Old ones are dropped.
    const now = accounts.clock.now();
    const pending = Object.entries(req.session.sso ?? {}).filter(([, t]) => now - t.startedAt < TRANSACTION_TTL_MS).slice(-4);
    req.session.sso = Object.fromEntries([...pending, [started.transaction.state, started.transaction]]);
    req.session.save((err) => (err ? next(err) : res.redirect(started.url)));
  });

  router.get('/sso/callback', async (req, res) => {
    if (!sso?.browserFlow) return ssoPage(req, res, { status: 404 });
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const transaction = state ? req.session.sso?.[state] : undefined;
    if (transaction) {
      delete req.session.sso![state];
    }
    try {
      if (!transaction || accounts.clock.now() - transaction.startedAt >= TRANSACTION_TTL_MS) {
        throw new SsoError('invalid', state ? 'unknown or expired state' : 'callback without state');
      }
      if (typeof req.query.error !== 'string' && typeof req.query.code !== 'string') throw new SsoError('invalid', 'callback without code');
      const { claims, idToken } = await sso.finish(new URL(req.originalUrl, transaction.redirectUri), transaction);
      const user = await loadCurrentUser(knex, await sso.signIn(knex, idToken, claims));
      if (!user) throw new SsoError('noUser', 'user not loadable');
      await finishLogin(req, res, user, transaction.redirect);
    } catch (err) {
      await ssoFailed(req, res, err, transaction?.redirect);
    }
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
