// /api/mandanten: tenant management for system administrators.
import { Router } from 'express';
import type { AccountService } from '../../auth/services.js';
import { requireApiPermission } from '../../http/api.js';
import { registerList } from '../../records/list/request.js';
import { listApiOrExport } from '../../records/list/routes.js';
import { actorOf } from '../../http/tenant.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import { MandantId, MandantInput, NewMandantInput, StatusInput } from './schema.js';
import { mandantList, MandantenService } from './service.js';
import { z } from 'zod';
import { documentApis, Envelope, EXPORT_TYPES, Page } from '../api-docs/registry.js';
import { listQuery } from '../api-docs/lists.js';

const Mandant = z.object({
  mandant: z.string(), name: z.string(), email: z.string().nullable(), strasse: z.string().nullable(), hausNr: z.string().nullable(),
  plz: z.string().nullable(), stadt: z.string().nullable(), land: z.string().nullable(), status: z.enum(['active', 'inactive']),
  zertifizierungsnummer: z.string().nullable(), benutzer: z.number().int(),
}).strict();
const Member = z.object({
  id: z.number().int(), login: z.string(), vorname: z.string(), nachname: z.string(), email: z.string(), status: z.string(), adminKz: z.boolean(), tenantAdminKz: z.boolean(),
}).strict();
const params = z.object({ id: MandantId });
const tag = 'mandanten';

documentApis([
  { method: 'get', path: '/mandanten', tag, summary: 'mandanten.list', query: listQuery(mandantList as never, { exports: true }), ok: { 200: { json: Page(Mandant), file: EXPORT_TYPES } } },
  { method: 'get', path: '/mandanten/:id', tag, summary: 'mandanten.read', params, ok: { 200: Envelope(Mandant) } },
  { method: 'get', path: '/mandanten/:id/benutzer', tag, summary: 'mandanten.users', params, ok: { 200: Page(Member) } },
  { method: 'post', path: '/mandanten', tag, summary: 'mandanten.create', body: NewMandantInput, ok: { 201: Envelope(Mandant) } },
  { method: 'put', path: '/mandanten/:id', tag, summary: 'mandanten.update', params, body: MandantInput, ok: { 200: Envelope(Mandant) } },
  { method: 'patch', path: '/mandanten/:id/status', tag, summary: 'mandanten.status', params, body: StatusInput, ok: { 200: Envelope(Mandant) } },
]);

export function mandantenApi(accounts: AccountService): Router {
  const router = Router();
  const service = new MandantenService(accounts.knex);
  const guard = requireApiPermission('systemAdmin');
  const id = (raw: unknown) => {
    return idOr404(MandantId, raw, 'errors.mandantNotFound');
  };

  registerList(mandantList, { api: 'mandanten', exports: true });
  router.get('/mandanten', guard, async (req, res) => {
    const list = await listApiOrExport(req, res, mandantList, service.listSource(actorOf(req, res)), { title: 'nav.mandanten', filename: 'mandanten' });
    if (!list) return;
    const { state, result } = list;
    res.json({ data: result.rows, total: result.total, page: result.page, pageSize: state.pageSize });
  });
  router.get('/mandanten/:id', guard, async (req, res) => {
    res.json({ success: true, data: await service.get(actorOf(req, res), id(req.params.id)) });
  });
  router.get('/mandanten/:id/benutzer', guard, async (req, res) => {
    const data = await service.users(actorOf(req, res), id(req.params.id));
    res.json({ data, total: data.length, page: 1, pageSize: data.length });
  });
  router.post('/mandanten', guard, async (req, res) => {
    res.status(201).json({ success: true, data: await service.create(actorOf(req, res), parseOr400(NewMandantInput, req.body)) });
  });
  router.put('/mandanten/:id', guard, async (req, res) => {
    const mandant = id(req.params.id);
    res.json({ success: true, data: await service.update(actorOf(req, res), mandant, parseOr400(MandantInput, req.body)) });
  });
  router.patch('/mandanten/:id/status', guard, async (req, res) => {
    const mandant = id(req.params.id);
    const { status } = parseOr400(StatusInput, req.body);
    res.json({ success: true, data: await service.setStatus(actorOf(req, res), mandant, status) });
  });
  return router;
}
