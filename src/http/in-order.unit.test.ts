// inOrder (src/http/in-order.ts): handlers run one after another as one layer, and leave it as Express's layers
// would: to the next layer when all passed the request on, with the error when one failed, not at all when one
// answered.
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { inOrder } from './in-order.js';

/** An app with `sequence` as one layer, a route after it that answers with what the handlers noted, and an error handler. */
function appWith(sequence: RequestHandler) {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.seen = [];
    next();
  });
  app.use(sequence);
  app.get('/', (_req, res) => res.json({ seen: res.locals.seen }));
  app.use(((err, _req, res, _next) => res.status(500).json({ error: String(err?.message ?? err), seen: res.locals.seen })) as express.ErrorRequestHandler);
  return app;
}

const noting = (name: string): RequestHandler => (_req, res, next) => {
  res.locals.seen.push(name);
  next();
};

describe('inOrder', () => {
  it('runs every handler in order, synchronous or not, then the next layer', async () => {
    const later: RequestHandler = (_req, res, next) => {
      setImmediate(() => {
        res.locals.seen.push('later');
        next();
      });
    };
    const res = await request(appWith(inOrder(noting('a'), later, noting('b')))).get('/');
    expect(res.body).toEqual({ seen: ['a', 'later', 'b'] });
  });

  it('stops at a handler that answers', async () => {
    const answer: RequestHandler = (_req, res) => {
      res.status(204).end();
    };
    const res = await request(appWith(inOrder(noting('a'), answer, noting('never')))).get('/');
    expect(res.status).toBe(204);
  });

  it('hands an error passed to next, thrown or rejected to the error handlers, skipping the handlers after it', async () => {
    const failures: RequestHandler[] = [
      (_req, _res, next) => next(new Error('passed')),
      () => {
        throw new Error('thrown');
      },
      async () => {
        await Promise.resolve();
        throw new Error('rejected');
      },
    ];
    for (const [failure, message] of failures.map((f, i) => [f, ['passed', 'thrown', 'rejected'][i]] as const)) {
      const res = await request(appWith(inOrder(noting('a'), failure, noting('never')))).get('/');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: message, seen: ['a'] });
    }
  });

  it("treats next('route') as no error, as Express does for middleware, and leaves the router on next('router')", async () => {
    const route: RequestHandler = (_req, _res, next) => next('route');
    expect((await request(appWith(inOrder(noting('a'), route, noting('b')))).get('/')).body).toEqual({ seen: ['a', 'b'] });

    const inner = express.Router();
    inner.use(inOrder(noting('a'), (_req, _res, next) => next('router'), noting('never')));
    inner.get('/', (_req, res) => res.json({ inner: true }));
    const app = appWith(inner);
    expect((await request(app).get('/')).body).toEqual({ seen: ['a'] });
  });

  it('is the handler itself when there is only one', () => {
    const only = noting('only');
    expect(inOrder(only)).toBe(only);
  });
});
