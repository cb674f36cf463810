// /api/benutzer: user administration over JSON, with section 8's texts for the resets.
import { Router } from 'express';
import type { AccountService } from '../../auth/services.js';
import { requireApiPermission } from '../../http/api.js';
import { registerList } from '../../records/list/request.js';
import { listApiOrExport } from '../../records/list/routes.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import { actorOf } from '../../http/tenant.js';
import { userList } from './repo.js';
import { NewUserInput, ResetPasswordInput, StatusInput, UserId, UserInput } from './schema.js';
import { BenutzerService } from './service.js';
import { z } from 'zod';
import { Done, documentApis, Envelope, EXPORT_TYPES, Page } from '../api-docs/registry.js';
import { listQuery } from '../api-docs/lists.js';

const User = z.object({
  id: z.number().int(), login: z.string(), vorname: z.string(), nachname: z.string(), email: z.string(),
  status: z.enum(['active', 'inactive']), adminKz: z.boolean(), supportKz: z.boolean(), mfaEnabled: z.boolean(),
  mandanten: z.array(z.object({ mandant: z.string(), adminKz: z.boolean() }).strict()),
}).strict();
const params = z.object({ id: UserId });
const tag = 'benutzer';

documentApis([
  { method: 'get', path: '/benutzer', tag, summary: 'benutzer.list', query: listQuery(userList as never, { exports: true }), ok: { 200: { json: Page(User), file: EXPORT_TYPES } } },
  { method: 'get', path: '/benutzer/:id', tag, summary: 'benutzer.read', params, ok: { 200: Envelope(User) } },
  { method: 'post', path: '/benutzer', tag, summary: 'benutzer.create', body: NewUserInput, ok: { 201: Envelope(User) } },
  { method: 'put', path: '/benutzer/:id', tag, summary: 'benutzer.update', params, body: UserInput, ok: { 200: Envelope(User) } },
  { method: 'patch', path: '/benutzer/:id/status', tag, summary: 'benutzer.status', params, body: StatusInput, ok: { 200: Envelope(User) } },
  { method: 'patch', path: '/benutzer/:id/reset', tag, summary: 'benutzer.reset', params, body: ResetPasswordInput, ok: { 200: Done } },
  { method: 'patch', path: '/benutzer/:id/mfa/reset', tag, summary: 'benutzer.mfaReset', params, ok: { 200: Done } },
]);

export function benutzerApi(accounts: AccountService): Router {
  const router = Router();
  const service = new BenutzerService(accounts);
  const admin = requireApiPermission('admin');
  const id = (raw: unknown) => {
    return idOr404(UserId, raw, 'errors.userNotFound');
  };

  registerList(userList, { api: 'benutzer', exports: true });
  router.get('/benutzer', admin, async (req, res) => {
    const list = await listApiOrExport(req, res, userList, service.listSource(actorOf(req, res)), { title: 'nav.administration', filename: 'benutzer' });
    if (!list) return;
    const { state, result } = list;
    res.json({ data: result.rows, total: result.total, page: result.page, pageSize: state.pageSize });
  });

  router.get('/benutzer/:id', admin, async (req, res) => {
    res.json({ success: true, data: await service.get(actorOf(req, res), id(req.params.id)) });
  });

  router.post('/benutzer', admin, async (req, res) => {
    const input = parseOr400(NewUserInput, req.body);
    res.status(201).json({ success: true, data: await service.create(actorOf(req, res), input) });
  });

  router.put('/benutzer/:id', admin, async (req, res) => {
    const userId = id(req.params.id);
    const input = parseOr400(UserInput, req.body);
    res.json({ success: true, data: await service.update(actorOf(req, res), userId, input) });
  });

  router.patch('/benutzer/:id/status', admin, async (req, res) => {
    const userId = id(req.params.id);
    const { status } = parseOr400(StatusInput, req.body);
    res.json({ success: true, data: await service.setStatus(actorOf(req, res), userId, status) });
  });

  // The resets decide their own permission (a user may reset their own second factor).
  router.patch('/benutzer/:id/reset', async (req, res) => {
    const userId = id(req.params.id);
    const actor = actorOf(req, res);
    // Permission first (403), then the password rules (400): a malformed body counts as an empty password.
    const newPassword = ResetPasswordInput.safeParse(req.body ?? {}).data?.newPassword ?? '';
    await service.resetPassword(actor, userId, newPassword);
    res.json({ success: true });
  });

  router.patch('/benutzer/:id/mfa/reset', async (req, res) => {
    await service.resetMfa(actorOf(req, res), id(req.params.id));
    res.json({ success: true });
  });

  return router;
}
