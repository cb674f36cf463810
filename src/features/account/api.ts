// The account API of spec section 7 (/api/v1): login, second factor, logout, session, password, settings.
// Texts are the spec's, word for word (locales/*/account.json).
import { Router, type Request, type Response } from 'express';
import type { CurrentUser } from '../../auth/current-user.js';
import { passwordProblems } from '../../auth/password-policy.js';
import type { AccountService } from '../../auth/services.js';
import { looksLikeJwt } from '../../auth/tokens.js';
import { CODE_PATTERN } from '../../auth/mfa.js';
import { SsoError, type SsoClient } from '../../auth/sso.js';
import { audit } from '../../db/audit.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { requireApiUser, requireTenant } from '../../http/api.js';
import { HttpError } from '../../http/errors.js';
import { parseOr400 } from '../../http/validate.js';
import {
  ChangePasswordBody, LoginBody, MfaVerifyBody, PasswordBody, PutSettingsBody, SettingsTyp, SsoTokenBody, TokenBody,
} from './schema.js';
import { deleteSettings, normaliseSettings, readSettings, writeSettings } from './settings.js';
import { documentApis, Done } from '../api-docs/registry.js';
import { z } from 'zod';

const LoginAnswer = z.object({
  success: z.literal(true),
  token: z.string().describe('"Bearer <jwt>": send it as the Authorization header, as it is'),
  mandanten: z.array(z.object({ mandant: z.string(), adminKz: z.boolean() }).strict()),
  id: z.number().int(),
  vorname: z.string().nullable(),
  nachname: z.string().nullable(),
  email: z.string().nullable(),
  status: z.string(),
  adminKz: z.boolean(),
  rollen: z.array(z.object({ mandant: z.string(), typ: z.unknown(), standortNr: z.string().nullable() }).strict()),
  standorte: z.array(z.unknown()),
}).strict();
const Settings = z.object({ success: z.literal(true), data: z.object({ typ: z.number().int(), data: z.string() }).strict() }).strict();
const tag = 'account';

documentApis([
  { method: 'post', path: '/v1/account/login', tag, summary: 'account.login', body: LoginBody, ok: { 200: LoginAnswer }, errors: [429] },
  { method: 'post', path: '/v1/sso/login', tag, summary: 'account.sso', body: TokenBody, ok: { 200: LoginAnswer } },
  {
    method: 'post', path: '/v1/account/mfa/login', tag, summary: 'account.mfaLogin', body: LoginBody, errors: [429],
    ok: { 200: z.union([LoginAnswer.extend({ mfaRequired: z.literal(false) }), z.object({ success: z.literal(true), mfaRequired: z.literal(true), token: z.string() }).strict()]) },
  },
  { method: 'post', path: '/v1/account/mfa/verify', tag, summary: 'account.mfaVerify', body: MfaVerifyBody, ok: { 200: LoginAnswer }, errors: [429] },
  { method: 'post', path: '/v1/account/mfa/reset', tag, summary: 'account.mfaReset', body: TokenBody, ok: { 200: Done } },
  { method: 'post', path: '/v1/account/logout', tag, summary: 'account.logout', ok: { 200: Done } },
  { method: 'get', path: '/v1/account/session', tag, summary: 'account.session', ok: { 200: z.object({ success: z.literal(true), valid: z.literal(true) }).strict() } },
  { method: 'post', path: '/v1/account/reset-2fa', tag, summary: 'account.reset2fa', body: PasswordBody, ok: { 200: Done } },
  { method: 'post', path: '/v1/account/pwd', tag, summary: 'account.pwd', body: ChangePasswordBody, ok: { 200: Done } },
  { method: 'get', path: '/v1/einstellungen/:typ', tag, summary: 'account.settingsRead', params: z.object({ typ: SettingsTyp }), ok: { 200: Settings } },
  { method: 'put', path: '/v1/einstellungen', tag, summary: 'account.settingsWrite', body: PutSettingsBody, ok: { 200: Settings } },
  { method: 'delete', path: '/v1/einstellungen/:typ', tag, summary: 'account.settingsDelete', params: z.object({ typ: SettingsTyp }), ok: { 200: Done } },
]);

