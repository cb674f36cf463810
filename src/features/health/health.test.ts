// When the database does not answer: /healthz says so with 503, and pages and the API answer 503 with a
// translated "try again shortly" that shows no internals (no stack trace, no SQL). The faults of a real server
// (cut connections, terminated sessions, interrupted writes) are tested in src/reliability/faults.test.ts.
import type { Request, Response } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn } from '../../testing/session.js';
import { healthCheck } from './routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close().catch(() => {}));

describe('/healthz', () => {
  it('asks the database once for the checks that arrive in one turn, and answers each', async () => {
    const check = healthCheck(t.db);
    const answered: [number, unknown][] = [];
    const res = () => {
      const r = { code: 0, status: (code: number) => ((r.code = code), r), json: (body: unknown) => answered.push([r.code, body]) };
      return r as unknown as Response;
    };
    let statements = 0;
    const count = () => statements++;
    t.db.knex.on('query', count);
    try {
      // As five requests the server took up in one turn of its event loop.
      await Promise.all(Array.from({ length: 5 }, () => check({} as Request, res(), () => {})));
      expect(statements).toBe(1);
      expect(answered).toEqual(Array(5).fill([200, { status: 'ok', db: t.db.kind }]));
      // A check of a later turn asks again.
      await check({} as Request, res(), () => {});
      expect(statements).toBe(2);
    } finally {
      t.db.knex.off('query', count);
    }
    expect((await request(t.app).get('/healthz')).body).toEqual({ status: 'ok', db: t.db.kind });
  });
});

describe('without a database', () => {
  it('answers /healthz, pages and the API with 503', async () => {
    expect((await request(t.app).get('/healthz')).status).toBe(200);
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    await t.db.knex.destroy();

    const health = await request(t.app).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'unavailable', db: t.db.kind });

    // A signed-in page needs its session from the database.
    const page = await agent.get('/de/benutzer/dashboard');
    expect(page.status).toBe(503);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('Der Server ist gerade nicht erreichbar. Bitte versuchen Sie es in Kürze erneut.');
    expect(page.text).not.toMatch(/\n\s+at |select |knex|pglite|node_modules/i);

    const api = await request(t.app).post('/api/v1/account/login').send({ login: 'USER', password: 'User12345' });
    expect(api.status).toBe(503);
    expect(api.headers['retry-after']).toBe('5');
    expect(api.body).toEqual({ success: false, message: 'Der Server ist gerade nicht erreichbar. Bitte versuchen Sie es in Kürze erneut.', code: 'UNAVAILABLE', errors: [] });
  });
});
