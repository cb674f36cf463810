// /api/gesetzeswerte: the legal values. Reading is for every signed-in user (the values are public law and
// the computations of every tenant use them); adding, correcting and deleting for system administrators only.
// Mounted below requireApiUser() and requireTenant() in app.ts like /api/mandanten: X-Mandant is required as
// for every call of the contract, though the values belong to no tenant.
import { Router } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { requireApiPermission } from '../../http/api.js';
import { actorOf } from '../../http/tenant.js';
import { idOr404 } from '../../http/validate.js';
import { GesetzeswertId, Korrektur, NeuerGesetzeswert, parseInput, stichtag } from './schema.js';
import { z } from 'zod';
import { Done, documentApis, Envelope, Page } from '../api-docs/registry.js';

const Gesetzeswert = z.object({
  id: z.number().int(), art: z.string(), anlageAb: z.string().nullable(), jahr: z.number().int().nullable(), einheit: z.string().nullable(),
  gueltigAb: z.string(), wert: z.string(), kommentar: z.string().nullable(), createdAt: z.string(), createdBy: z.string().nullable(),
  updatedAt: z.string(), updatedBy: z.string().nullable(),
}).strict();
/** GET /gesetzeswerte/am/{datum}: everything that applies on one date (service.ts, GesetzeswerteAmTag); decimals as exact strings. */
const GesetzeswerteAmTag = z.object({
  datum: z.string(), fossilerVergleichswert: z.string(), basiswert: z.string(),
  schwellen: z.array(z.object({ anlageAb: z.string(), prozent: z.string() }).strict()),
  quote: z.object({ jahr: z.number().int(), prozent: z.string() }).strict().nullable(),
  nachweisAblauf: z.string(),
}).strict();
const params = z.object({ id: GesetzeswertId });
const tag = 'gesetzeswerte';

documentApis([
  { method: 'get', path: '/gesetzeswerte', tag, summary: 'gesetzeswerte.list', ok: { 200: Page(Gesetzeswert) } },
  { method: 'get', path: '/gesetzeswerte/am/:datum', tag, summary: 'gesetzeswerte.amTag', params: z.object({ datum: z.iso.date() }), ok: { 200: Envelope(GesetzeswerteAmTag) } },
  { method: 'post', path: '/gesetzeswerte', tag, summary: 'gesetzeswerte.create', body: NeuerGesetzeswert, ok: { 201: Envelope(Gesetzeswert) } },
  { method: 'put', path: '/gesetzeswerte/:id', tag, summary: 'gesetzeswerte.update', params, body: Korrektur, ok: { 200: Envelope(Gesetzeswert) } },
  { method: 'delete', path: '/gesetzeswerte/:id', tag, summary: 'gesetzeswerte.delete', params, ok: { 200: Done } },
]);
import { gesetzeswerteAmTag, GesetzeswerteService } from './service.js';

export function gesetzeswerteApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const service = new GesetzeswerteService(knex, clock);
  const write = requireApiPermission('systemAdmin');
  const id = (raw: unknown) => idOr404(GesetzeswertId, raw, 'gesetzeswerte:errors.notFound');

  router.get('/gesetzeswerte', async (_req, res) => {
    const data = await service.list();
    res.json({ data, total: data.length, page: 1, pageSize: data.length });
  });
  router.get('/gesetzeswerte/am/:datum', async (req, res) => {
    const datum = stichtag(req.params.datum);
    res.json({ success: true, data: await gesetzeswerteAmTag(knex, datum) });
  });
  router.post('/gesetzeswerte', write, async (req, res) => {
    res.status(201).json({ success: true, data: await service.create(actorOf(req, res), parseInput(NeuerGesetzeswert, req.body)) });
  });
  router.put('/gesetzeswerte/:id', write, async (req, res) => {
    const row = id(req.params.id);
    res.json({ success: true, data: await service.correct(actorOf(req, res), row, parseInput(Korrektur, req.body)) });
  });
  router.delete('/gesetzeswerte/:id', write, async (req, res) => {
    await service.remove(actorOf(req, res), id(req.params.id));
    res.json({ success: true });
  });
  return router;
}
