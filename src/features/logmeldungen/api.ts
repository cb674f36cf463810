// GET /api/logmeldungen (list, the contract's list shape) and GET /api/logmeldungen/{id} (one entry with its
// field changes). Support only; mounted below requireApiUser() and requireTenant() in app.ts.
import { Router } from 'express';
import type { Knex } from 'knex';
import { requireApiPermission } from '../../http/api.js';
import { badRequest, notFound } from '../../http/errors.js';
import { parseOr400 } from '../../http/validate.js';
import { LogId, LogListQuery } from './schema.js';
import { getLogmeldung, listLogmeldungen, mandantAllowed, viewerOf } from './service.js';

export function logmeldungenApi(knex: Knex): Router {
  const router = Router();

  router.get('/logmeldungen', requireApiPermission('support'), async (req, res) => {
    const query = parseOr400(LogListQuery, req.query);
    const viewer = viewerOf(req.user!);
    if (!mandantAllowed(viewer, query.mandant)) {
      throw badRequest('errors.badRequest', [{ field: 'mandant', message: 'logmeldungen:errors.mandant' }]);
    }
    const { page, pageSize, sort, ...filter } = query;
    res.json(await listLogmeldungen(knex, viewer, filter, { page, pageSize, dir: sort === 'at:asc' ? 'asc' : 'desc' }));
  });

  router.get('/logmeldungen/:id', requireApiPermission('support'), async (req, res) => {
    const id = parseOr400(LogId, req.params.id, 'logmeldungen:errors.id');
    const entry = await getLogmeldung(knex, viewerOf(req.user!), id);
    if (!entry) throw notFound('logmeldungen:errors.notFound');
    res.json({ data: entry });
  });

  return router;
}
