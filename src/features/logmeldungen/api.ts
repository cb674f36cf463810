// GET /api/logmeldungen (list, the contract's list shape) and GET /api/logmeldungen/{id} (one entry with its
// field changes). Support only; mounted below requireApiUser() and requireTenant() in app.ts.
import { Router } from 'express';
import type { Knex } from 'knex';
import { requireApiPermission } from '../../http/api.js';
import { notFound } from '../../http/errors.js';
import { registerList } from '../../records/list/request.js';
import { listApiOrExport } from '../../records/list/routes.js';
import { parseOr400 } from '../../http/validate.js';
import { logList } from './list.js';
import { LogId } from './schema.js';
import { z } from 'zod';
import { DataOnly, documentApis, EXPORT_TYPES, Page } from '../api-docs/registry.js';
import { listQuery } from '../api-docs/lists.js';

const Entry = {
  id: z.number().int(), at: z.string(), mandant: z.string().nullable(), benutzerId: z.number().int().nullable(), benutzer: z.string().nullable(),
  apiKey: z.string().nullable().optional(),
  kind: z.string(), entity: z.string().nullable(), entityId: z.string().nullable(), before: z.unknown(), after: z.unknown(), ip: z.string().nullable(),
};
// A secret's change names no values (hidden): before and after are left out.
const Change = z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional(), change: z.string(), hidden: z.boolean() }).strict();

documentApis([
  { method: 'get', path: '/logmeldungen', tag: 'logmeldungen', summary: 'logmeldungen.list', query: listQuery(logList as never, { exports: true }), ok: { 200: { json: Page(z.object(Entry).strict()), file: EXPORT_TYPES } } },
  { method: 'get', path: '/logmeldungen/:id', tag: 'logmeldungen', summary: 'logmeldungen.read', params: z.object({ id: LogId }), ok: { 200: DataOnly(z.object({ ...Entry, changes: z.array(Change) }).strict()) } },
]);
import { getLogmeldung, logSource, viewerOf } from './service.js';

export function logmeldungenApi(knex: Knex): Router {
  const router = Router();

  registerList(logList, { api: 'logmeldungen', exports: true });
  router.get('/logmeldungen', requireApiPermission('support'), async (req, res) => {
    const list = await listApiOrExport(req, res, logList, logSource(knex, viewerOf(req.user!)), { title: 'nav.logmeldungen', filename: 'logmeldungen' });
    if (!list) return;
    const { state, result } = list;
    res.json({ data: result.rows, total: result.total, page: result.page, pageSize: state.pageSize });
  });

  router.get('/logmeldungen/:id', requireApiPermission('support'), async (req, res) => {
    const id = parseOr400(LogId, req.params.id, 'logmeldungen:errors.id');
    const entry = await getLogmeldung(knex, viewerOf(req.user!), id);
    if (!entry) throw notFound('logmeldungen:errors.notFound');
    res.json({ data: entry });
  });

  return router;
}
