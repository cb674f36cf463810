// JSON API of Nachrichten (resource `nachrichten` of the API contract):
//   GET    /api/nachrichten                  messages valid today, newest first, each with `ungelesen`
//   GET    /api/nachrichten?alle=true        administrators: every message of the tenant, past and future
//   POST   /api/nachrichten                  administrators: {titel, text, gueltigVon, gueltigBis?, an?} → 201 {data}
//   POST   /api/nachrichten/gelesen          marks every message valid today read
//   POST   /api/nachrichten/{id}/gelesen     marks one read
//   DELETE /api/nachrichten/{id}             administrators: deletes one (its read marks with it)
// Another tenant's message id is unknown here (404): every read goes through the tenant scope.
import { Router, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { requireApiPermission } from '../../http/api.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { NachrichtId, NachrichtSchema } from './schema.js';
import { z } from 'zod';
import { Done, documentApis, Envelope } from '../api-docs/registry.js';

const Nachricht = z.object({
  id: z.number().int(), titel: z.string(), text: z.string(), gueltigVon: z.string(), gueltigBis: z.string().nullable(), anAlle: z.boolean(),
  erstelltAm: z.string(), erstelltVon: z.string().nullable(), ungelesen: z.boolean().nullable(),
}).strict();
const one = z.object({ id: z.string().regex(/^\d+$/) });
documentApis([
  {
    method: 'get', path: '/nachrichten', tag: 'nachrichten', summary: 'nachrichten.list', query: z.object({ alle: z.enum(['true', 'false']).optional() }),
    ok: { 200: z.object({ data: z.array(Nachricht), total: z.number().int(), page: z.number().int(), pageSize: z.number().int(), ungelesen: z.number().int() }).strict() },
  },
  { method: 'post', path: '/nachrichten', tag: 'nachrichten', summary: 'nachrichten.create', body: NachrichtSchema, ok: { 201: Envelope(Nachricht) } },
  { method: 'post', path: '/nachrichten/gelesen', tag: 'nachrichten', summary: 'nachrichten.allRead', ok: { 200: z.object({ success: z.literal(true), gelesen: z.number().int() }).strict() } },
  { method: 'post', path: '/nachrichten/:id/gelesen', tag: 'nachrichten', summary: 'nachrichten.read', params: one, ok: { 200: Done } },
  { method: 'delete', path: '/nachrichten/:id', tag: 'nachrichten', summary: 'nachrichten.delete', params: one, ok: { 200: Done } },
]);
import * as service from './service.js';

export function nachrichtenApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const heute = () => heuteInDeutschland(new Date(clock.now()));
  const scope = (res: Response) => tenantScope(knex, res);
  // Authorised before the body is read: a user who may not write learns nothing about what they sent.
  const admin = requireApiPermission('admin', 'view', 'nachrichten:errors.nurAdmins');

  router.get('/nachrichten', async (req, res) => {
    const actor = actorOf(req, res);
    const alle = req.query.alle === 'true';
    const data = alle ? await service.alle(scope(res), actor) : await service.aktuelle(scope(res), actor, heute());
    res.json({ data, total: data.length, page: 1, pageSize: Math.max(data.length, 1), ungelesen: data.filter((n) => n.ungelesen).length });
  });

  router.post('/nachrichten', admin, async (req, res) => {
    const input = parseOr400(NachrichtSchema, req.body);
    res.status(201).json({ success: true, data: await service.anlegen(scope(res), actorOf(req, res), input) });
  });

  router.post('/nachrichten/gelesen', async (req, res) => {
    const neu = await service.alleAlsGelesen(scope(res), actorOf(req, res), heute());
    res.json({ success: true, gelesen: neu });
  });

  router.post('/nachrichten/:id/gelesen', async (req, res) => {
    const id = idOr404(NachrichtId, req.params.id, 'nachrichten:errors.notFound');
    await service.alsGelesen(scope(res), actorOf(req, res), id, heute());
    res.json({ success: true });
  });

  router.delete('/nachrichten/:id', admin, async (req, res) => {
    const id = idOr404(NachrichtId, req.params.id, 'nachrichten:errors.notFound');
    await service.loeschen(scope(res), actorOf(req, res), id);
    res.json({ success: true });
  });

  return router;
}
