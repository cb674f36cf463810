import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const token = async (login: string, password: string) =>
  (await request(t.app).post('/api/v1/account/login').send({ login, password })).body as { token: string; mandanten: { mandant: string }[] };

describe('tenant management', () => {
  it('is for the system administrator only', async () => {
    const tadmin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    expect((await tadmin.get('/de/benutzer/mandanten')).headers.location).toBe('/de/benutzer/dashboard');
    const { token: tt } = await token('TADMIN', 'Tadmin12345');
    const api = await request(t.app).get('/api/mandanten').set({ Authorization: tt, 'X-Mandant': 'DEMO' });
    expect(api.status).toBe(403);
    const create = await request(t.app).post('/api/mandanten').set({ Authorization: tt, 'X-Mandant': 'DEMO' }).send({ mandant: 'HACK', name: 'x' });
    expect(create.status).toBe(403);
    expect(await t.db.knex('mandanten').where({ mandant: 'HACK' }).first()).toBeUndefined();
  });

  it('creates a tenant through the form, refusing a taken id, and shows it with its users', async () => {
    const admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const form = await admin.get('/de/benutzer/mandanten/neu');
    const taken = await admin.post('/de/benutzer/mandanten').type('form').send({ _csrf: csrfFrom(form.text), mandant: 'nord', name: 'Doppelt' });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('Diese Mandanten-ID ist bereits vergeben.');
    const bad = await admin.post('/de/benutzer/mandanten').type('form').send({ _csrf: csrfFrom(taken.text), mandant: 'S Ü D', name: '', email: 'kaputt' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-name-error"/);
    expect(bad.text).toMatch(/id="f-email-error"/);
    const ok = await admin.post('/de/benutzer/mandanten').type('form').send({
      _csrf: csrfFrom(bad.text), mandant: 'sued', name: 'Süd Kraftstoffe KG', stadt: 'München', zertifizierungsnummer: 'EU-ISCC-Cert-DE100-30003',
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('/de/benutzer/mandanten/SUED');
    const page = await admin.get('/de/benutzer/mandanten/SUED');
    expect(page.text).toContain('Süd Kraftstoffe KG');
    expect(page.text).toContain('ADMIN'); // the creator is a member
    const list = await admin.get('/de/benutzer/mandanten');
    expect(list.text).toContain('SUED');
    const entry = await t.db.knex('audit_log').where({ kind: 'admin.mandant.create', entity_id: 'SUED' }).first();
    expect(entry).toBeTruthy();
  });

  it('edits a tenant over the API with field errors for bad input', async () => {
    const { token: at } = await token('ADMIN', 'Admin12345');
    const auth = { Authorization: at, 'X-Mandant': 'DEMO' };
    const bad = await request(t.app).put('/api/mandanten/NORD').set(auth).send({ name: '', email: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'name']);
    const ok = await request(t.app).put('/api/mandanten/nord').set(auth).send({ name: 'Nordsee Mineralöl AG', stadt: 'Emden' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ mandant: 'NORD', stadt: 'Emden' });
    expect((await request(t.app).get('/api/mandanten/GIBTSNICHT').set(auth)).status).toBe(404);
    const users = await request(t.app).get('/api/mandanten/NORD/benutzer').set(auth);
    expect(users.body.data.map((u: { login: string }) => u.login)).toEqual(['ADMIN', 'USER']);
  });

  it('an inactive tenant can no longer be chosen, and the current one cannot be deactivated', async () => {
    const { token: at } = await token('ADMIN', 'Admin12345');
    const auth = { Authorization: at, 'X-Mandant': 'DEMO' };
    const self = await request(t.app).patch('/api/mandanten/DEMO/status').set(auth).send({ status: 'inactive' });
    expect(self.status).toBe(409);
    const userAgent = await signIn(t.app, 'USER', 'User12345', 'NORD');
    expect((await request(t.app).patch('/api/mandanten/NORD/status').set(auth).send({ status: 'inactive' })).status).toBe(200);
    try {
      const login = await token('USER', 'User12345');
      expect(login.mandanten.map((m) => m.mandant)).toEqual(['DEMO']);
      // The open session in NORD loses its tenant and goes back to the selection, which now chooses DEMO.
      const next = await userAgent.get('/de/benutzer/dashboard');
      expect(next.headers.location).toMatch(/^\/de\/mandant-selection/);
      const nord = await request(t.app).get('/api/v1/einstellungen/1').set({ Authorization: login.token, 'X-Mandant': 'NORD' });
      expect(nord.status).toBe(403);
    } finally {
      await request(t.app).patch('/api/mandanten/NORD/status').set(auth).send({ status: 'active' });
    }
  });
});
