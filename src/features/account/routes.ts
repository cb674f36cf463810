// Personal pages: settings (with the second factor) and password change. Plain forms, POST-redirect-GET.
import { Router, type Request, type Response } from 'express';
import type { CurrentUser } from '../../auth/current-user.js';
import { enrolment, newSecret, verifyCode } from '../../auth/mfa.js';
import { passwordProblems } from '../../auth/password-policy.js';
import type { AccountService } from '../../auth/services.js';
import { guardsFor } from '../../http/guards.js';
import { DATE_FORMATS, PAGE_SIZES, TIMEZONES, UserSettingsSchema } from './schema.js';
import { SETTINGS_TYPE, writeSettings } from './settings.js';

const ONE_YEAR = 365 * 24 * 3600 * 1000;
const bool = (v: unknown) => v === 'on' || v === 'true' || v === '1';

export function accountRoutes(accounts: AccountService): Router {
  const router = Router({ mergeParams: true });
  const settingsPath = 'benutzer/einstellungen';
  const passwordPath = 'benutzer/passwort';

  const settingsPage = async (req: Request, res: Response, locals: Record<string, unknown> = {}) => {
    const user = res.locals.currentUser as CurrentUser;
    const pendingSecret = req.session.pendingMfaSecret;
    await res.page('account/einstellungen', {
      title: req.t('nav.einstellungen'),
      // The header toggle changes the theme at once (cookie); the form shows what is in effect.
      settings: { ...user.settings, theme: req.cookies?.theme === 'dark' ? 'dark' : req.cookies?.theme === 'light' ? 'light' : user.settings.theme },
      options: { timezones: TIMEZONES, dateFormats: DATE_FORMATS, pageSizes: PAGE_SIZES },
      mfaEnabled: user.mfaEnabled,
      enrol: pendingSecret && !user.mfaEnabled ? await enrolment(pendingSecret, user.email || user.login) : null,
      ...locals,
    });
  };

  router.get(`/${settingsPath}`, ...guardsFor(settingsPath), (req, res) => settingsPage(req, res));

  router.post(`/${settingsPath}`, ...guardsFor(settingsPath), async (req, res) => {
    const user = res.locals.currentUser as CurrentUser;
    const b = req.body ?? {};
    const parsed = UserSettingsSchema.safeParse({
      language: b.language, itemsPerPage: b.itemsPerPage, timezone: b.timezone, dateFormat: b.dateFormat, theme: b.theme,
      compactMode: bool(b.compactMode), emailNotifications: bool(b.emailNotifications), browserNotifications: bool(b.browserNotifications),
    });
    if (!parsed.success) {
      res.status(400);
      return settingsPage(req, res, { error: req.t('account:settings.invalid') });
    }
    await writeSettings(accounts.knex, user.id, SETTINGS_TYPE, JSON.stringify(parsed.data));
    // The theme takes effect at once, from the next page's first byte; the language through the address below.
    res.cookie('theme', parsed.data.theme, { sameSite: 'lax', path: '/', maxAge: ONE_YEAR });
    res.flash('success', 'flash.saved');
    res.redirect(`/${parsed.data.language}/${settingsPath}`);
  });

  // Second factor: enrol (secret + QR code, confirmed with a first code) or switch off with the password.
  router.post(`/${settingsPath}/2fa`, ...guardsFor(settingsPath), async (req, res) => {
    req.session.pendingMfaSecret = newSecret();
    res.redirect(`/${res.locals.lang}/${settingsPath}#zweiter-faktor`);
  });

  router.post(`/${settingsPath}/2fa/confirm`, ...guardsFor(settingsPath), async (req, res) => {
    const user = res.locals.currentUser as CurrentUser;
    const secret = req.session.pendingMfaSecret;
    const code = typeof req.body?.code === 'string' ? req.body.code.trim() : '';
    const step = secret ? await verifyCode(secret, code, accounts.clock.now(), null) : null;
    if (!secret || step == null) {
      res.status(400);
      return settingsPage(req, res, { mfaError: req.t('account:errors.codeFormatClient') });
    }
    await accounts.enableMfa(user.id, secret, step, req.ip ?? 'unknown');
    delete req.session.pendingMfaSecret;
    res.flash('success', 'flash.mfaEnabled');
    res.redirect(`/${res.locals.lang}/${settingsPath}#zweiter-faktor`);
  });

  router.post(`/${settingsPath}/2fa/reset`, ...guardsFor(settingsPath), async (req, res) => {
    const user = res.locals.currentUser as CurrentUser;
    const password = typeof req.body?.password === 'string' ? req.body.password : '';
    if (!password || !(await accounts.verifyOwnPassword(user.id, password))) {
      res.status(401);
      return settingsPage(req, res, { mfaError: req.t('account:errors.invalidPassword') });
    }
    await accounts.disableMfa(user.id, user.id, req.ip ?? 'unknown');
    res.flash('success', 'flash.mfaDisabled');
    res.redirect(`/${res.locals.lang}/${settingsPath}#zweiter-faktor`);
  });

  const passwordPage = (req: Request, res: Response, locals: Record<string, unknown> = {}) =>
    res.page('account/passwort', { title: req.t('nav.passwort'), problems: [], ...locals });

  router.get(`/${passwordPath}`, ...guardsFor(passwordPath), (req, res) => passwordPage(req, res));

  router.post(`/${passwordPath}`, ...guardsFor(passwordPath), async (req, res) => {
    const user = res.locals.currentUser as CurrentUser;
    const current = typeof req.body?.currentPassword === 'string' ? req.body.currentPassword : '';
    const next = typeof req.body?.newPassword === 'string' ? req.body.newPassword : '';
    const confirm = typeof req.body?.confirmPassword === 'string' ? req.body.confirmPassword : '';
    if (!current || !(await accounts.verifyOwnPassword(user.id, current))) {
      res.status(401);
      return passwordPage(req, res, {
        currentError: req.t('account:errors.currentPasswordInvalid'),
        errors: { currentPassword: req.t('account:errors.currentPasswordInvalid') },
      });
    }
    const problems = passwordProblems(next);
    const mismatch = next !== confirm;
    if (problems.length || mismatch) {
      // The summary names each problem (the rules, the mismatch) and links to its field; what was typed stays.
      res.status(400);
      return passwordPage(req, res, {
        errors: {
          ...(problems.length ? { newPassword: req.t('account:errors.passwordRules') } : {}),
          ...(mismatch ? { confirmPassword: req.t('account:password.mismatch') } : {}),
        },
        problems,
        values: { currentPassword: current, newPassword: next, confirmPassword: confirm },
        confirmError: mismatch ? req.t('account:password.mismatch') : undefined,
      });
    }
    await accounts.setPassword(user.id, next, req.sessionID);
    res.flash('success', 'flash.passwordChanged');
    res.redirect(`/${res.locals.lang}/${passwordPath}`);
  });

  return router;
}
