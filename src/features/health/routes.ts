import type { RequestHandler } from 'express';
import { ping, type Database } from '../../db/knex.js';
import { OneTurn } from '../../db/one-turn.js';

/**
 * GET /healthz: whether the database answers (200 or 503), for load balancers and monitoring. The checks that
 * arrive in one turn of the event loop share one `select 1`, sent after each of them arrived
 * (src/db/one-turn.ts): a monitor polling often, or several at once, costs the database one statement a turn.
 */
export function healthCheck(db: Database): RequestHandler {
  const pings = new OneTurn<null, boolean>(async (checks) => {
    const ok = await ping(db.knex);
    return checks.map(() => ok);
  });
  return async (_req, res) => {
    const ok = await pings.read(null);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', db: db.kind });
  };
}
