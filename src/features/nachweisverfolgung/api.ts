// GET /api/nachweisverfolgung: the deliveries to trace ({data,total,page,pageSize}, the list engine's API), and
// GET /api/nachweisverfolgung/{nr}?art=…: a delivery's trace (docs/decisions.md, "Nachweisverfolgung"). The
// read right of the area; 404 for a number the user's tenant and locations do not have; 409 for a number that
// exists as both kinds when no `art` is given.
import { Router } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { ProblemError } from '../../errors.js';
import { requireApiPermission } from '../../http/api.js';
import { tenantScope } from '../../http/tenant.js';
import { mountListApi } from '../../records/list/routes.js';
import { LIEFERSTATUS } from '../lieferungen/names.js';
import { verfolgungListe } from './list.js';
import { ARTEN } from './repo.js';
import { detailAnfrage } from './schema.js';
import { z } from 'zod';
import { documentApi } from '../api-docs/registry.js';

/** A row of GET /api/nachweisverfolgung (list.ts, toRow): decimals as exact strings. */
const VerfolgungZeile = z.object({
  art: z.enum(ARTEN), nr: z.string(), datum: z.string(), partnerNr: z.string(), partnerName: z.string(), standortNr: z.string(), standortName: z.string(),
  produktNr: z.string(), produktName: z.string(), produktgruppe: z.string(), menge: z.string(), mengeExakt: z.string(), einheit: z.string(),
  biogehalt: z.string().nullable(), status: z.enum(LIEFERSTATUS), storniert: z.boolean(),
}).strict();

// The trace is not yet described field by field (null: see api-docs.test.ts): it is a tree (trace.ts, Knoten with
// `kinder` of any node kind, cut only at MAX_TIEFE/MAX_KNOTEN), so its schema is recursive, and no form of a
// recursive schema passes all three readers of the description today: a named component that refers to itself
// is inlined one level only by the response check (src/testing/response-check.ts, resolveRefs), and `$defs`
// below a `$id` is refused by openapi-typescript.
documentApi({
  method: 'get', path: '/nachweisverfolgung/:nr', tag: 'nachweisverfolgung', summary: 'nachweisverfolgung.read',
  query: z.object({ art: z.enum(['einlieferung', 'ablieferung']).optional() }), ok: { 200: null }, errors: [409],
});
import { oeffne } from './service.js';
import { heuteInDeutschland } from './trace.js';

const AREA = 'nachweisverfolgung';

export function nachweisverfolgungApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  mountListApi(router, knex, verfolgungListe, 'nachweisverfolgung', AREA, { title: 'nachweisverfolgung:title', filename: 'nachweisverfolgung', row: VerfolgungZeile });
  router.get('/nachweisverfolgung/:nr', requireApiPermission(AREA, 'view'), async (req, res) => {
    const { art } = detailAnfrage(req.query as Record<string, unknown>, ['art']);
    const nr = req.params.nr as string;
    const geoeffnet = await oeffne(tenantScope(knex, res, AREA), nr, art, heuteInDeutschland(clock.now()));
    if (geoeffnet.typ === 'auswahl') {
      const params = { nr, arten: geoeffnet.arten.join(', ') };
      throw new ProblemError('conflict', 'ART_MEHRDEUTIG', 'nachweisverfolgung:errors.mehrdeutig', [{ field: 'art', message: 'nachweisverfolgung:errors.mehrdeutig', params }], params);
    }
    res.json({ data: geoeffnet.verfolgung });
  });
  return router;
}
