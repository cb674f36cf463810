// When the database does not answer: /healthz says so with 503, and pages fail with a generic error that shows
// no internals (no stack trace, no SQL).
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
  it('answers /healthz with 503, and pages and the API with a generic error', async () => {
    expect((await request(t.app).get('/healthz')).status).toBe(200);
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    await t.db.knex.destroy();

    const health = await request(t.app).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'unavailable', db: t.db.kind });

    // A signed-in page needs its session from the database.
    const page = await agent.get('/de/benutzer/dashboard');
    expect(page.status).toBeGreaterThanOrEqual(500);
    expect(page.text).toContain('Ein unerwarteter Fehler ist aufgetreten');
    expect(page.text).not.toMatch(/\n\s+at |select |knex|pglite|node_modules/i);

    const api = await request(t.app).post('/api/v1/account/login').send({ login: 'USER', password: 'User12345' });
    expect(api.status).toBeGreaterThanOrEqual(500);
    expect(api.body).toEqual({ success: false, message: 'Ein unerwarteter Fehler ist aufgetreten', code: 'INTERNAL', errors: [] });
  });
});
