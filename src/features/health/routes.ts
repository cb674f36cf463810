import { Router } from 'express';
import { ping, type Database } from '../../db/knex.js';

export function healthRoutes(db: Database): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    const ok = await ping(db.knex);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', db: db.kind });
  });
  return router;
}
