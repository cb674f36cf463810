// When the database does not answer: /healthz says so with 503, and pages and the API answer 503 with a
// translated "try again shortly" that shows no internals (no stack trace, no SQL). The faults of a real server
// (cut connections, terminated sessions, interrupted writes) are tested in src/reliability/faults.test.ts.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn } from '../../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close().catch(() => {}));

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
