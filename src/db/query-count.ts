// Database round trips per request, for the benchmark (BENCH_COUNT_QUERIES=1, see bench/README.md). Off by
// default, and then nothing of it is installed: no listener on knex, no middleware, no route.
// Each request runs in its own AsyncLocalStorage context; knex's 'query' event (one per statement sent,
// BEGIN and COMMIT included) counts into the context it was issued from. Counts are kept per label: the
// X-Bench-Label request header, else method and path.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Router, type RequestHandler } from 'express';
import type { Knex } from 'knex';

export interface QueryCounts {
  requests: number;
  queries: number;
  min: number;
  max: number;
}

export const QUERY_COUNTS_PATH = '/__bench/queries';

export function countQueries(knex: Knex): RequestHandler[] {
  const context = new AsyncLocalStorage<{ n: number }>();
  const totals = new Map<string, QueryCounts>();
  knex.on('query', () => {
    const current = context.getStore();
    if (current) current.n++;
  });

  const count: RequestHandler = (req, res, next) => {
    if (req.path === QUERY_COUNTS_PATH) return next();
    const label = req.get('x-bench-label') ?? `${req.method} ${req.path}`;
    const current = { n: 0 };
    res.once('finish', () => {
      const t = totals.get(label) ?? { requests: 0, queries: 0, min: Infinity, max: 0 };
      totals.set(label, { requests: t.requests + 1, queries: t.queries + current.n, min: Math.min(t.min, current.n), max: Math.max(t.max, current.n) });
    });
    context.run(current, next);
  };

  // Reading the counts resets them, so each benchmark step sees only its own requests.
  const report = Router();
  report.get(QUERY_COUNTS_PATH, (_req, res) => {
    const body = Object.fromEntries(totals);
    totals.clear();
    res.setHeader('Cache-Control', 'no-store');
    res.json(body);
  });
  return [count, report];
}
