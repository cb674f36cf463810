import type { RequestHandler } from 'express';
import { ping, type Database } from '../../db/knex.js';

/** GET /healthz: whether the database answers (200 or 503), for load balancers and monitoring. */
export function healthCheck(db: Database): RequestHandler {
  return async (_req, res) => {
    const ok = await ping(db.knex);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', db: db.kind });
  };
}
