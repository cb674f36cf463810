// /api/thg-anzeige: the public display's figures, and its publication for the tenant's administrators.
// - GET /api/thg-anzeige/{token} (public): no sign-in, no X-Mandant, no session: mounted in app.ts before the
//   session is loaded, so the answer depends on the link alone and may be kept by any cache for a minute. The
//   contract's shape, at the top level: {mandant, heute, monat, jahr, aequivalente:[{einheit, anzahl, quelle}]},
//   plus stand (the day), berechnetAm and each equivalent's factor. Unknown and revoked links: the same 404.
// - GET|POST|DELETE /api/thg-anzeige (tenant administrators, X-Mandant): the tenant's publication; POST publishes
//   the display or replaces its link by a new one (201), DELETE revokes it.
import { Router, type Request } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { requireApiPermission } from '../../http/api.js';
import { actorOf } from '../../http/tenant.js';
import { ThgAnzeigeService, type Veroeffentlichung } from './service.js';
import { z } from 'zod';
import { documentApis, Envelope } from '../api-docs/registry.js';

const Publikation = Envelope(z.object({
  veroeffentlicht: z.boolean(), seit: z.string().nullable(), token: z.string().nullable(), pfad: z.string().nullable(), vollbildPfad: z.string().nullable(), api: z.string().nullable(),
}).strict());
const Anzeige = z.object({
  mandant: z.string(), heute: z.string().describe('t CO2eq, a decimal'), monat: z.string(), jahr: z.string(), stand: z.string(), berechnetAm: z.string(),
  aequivalente: z.array(z.object({ einheit: z.string(), anzahl: z.number(), quelle: z.string(), kgCo2e: z.string() }).strict()),
}).strict();
documentApis([
  { method: 'get', path: '/thg-anzeige/:token', tag: 'thg-anzeige', summary: 'thgAnzeige.public', public: true, ok: { 200: Anzeige } },
  { method: 'get', path: '/thg-anzeige', tag: 'thg-anzeige', summary: 'thgAnzeige.read', ok: { 200: Publikation } },
  { method: 'post', path: '/thg-anzeige', tag: 'thg-anzeige', summary: 'thgAnzeige.publish', ok: { 201: Publikation } },
  { method: 'delete', path: '/thg-anzeige', tag: 'thg-anzeige', summary: 'thgAnzeige.revoke', ok: { 200: Publikation } },
]);

/** A minute: the figures change with deliveries, not by the second; a wall of displays costs one computation a minute. */
export const CACHE_CONTROL = 'public, max-age=60';

/** The publication as the API gives it: the link's paths below the request's language. */
export function publikation(v: Veroeffentlichung, lang: string) {
  return {
    veroeffentlicht: v.token != null,
    seit: v.seit,
    token: v.token,
    pfad: v.token ? `/${lang}/thg-anzeige/${v.token}` : null,
    vollbildPfad: v.token ? `/${lang}/thg-anzeige/${v.token}?vollbild=1` : null,
    api: v.token ? `/api/thg-anzeige/${v.token}` : null,
  };
}

export function thgAnzeigeOeffentlichApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const service = new ThgAnzeigeService(knex, clock);
  router.get('/thg-anzeige/:token', async (req, res) => {
    const a = await service.oeffentlich(String(req.params.token));
    res.set('Cache-Control', CACHE_CONTROL);
    res.json({
      mandant: a.mandant, heute: a.heute, monat: a.monat, jahr: a.jahr, stand: a.stand, berechnetAm: a.berechnetAm,
      aequivalente: a.aequivalente.map(({ einheit, anzahl, quelle, kgCo2e }) => ({ einheit, anzahl, quelle, kgCo2e })),
    });
  });
  return router;
}

export function thgAnzeigeApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const service = new ThgAnzeigeService(knex, clock);
  const admin = requireApiPermission('admin');
  const lang = (req: Request) => (req.language === 'en' ? 'en' : 'de');

  router.get('/thg-anzeige', admin, async (req, res) => {
    res.json({ success: true, data: publikation(await service.stand(actorOf(req, res)), lang(req)) });
  });
  router.post('/thg-anzeige', admin, async (req, res) => {
    res.status(201).json({ success: true, data: publikation(await service.neuerLink(actorOf(req, res)), lang(req)) });
  });
  router.delete('/thg-anzeige', admin, async (req, res) => {
    res.json({ success: true, data: publikation(await service.widerrufen(actorOf(req, res)), lang(req)) });
  });
  return router;
}
