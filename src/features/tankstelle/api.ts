// JSON API of the Tankstelle (the contract with its island: /work/wt/tankstelle-vertrag.md, kept in
// docs/decisions.md "Tankstelle views"):
//   GET /api/tankstelle?standortNr=S                         tanks with their traffic lights, the 10 latest deliveries
//   GET /api/tankstelle/zapfsaeulen?standortNr=S             outbound deliveries of the last 30 days by product
//   GET /api/tankstelle/lieferkette?standortNr=S&produktNr=P where the tank's bio content comes from
//   GET|PUT /api/tankstelle/einstellungen                    the tenant's thresholds {reichweiteTage, verbrauchTage}
// Viewing needs right 13 or 14 (area tankstelle-bestand), changing the thresholds 14; rows are limited to the
// user's locations, and a location that is not theirs is a 404 like one that does not exist.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { requireApiPermission } from '../../http/api.js';
import { HttpError } from '../../http/errors.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { parseEinstellungen } from './schema.js';
import { z } from 'zod';
import { documentApis } from '../api-docs/registry.js';
import { EinstellungenSchema } from './schema.js';

// The views' answers are not yet described field by field (null: see api-docs.test.ts); the settings are.
const standort = z.object({ standortNr: z.string().max(32).optional() });
const Einstellungen = z.object({ reichweiteTage: z.number().int(), verbrauchTage: z.number().int() });
documentApis([
  { method: 'get', path: '/tankstelle', tag: 'tankstelle', summary: 'tankstelle.tanks', query: standort, ok: { 200: null } },
  { method: 'get', path: '/tankstelle/zapfsaeulen', tag: 'tankstelle', summary: 'tankstelle.pumps', query: standort, ok: { 200: null } },
  { method: 'get', path: '/tankstelle/lieferkette', tag: 'tankstelle', summary: 'tankstelle.chain', query: standort.extend({ produktNr: z.string().max(32).optional() }), ok: { 200: null } },
  { method: 'get', path: '/tankstelle/einstellungen', tag: 'tankstelle', summary: 'tankstelle.settingsRead', ok: { 200: Einstellungen.strict() } },
  { method: 'put', path: '/tankstelle/einstellungen', tag: 'tankstelle', summary: 'tankstelle.settingsWrite', body: EinstellungenSchema, ok: { 200: Einstellungen.extend({ success: z.literal(true) }).strict() } },
]);
import * as service from './service.js';

export const AREA = 'tankstelle-bestand';

/** A query parameter that names a number (location, product): one value of sensible length, or none. */
export function nrParam(raw: unknown, field: string): string | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > 32) throw new HttpError(404, 'NOT_FOUND', field === 'produktNr' ? 'tankstelle:errors.tankUnbekannt' : 'tankstelle:errors.standortUnbekannt');
  return raw;
}

export const darstellungApi = (req: Request): service.Darstellung => ({ lang: req.language === 'en' ? 'en' : 'de', t: req.t as service.Darstellung['t'] });

export function tankstelleApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const view = requireApiPermission(AREA, 'view');
  const edit = requireApiPermission(AREA, 'edit');
  const scope = (res: Response, action: 'view' | 'edit' = 'view') => tenantScope(knex, res, AREA, action);
  const heute = () => heuteInDeutschland(new Date(clock.now()));

  router.get('/tankstelle', view, async (req, res) => {
    res.json(await service.tankUebersicht(scope(res), nrParam(req.query.standortNr, 'standortNr'), heute(), darstellungApi(req)));
  });

  router.get('/tankstelle/zapfsaeulen', view, async (req, res) => {
    res.json(await service.zapfsaeulen(scope(res), nrParam(req.query.standortNr, 'standortNr'), heute(), darstellungApi(req)));
  });

  router.get('/tankstelle/lieferkette', view, async (req, res) => {
    res.json(await service.lieferkette(scope(res), nrParam(req.query.standortNr, 'standortNr'), nrParam(req.query.produktNr, 'produktNr'), heute(), darstellungApi(req)));
  });

  router.get('/tankstelle/einstellungen', view, async (_req, res) => {
    res.json(await service.einstellungenLesen(scope(res)));
  });

  router.put('/tankstelle/einstellungen', edit, async (req, res) => {
    const neu = await service.einstellungenAendern(scope(res, 'edit'), actorOf(req, res), parseEinstellungen(req.body));
    res.json({ success: true, ...neu });
  });

  return router;
}