export function loginResponse(user: CurrentUser, token: string) {
  return {
    success: true,
    token: `Bearer ${token}`,
    mandanten: user.mandanten.map((m) => ({ mandant: m.mandant.toUpperCase(), adminKz: m.adminKz })),
    id: user.id,
    vorname: user.vorname,
    nachname: user.nachname,
    email: user.email,
    status: user.status,
    adminKz: user.adminKz,
    rollen: user.rollen.map((r) => ({ mandant: r.mandant, typ: r.typ, standortNr: r.standortNr })),
    standorte: user.standorte,
  };
}

const invalidCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', 'account:errors.invalidCredentials');
const tooMany = (retryAfter: number) =>
  new HttpError(429, 'TOO_MANY_ATTEMPTS', 'account:errors.tooManyAttempts', [], { minutes: Math.max(1, Math.ceil(retryAfter / 60)), retryAfter });

/** MFA verify is the one call whose server errors have a text of their own (spec section 8); the cause is logged. */
function mfaServerError(cause: unknown): never {
  const status = isDatabaseUnavailable(cause) ? 503 : 500;
  throw Object.assign(new HttpError(status, status === 503 ? 'UNAVAILABLE' : 'INTERNAL', 'account:errors.serverError'), { cause });
}

export function accountApi(accounts: AccountService, sso: SsoClient | null): Router {
  const router = Router();
  const ip = (req: Request) => req.ip ?? 'unknown';

  async function credentials(req: Request) {
    const body = parseOr400(LoginBody, req.body);
    const result = await accounts.checkCredentials(body.login, body.password, ip(req));
    if (result.kind === 'blocked') throw tooMany(result.retryAfter);
    if (result.kind === 'invalid') throw invalidCredentials();
    return result;
  }

  async function openSession(res: Response, userId: number, req: Request, extra: Record<string, unknown> = {}) {
    const { token, user } = await accounts.openTokenSession(userId, ip(req));
    res.json({ ...loginResponse(user, token), ...extra });
  }

  router.post('/account/login', async (req, res) => {
    const result = await credentials(req);
    // A user with a second factor never gets a session from the password alone.
    if (result.mfa) throw new HttpError(401, 'MFA_REQUIRED', 'account:errors.mfaRequired');
    await openSession(res, result.userId, req);
  });

  // SSO: the identity provider has authenticated the user (its own second factor included).
  router.post('/sso/login', async (req, res) => {
    if (!sso) throw new HttpError(404, 'SSO_NOT_CONFIGURED', 'auth:sso.notConfigured');
    const body = parseOr400(SsoTokenBody, req.body);
    let userId: number;
    try {
      const claims = await sso.verify(body.token);
      userId = await sso.signIn(accounts.knex, body.token, claims);
    } catch (err) {
      if (!(err instanceof SsoError)) throw err;
      await audit(accounts.knex, { kind: 'auth.sso.failed', benutzerId: err.benutzerId, ip: ip(req), after: { grund: err.problem, detail: err.detail } });
      if (err.problem === 'unavailable') throw new HttpError(503, 'SSO_UNAVAILABLE', 'auth:sso.unavailable');
      if (err.problem === 'tooLarge') throw new HttpError(413, 'SSO_TOKEN_TOO_LARGE', 'auth:sso.tooLarge');
      throw new HttpError(401, 'SSO_FAILED', 'auth:sso.failed');
    }
    await openSession(res, userId, req);
  });

  router.post('/account/mfa/login', async (req, res) => {
    const result = await credentials(req);
    if (!result.mfa) return openSession(res, result.userId, req, { mfaRequired: false });
    res.json({ success: true, mfaRequired: true, token: await accounts.tokens.mfaPending(result.userId) });
  });

  router.post('/account/mfa/verify', async (req, res) => {
    const body = parseOr400(MfaVerifyBody, req.body, 'account:errors.codeFormat');
    if (!CODE_PATTERN.test(body.code)) throw new HttpError(400, 'INVALID_CODE', 'account:errors.codeFormat');
    const claims = looksLikeJwt(body.token) ? await accounts.tokens.verifyMfaPending(body.token) : null;
    if (!claims) throw new HttpError(401, 'INVALID_CODE', 'account:errors.codeOrToken');
    const result = await accounts.checkCode(Number(claims.sub), body.code, ip(req)).catch(mfaServerError);
    if (result.kind === 'blocked') throw tooMany(result.retryAfter);
    if (result.kind === 'invalid') throw new HttpError(401, 'INVALID_CODE', 'account:errors.codeOrToken');
    if (result.kind === 'used') throw new HttpError(401, 'CODE_NOT_VALIDATED', 'account:errors.codeNotValidated');
    await openSession(res, Number(claims.sub), req);
  });

  // Switching the second factor off needs a full session (password and code), never the password alone.
  router.post('/account/mfa/reset', async (req, res) => {
    const body = parseOr400(TokenBody, req.body, 'account:errors.tokenInvalid');
    const raw = body.token.replace(/^Bearer /, '');
    const found = looksLikeJwt(raw) ? await accounts.userForToken(raw) : null;
    if (!found) throw new HttpError(401, 'TOKEN_INVALID', 'account:errors.tokenInvalid');
    await accounts.disableMfa(found.user.id, found.user.id, ip(req));
    res.json({ success: true });
  });

  router.post('/account/logout', async (req, res) => {
    if (req.apiSid) await accounts.endSession(req.apiSid);
    res.json({ success: true });
  });

  router.get('/account/session', (req, res) => {
    if (!req.user) throw new HttpError(401, 'SESSION_EXPIRED', 'account:errors.sessionExpired');
    res.json({ success: true, valid: true });
  });

  router.post('/account/reset-2fa', requireApiUser(), requireTenant(), async (req, res) => {
    const body = parseOr400(PasswordBody, req.body);
    if (!(await accounts.verifyOwnPassword(req.user!.id, body.password))) {
      throw new HttpError(401, 'INVALID_PASSWORD', 'account:errors.invalidPassword');
    }
    await accounts.disableMfa(req.user!.id, req.user!.id, ip(req));
    res.json({ success: true });
  });

  router.post('/account/pwd', requireApiUser(), requireTenant(), async (req, res) => {
    const body = parseOr400(ChangePasswordBody, req.body, 'account:errors.passwordRules');
    if (!(await accounts.verifyOwnPassword(req.user!.id, body.currentPassword))) {
      throw new HttpError(401, 'INVALID_PASSWORD', 'account:errors.currentPasswordInvalid');
    }
    const problems = passwordProblems(body.newPassword);
    const errors = problems.map((p) => ({ field: 'newPassword', message: `account:password.rules.${p}` }));
    if (body.confirmPassword !== undefined && body.confirmPassword !== body.newPassword) {
      errors.push({ field: 'confirmPassword', message: 'account:password.mismatch' });
    }
    if (errors.length) throw new HttpError(400, 'PASSWORD_RULES', 'account:errors.passwordRules', errors);
    await accounts.setPassword(req.user!.id, body.newPassword, req.apiSid);
    res.json({ success: true });
  });

  router.get('/einstellungen/:typ', requireApiUser(), requireTenant(), async (req, res) => {
    const typ = parseOr400(SettingsTyp, req.params.typ);
    const data = await readSettings(accounts.knex, req.user!.id, typ);
    if (data == null) throw new HttpError(404, 'NOT_FOUND', 'account:errors.settingsNotFound');
    res.json({ success: true, data: { typ, data } });
  });

  router.put('/einstellungen', requireApiUser(), requireTenant(), async (req, res) => {
    const body = parseOr400(PutSettingsBody, req.body);
    const data = normaliseSettings(body.typ, body.data);
    if (data == null) throw new HttpError(400, 'BAD_REQUEST', 'account:errors.settingsInvalid', [{ field: 'data', message: 'validation.invalid' }]);
    await writeSettings(accounts.knex, req.user!.id, body.typ, data);
    res.json({ success: true, data: { typ: body.typ, data } });
  });

  router.delete('/einstellungen/:typ', requireApiUser(), requireTenant(), async (req, res) => {
    const typ = parseOr400(SettingsTyp, req.params.typ);
    if (!(await deleteSettings(accounts.knex, req.user!.id, typ))) throw new HttpError(404, 'NOT_FOUND', 'account:errors.settingsNotFound');
    res.json({ success: true });
  });

  return router;
}
