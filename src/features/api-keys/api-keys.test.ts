// API keys, idempotent POSTs and bulk writes (issue 19 points 3–5) through HTTP against the seeded database:
// a key's lifecycle (create, use, revoke → 401 at once), its scope and locations decided by can() as for a
// person, its tenant alone whatever X-Mandant says, audit entries naming it, its rate limit and last use; the
// admin page; Idempotency-Key (a retry after a cut connection creates one record; another body is a 422); bulk
// creation all or nothing with errors by index and field; and the bad input of each, never a 500.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTenant } from '../../db/rls.js';
import { DEMO_API_KEY } from '../../seeds/api-keys.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
let n = 0;

const login = async (l: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login: l, password })).body.token as string;
const as = async (l: string, password: string, mandant = 'DEMO') => ({ Authorization: await login(l, password), 'X-Mandant': mandant });
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
const einlieferung = (over: Record<string, unknown> = {}) => ({
  nr: `AK-${++n}`, entladedatum: daysAgo(2), entladeneMenge: '1000', unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016', ...over,
});
const countOf = async (table: string, where: Record<string, unknown>) => Number((await t.db.knex(table).where(where).count({ c: '*' }))[0].c);
const einlieferungen = (nrs: string[]) => t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).whereIn('nr', nrs).count({ c: '*' }).then((r) => Number(r[0].c));

let tadmin: Record<string, string>;

/** A new key of DEMO made by TADMIN through the API: its id and secret. */
async function newKey(body: Record<string, unknown>, auth = tadmin): Promise<{ id: number; key: string }> {
  const res = await request(t.app).post('/api/api-keys').set(auth).send({ name: `Schlüssel ${++n}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function asTenant<T>(mandant: string, fn: (trx: import('knex').Knex.Transaction) => Promise<T>): Promise<T> {
  return t.db.knex.transaction(async (trx) => {
    await setTenant(trx, mandant);
    return fn(trx);
  });
}

beforeAll(async () => {
  t = await createTestApp();
  tadmin = await as('TADMIN', 'Tadmin12345');
});
afterAll(() => t.close());

describe('a key through its life', () => {
  it('is created once (201 with the key), listed without its secret, used without X-Mandant, and revoked: 401 at once', async () => {
    const res = await request(t.app).post('/api/api-keys').set(tadmin).send({ name: 'ERP Hamburg', rollen: [9, 10, 13, 14] });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toContain('no-store');
    const { id, name, key } = res.body.data;
    expect(name).toBe('ERP Hamburg');
    expect(key).toMatch(/^npk_DEMO_[A-Za-z0-9_-]{43}$/);

    const stored = await asTenant('DEMO', (trx) => trx('api_keys').where({ id }).first());
    expect(JSON.stringify(stored)).not.toContain(key.slice(9));
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);

    const list = await request(t.app).get('/api/api-keys').set(tadmin);
    expect(list.status).toBe(200);
    const item = list.body.data.find((k: { id: number }) => k.id === id);
    expect(item).toMatchObject({ name: 'ERP Hamburg', rollen: [9, 10, 13, 14], standorte: null, status: 'aktiv', zuletztBenutztAm: null, erstelltVon: 'TADMIN' });
    expect(item.praefix).toBe(key.slice(0, 15));
    expect(JSON.stringify(list.body)).not.toContain(key.slice(15));

    const used = await request(t.app).get('/api/einlieferungen?pageSize=5').set(bearer(key));
    expect(used.status).toBe(200);
    expect(used.headers['x-mandant']).toBe('DEMO');
    expect(used.body.total).toBeGreaterThan(0);
    const afterUse = (await request(t.app).get('/api/api-keys').set(tadmin)).body.data.find((k: { id: number }) => k.id === id);
    expect(afterUse.zuletztBenutztAm).not.toBeNull();

    const revoked = await request(t.app).delete(`/api/api-keys/${id}`).set(tadmin);
    expect(revoked.status).toBe(200);
    const refused = await request(t.app).get('/api/einlieferungen').set(bearer(key));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, code: 'API_KEY_INVALID' });
    expect(refused.body.message).toMatch(/^Ungültiger API-Schlüssel/);
    expect((await request(t.app).get('/api/api-keys').set(tadmin)).body.data.find((k: { id: number }) => k.id === id).status).toBe('widerrufen');
    // Revoking again changes nothing; an unknown or malformed id is a 404.
    expect((await request(t.app).delete(`/api/api-keys/${id}`).set(tadmin)).status).toBe(200);
    expect((await request(t.app).delete('/api/api-keys/999999').set(tadmin)).status).toBe(404);
    expect((await request(t.app).delete('/api/api-keys/abc').set(tadmin)).status).toBe(404);

    const audits = await t.db.knex('audit_log').where({ entity: 'api-key', entity_id: String(id) }).orderBy('id').select('kind', 'mandant', 'after');
    expect(audits.map((a) => a.kind)).toEqual(['admin.api_key.create', 'admin.api_key.revoke']);
    expect(JSON.stringify(audits)).not.toContain(key.slice(15));
  });

  it('audits every write by a key with the key\'s name, and records it as written by the key\'s creator', async () => {
    const { key } = await newKey({ name: 'Tankautomat Test', rollen: [10] });
    const body = einlieferung();
    const res = await request(t.app).post('/api/einlieferungen').set(bearer(key)).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const entry = await t.db.knex('audit_log').where({ mandant: 'DEMO', entity: 'einlieferungen', entity_id: body.nr }).first('kind', 'api_key_name', 'api_key_id', 'benutzer_id');
    expect(entry).toMatchObject({ kind: 'bewegungsdaten.einlieferungen.create', api_key_name: 'Tankautomat Test' });
    const tadminId = (await t.db.knex('benutzer').where({ login: 'TADMIN' }).first('id')).id;
    expect(entry.benutzer_id).toBe(tadminId);
    // The record's history names the key and its creator.
    const history = await request(t.app).get(`/api/einlieferungen/${body.nr}/versionen`).set(tadmin);
    expect(history.body.data[0]).toMatchObject({ benutzer: 'TADMIN', apiKey: 'Tankautomat Test', autor: 'API-Schlüssel „Tankautomat Test“ (TADMIN)' });
    const englisch = await request(t.app).get(`/api/einlieferungen/${body.nr}/versionen`).set({ ...tadmin, 'Accept-Language': 'en' });
    expect(englisch.body.data[0].autor).toBe('API key “Tankautomat Test” (TADMIN)');
    // Support reads the key in the audit log.
    const log = await request(t.app).get('/api/logmeldungen?pageSize=20&mandant=DEMO').set(await as('SUPPORT', 'Support12345'));
    expect(log.status).toBe(200);
    expect(log.body.data).toContainEqual(expect.objectContaining({ kind: 'bewegungsdaten.einlieferungen.create', entityId: body.nr, benutzer: 'TADMIN', apiKey: 'Tankautomat Test' }));
    // A person's write names no key.
    const other = einlieferung();
    await request(t.app).post('/api/einlieferungen').set(tadmin).send(other);
    expect(await t.db.knex('audit_log').where({ entity_id: other.nr }).first('api_key_name')).toEqual({ api_key_name: null });
    expect((await request(t.app).get(`/api/einlieferungen/${other.nr}/versionen`).set(tadmin)).body.data[0]).toMatchObject({ apiKey: null, autor: 'TADMIN' });
  });

  it('works as the seeded demo key of the tank system at 1007', async () => {
    const res = await request(t.app).get('/api/bestaende?pageSize=50').set(bearer(DEMO_API_KEY));
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(new Set(res.body.data.map((b: { standortNr: string }) => b.standortNr))).toEqual(new Set(['1007']));
  });
});

describe('scope and locations: can() decides as for a person', () => {
  it('refuses writing an Ablieferung to a key without role type 12 (403), and allows it with 12', async () => {
    const { key } = await newKey({ rollen: [9, 10, 11, 13, 14] });
    const body = { nr: `AK-A-${++n}`, lieferdatum: daysAgo(1), menge: '1000', uomMenge: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016' };
    const res = await request(t.app).post('/api/ablieferungen').set(bearer(key)).send(body);
    expect(res.status).toBe(403);
    expect(await countOf('ablieferungen', { mandant: 'DEMO', nr: body.nr })).toBe(0);
    expect((await request(t.app).get('/api/ablieferungen?pageSize=1').set(bearer(key))).status).toBe(200);
    const { key: writer } = await newKey({ rollen: [12] });
    expect((await request(t.app).post('/api/ablieferungen').set(bearer(writer)).send(body)).status).toBe(201);
  });

  it('holds a key to its locations', async () => {
    const { key } = await newKey({ rollen: [9, 10], standorte: ['1007'] });
    const outside = await request(t.app).post('/api/einlieferungen').set(bearer(key)).send(einlieferung({ standortNr: '1001' }));
    expect(outside.status).toBe(400);
    expect(outside.body.errors.map((e: { field: string }) => e.field)).toContain('standortNr');
    expect((await request(t.app).post('/api/einlieferungen').set(bearer(key)).send(einlieferung({ standortNr: '1007' }))).status).toBe(201);
    const list = await request(t.app).get('/api/einlieferungen?pageSize=100').set(bearer(key));
    expect(new Set(list.body.data.map((e: { standortNr: string }) => e.standortNr))).toEqual(new Set(['1007']));
  });

  it('is never an administrator and never a person: key management, users and account calls are refused', async () => {
    const { key } = await newKey({ rollen: Array.from({ length: 25 }, (_, i) => i + 1) });
    expect((await request(t.app).get('/api/api-keys').set(bearer(key))).status).toBe(403);
    expect((await request(t.app).post('/api/api-keys').set(bearer(key)).send({ name: 'x', rollen: [9] })).status).toBe(403);
    expect((await request(t.app).get('/api/benutzer').set(bearer(key))).status).toBe(403);
    const account = await request(t.app).get('/api/v1/account/session').set(bearer(key));
    expect(account.status).toBe(403);
    expect(account.body.code).toBe('API_KEY_NOT_ALLOWED');
    expect((await request(t.app).put('/api/v1/einstellungen').set(bearer(key)).send({ typ: 1, data: '{}' })).status).toBe(403);
    expect((await request(t.app).get('/api/nachrichten').set(bearer(key))).status).toBe(403);
  });

  it('lets only administrators manage keys', async () => {
    const user = await as('USER', 'User12345');
    const res = await request(t.app).get('/api/api-keys').set(user);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Nur Administratoren verwalten API-Schlüssel.');
    expect((await request(t.app).post('/api/api-keys').set(user).send({ name: 'x', rollen: [9] })).status).toBe(403);
  });
});

describe('a key of one tenant', () => {
  it('never reads NORD, whatever X-Mandant says', async () => {
    const { key } = await newKey({ rollen: [1, 9, 11, 13] });
    for (const path of ['/api/einlieferungen', '/api/produkte', '/api/bestaende']) {
      const res = await request(t.app).get(path).set({ ...bearer(key), 'X-Mandant': 'NORD' });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('MANDANT_FORBIDDEN');
      expect(JSON.stringify(res.body)).not.toMatch(/NORD-|"data"/);
    }
    const own = await request(t.app).get('/api/einlieferungen?pageSize=500').set({ ...bearer(key), 'X-Mandant': 'demo' });
    expect(own.status).toBe(200);
    const nordNrs = new Set((await t.db.knex('einlieferungen').where({ mandant: 'NORD' }).select('nr')).map((r) => r.nr));
    const demoNrs = new Set((await t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).select('nr')).map((r) => r.nr));
    expect(own.body.data.every((e: { nr: string }) => demoNrs.has(e.nr) && !(nordNrs.has(e.nr) && !demoNrs.has(e.nr)))).toBe(true);
    // Its tenant swapped in the key itself: unknown there (the hash names the whole key).
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key.replace('npk_DEMO_', 'npk_NORD_')))).status).toBe(401);
  });

  it("another tenant's key id is unknown to DEMO's administrators (404) and stays live", async () => {
    const admin = await as('ADMIN', 'Admin12345', 'NORD');
    const nord = await newKey({ rollen: [9] }, admin);
    expect((await request(t.app).delete(`/api/api-keys/${nord.id}`).set(tadmin)).status).toBe(404);
    expect((await request(t.app).get('/api/api-keys').set(tadmin)).body.data.some((k: { id: number }) => k.id === nord.id)).toBe(false);
    const used = await request(t.app).get('/api/einlieferungen?pageSize=1').set(bearer(nord.key));
    expect(used.status).toBe(200);
    expect(used.headers['x-mandant']).toBe('NORD');
  });
});

describe('bad keys and bad input: clear answers, nothing written, never a 500', () => {
  it('refuses malformed keys with 401 in German or English', async () => {
    for (const bad of ['npk_', 'npk_DEMO_zu-kurz', `npk_demo_${'a'.repeat(43)}`, `npk_DEMO_${'a'.repeat(43)}`, `npk_DEMO_${'a'.repeat(44)}`, 'npk_DEMO_ä']) {
      const res = await request(t.app).get('/api/einlieferungen').set(bearer(bad));
      expect(res.status, bad).toBe(401);
      expect(res.body.code).toBe('API_KEY_INVALID');
    }
    const en = await request(t.app).get('/api/einlieferungen').set({ ...bearer('npk_x'), 'Accept-Language': 'en' });
    expect(en.status).toBe(401);
    expect(en.body.message).toMatch(/^Invalid API key/);
  });

  it("stops a key whose creator is deactivated, no longer an administrator or left the tenant, and a key of a deactivated tenant", async () => {
    const { id, key } = await newKey({ rollen: [9] });
    const creator = await createUserWithRoles(t.db.knex, `AKCREATOR${++n}`, 'Creator12345', []);
    await t.db.knex('benutzer_mandanten').where({ benutzer_id: creator }).update({ admin_kz: true });
    await asTenant('DEMO', (trx) => trx('api_keys').where({ id }).update({ erstellt_von: creator }));
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key))).status).toBe(200);
    // No longer an administrator of the tenant: the key stops; an administrator again: it works again.
    await t.db.knex('benutzer_mandanten').where({ benutzer_id: creator }).update({ admin_kz: false });
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key))).status).toBe(401);
    await t.db.knex('benutzer_mandanten').where({ benutzer_id: creator }).update({ admin_kz: true });
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key))).status).toBe(200);
    await t.db.knex('benutzer').where({ id: creator }).update({ status: 'inactive' });
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key))).status).toBe(401);
    await t.db.knex('benutzer').where({ id: creator }).update({ status: 'active' });
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key))).status).toBe(200);
    await t.db.knex('benutzer_mandanten').where({ benutzer_id: creator }).delete();
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key))).status).toBe(401);

    const admin = await as('ADMIN', 'Admin12345', 'NORD');
    const nord = await newKey({ rollen: [9] }, admin);
    await t.db.knex('mandanten').where({ mandant: 'NORD' }).update({ status: 'inactive' });
    try {
      expect((await request(t.app).get('/api/einlieferungen').set(bearer(nord.key))).status).toBe(401);
    } finally {
      await t.db.knex('mandanten').where({ mandant: 'NORD' }).update({ status: 'active' });
    }
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(nord.key))).status).toBe(200);
  });

  it('refuses a scope outside the role types, an empty scope, unknown locations and a missing name (400, nothing stored)', async () => {
    const before = await asTenant('DEMO', (trx) => trx('api_keys').count({ c: '*' }).then((r) => Number(r[0].c)));
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'a', rollen: [9, 26] }, 'rollen.1', 'Unbekannter Rollentyp: erlaubt sind die Rollentypen 1 bis 25.'],
      [{ name: 'a', rollen: [0] }, 'rollen.0', 'Unbekannter Rollentyp: erlaubt sind die Rollentypen 1 bis 25.'],
      [{ name: 'a', rollen: ['admin'] }, 'rollen.0', 'Unbekannter Rollentyp: erlaubt sind die Rollentypen 1 bis 25.'],
      [{ name: 'a', rollen: [] }, 'rollen', 'Bitte wählen Sie mindestens einen Rollentyp.'],
      [{ name: 'a' }, 'rollen', 'Bitte wählen Sie mindestens einen Rollentyp.'],
      [{ name: '  ', rollen: [9] }, 'name', 'Bitte geben Sie einen Namen ein.'],
      [{ name: 'x'.repeat(101), rollen: [9] }, 'name', 'Der Name darf höchstens 100 Zeichen lang sein.'],
      [{ name: 'a', rollen: [9], standorte: ['1001', 'GIBTS-NICHT'] }, 'standorte', 'Unbekannter Standort: GIBTS-NICHT.'],
      [{ name: 'a', rollen: [9], standorte: 'kaputt' }, 'standorte', 'Unbekannter Standort: kaputt.'],
      [{ name: 'Tankautomat Spandau', rollen: [9] }, 'name', 'Ein aktiver Schlüssel dieses Namens existiert bereits.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await request(t.app).post('/api/api-keys').set(tadmin).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors, JSON.stringify(body)).toContainEqual({ field, message });
    }
    const en = await request(t.app).post('/api/api-keys').set({ ...tadmin, 'Accept-Language': 'en' }).send({ name: 'a', rollen: [99] });
    expect(en.body.errors).toContainEqual({ field: 'rollen.0', message: 'Unknown role type: role types 1 to 25 are allowed.' });
    expect(await asTenant('DEMO', (trx) => trx('api_keys').count({ c: '*' }).then((r) => Number(r[0].c)))).toBe(before);
  });

  it('limits each key on its own: 429 with Retry-After and the contract shape', async () => {
    const { id, key } = await newKey({ rollen: [9] });
    const { key: other } = await newKey({ rollen: [9] });
    await t.db.knex('rate_limits').insert({ key: `api-key:${id}`, points: 600, expires_at: new Date(Date.now() + 30_000) });
    const res = await request(t.app).get('/api/einlieferungen').set(bearer(key));
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ success: false, code: 'RATE_LIMITED', message: 'Zu viele Anfragen mit diesem API-Schlüssel. Bitte versuchen Sie es später erneut.' });
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(other))).status).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry with the first answer and writes once; another body with the same key is a 422', async () => {
    const { key } = await newKey({ rollen: [10] });
    const body = einlieferung();
    const first = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'lieferung-1' }).send(body);
    expect(first.status).toBe(201);
    const again = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'lieferung-1' }).send({ ...body });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await einlieferungen([body.nr])).toBe(1);
    expect(await countOf('audit_log', { entity: 'einlieferungen', entity_id: body.nr })).toBe(1);

    const other = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'lieferung-1' }).send({ ...body, nr: `AK-${++n}` });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: 'Dieser Idempotency-Key wurde bereits für eine andere Anfrage verwendet. Nichts wurde gespeichert.' });
    expect(await einlieferungen([`AK-${n}`])).toBe(0);
    // Keys are per caller: a person may use the same key for their own request.
    const mine = einlieferung();
    expect((await request(t.app).post('/api/einlieferungen').set({ ...tadmin, 'Idempotency-Key': 'lieferung-1' }).send(mine)).status).toBe(201);
  });

  it('creates one record when a retry follows a cut connection', async () => {
    const { key } = await newKey({ rollen: [10] });
    const body = einlieferung();
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const payload = JSON.stringify(body);
      // The client sends the request and drops the connection before any answer arrives.
      await new Promise<void>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/einlieferungen', headers: { ...bearer(key), 'Idempotency-Key': 'cut-1', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } });
        req.on('error', () => resolve());
        req.end(payload, () => setTimeout(() => { req.destroy(); resolve(); }, 5));
      });
      // The retry: answered from the first request (or told it still runs), never a second record.
      let retry: request.Response | undefined;
      for (let i = 0; i < 50; i++) {
        retry = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'cut-1' }).send(body);
        if (retry.status !== 409) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(retry!.status, JSON.stringify(retry!.body)).toBe(201);
      expect(retry!.body.data.nr).toBe(body.nr);
      expect(await einlieferungen([body.nr])).toBe(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('lets one of two concurrent requests with the same key write', async () => {
    const { key } = await newKey({ rollen: [10] });
    const body = einlieferung();
    const send = () => request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'parallel-1' }).send(body);
    const answers = await Promise.all([send(), send(), send()]);
    for (const a of answers) expect([201, 409]).toContain(a.status);
    const nrs = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.nr));
    expect(nrs.size).toBe(1);
    expect(await countOf('audit_log', { entity: 'einlieferungen', entity_id: [...nrs][0] as string })).toBe(1);
  });

  it('refuses malformed keys and keeps no answer of a failed request', async () => {
    const { key } = await newKey({ rollen: [10] });
    for (const bad of ['', 'mit leerzeichen', 'x'.repeat(256), 'ümlaut']) {
      const res = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': bad }).send(einlieferung());
      expect(res.status, bad).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'Ungültiger Idempotency-Key: 1 bis 255 druckbare Zeichen ohne Leerzeichen.' }]);
    }
    // A refused body is answered the same again (the answer is kept), and a GET ignores the header.
    const bad = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'bad-1' }).send({ nr: 'x' });
    expect(bad.status).toBe(400);
    const again = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'bad-1' }).send({ nr: 'x' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(bad.body);
    expect((await request(t.app).get('/api/einlieferungen?pageSize=1').set({ ...bearer(key), 'Idempotency-Key': 'bad-1' })).status).toBe(200);
  });

  it('never keeps a new key\'s secret for a replay', async () => {
    const auth = { ...tadmin, 'Idempotency-Key': 'neuer-schluessel-1' };
    const first = await request(t.app).post('/api/api-keys').set(auth).send({ name: 'Idempotent', rollen: [9] });
    expect(first.status).toBe(201);
    const again = await request(t.app).post('/api/api-keys').set(auth).send({ name: 'Idempotent', rollen: [9] });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ data: { id: first.body.data.id, name: 'Idempotent', key: null } });
    const kept = await t.db.knex('idempotency_keys').where({ schluessel: 'neuer-schluessel-1' }).first('antwort');
    expect(JSON.stringify(kept)).not.toContain(first.body.data.key.slice(9));
    expect((await request(t.app).get('/api/api-keys').set(tadmin)).body.data.filter((k: { name: string }) => k.name === 'Idempotent')).toHaveLength(1);
  });

  it('forgets answers after 24 hours', async () => {
    const { id, key } = await newKey({ rollen: [10] });
    const body = einlieferung();
    expect((await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'alt-1' }).send(body)).status).toBe(201);
    await asTenant('DEMO', (trx) => trx('idempotency_keys').where({ aufrufer: `k${id}`, schluessel: 'alt-1' }).update({ erstellt_am: new Date(Date.now() - 25 * 3_600_000) }));
    // The same request again is now new: the number is taken, so it is refused by the record's own check.
    const later = await request(t.app).post('/api/einlieferungen').set({ ...bearer(key), 'Idempotency-Key': 'alt-1' }).send(body);
    expect(later.status).toBe(400);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('bulk endpoints', () => {
  it('creates all records with one audit entry each, naming the key', async () => {
    const { key } = await newKey({ name: 'ERP Bulk', rollen: [10, 12, 14] });
    const data = [einlieferung(), einlieferung({ entladeneMenge: '2500,5' }), einlieferung({ unitOfMeasure: 'kg' })];
    const res = await request(t.app).post('/api/einlieferungen/bulk').set(bearer(key)).send({ data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.total).toBe(3);
    expect(res.body.data.map((e: { nr: string }) => e.nr)).toEqual(data.map((d) => d.nr));
    expect(await einlieferungen(data.map((d) => d.nr))).toBe(3);
    const audits = await t.db.knex('audit_log').whereIn('entity_id', data.map((d) => d.nr)).select('api_key_name', 'kind');
    expect(audits).toHaveLength(3);
    expect(new Set(audits.map((a) => a.api_key_name))).toEqual(new Set(['ERP Bulk']));

    const bestaende = await request(t.app).post('/api/bestaende/bulk').set(bearer(key)).send({ data: [
      { datum: daysAgo(300), standortNr: '1002', produktNr: 'P002', volumen: '1000' },
      { datum: daysAgo(301), standortNr: '1002', produktNr: 'P002', volumen: '1100' },
    ] });
    expect(bestaende.status, JSON.stringify(bestaende.body)).toBe(201);
    const ab = await request(t.app).post('/api/ablieferungen/bulk').set(bearer(key)).send({ data: [
      { nr: `AK-A-${++n}`, lieferdatum: daysAgo(1), menge: '1000', uomMenge: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016' },
    ] });
    expect(ab.status, JSON.stringify(ab.body)).toBe(201);
  });

  it('reads a bulk body of up to 5 MB, where other requests are refused above 1 MB', async () => {
    const { key } = await newKey({ rollen: [10] });
    // 1.2 MB of JSON: read and saved in bulk; the same size to the single record's endpoint is refused unread.
    const data = [einlieferung({ bemerkung: 'x'.repeat(1_200_000) })];
    const bulk = await request(t.app).post('/api/einlieferungen/bulk').set(bearer(key)).send({ data });
    expect(bulk.status, JSON.stringify(bulk.body).slice(0, 300)).toBe(201);
    const single = einlieferung({ bemerkung: 'x'.repeat(1_200_000) });
    const refused = await request(t.app).post('/api/einlieferungen').set(bearer(key)).send(single);
    expect([refused.status, refused.body.code]).toEqual([413, 'TOO_LARGE']);
    const tooLarge = einlieferung({ bemerkung: 'x'.repeat(5_300_000) });
    const refusedBulk = await request(t.app).post('/api/einlieferungen/bulk').set(bearer(key)).send({ data: [tooLarge] });
    expect([refusedBulk.status, refusedBulk.body.code]).toEqual([413, 'TOO_LARGE']);
    expect(await einlieferungen([data[0].nr, single.nr, tooLarge.nr])).toBe(1);
  });

  it('writes nothing when one record is bad, and names each bad record by index and field', async () => {
    const { key } = await newKey({ rollen: [10] });
    const data = [einlieferung(), einlieferung({ entladeneMenge: 'viel' }), einlieferung(), einlieferung({ standortNr: 'GIBTS-NICHT', entladedatum: 'gestern' })];
    const before = await countOf('audit_log', { mandant: 'DEMO' });
    const res = await request(t.app).post('/api/einlieferungen/bulk').set(bearer(key)).send({ data });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BULK_INVALID', message: 'Nichts wurde gespeichert: 2 von 4 Datensätzen sind fehlerhaft.' });
    const fields = res.body.errors.map((e: { index: number; field: string }) => [e.index, e.field]);
    expect(fields).toContainEqual([1, '[1].entladeneMenge']);
    expect(fields).toContainEqual([3, '[3].entladedatum']);
    expect(res.body.errors.every((e: { index: number }) => e.index === 1 || e.index === 3)).toBe(true);
    expect(await einlieferungen(data.map((d) => d.nr))).toBe(0);
    expect(await countOf('audit_log', { mandant: 'DEMO' })).toBe(before);

    // A record that passes validation but fails the write path's own check (a number taken within the batch).
    const dup = einlieferung();
    const taken = await request(t.app).post('/api/einlieferungen/bulk').set(bearer(key)).send({ data: [dup, { ...dup }] });
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual([expect.objectContaining({ index: 1, field: '[1].nr' })]);
    expect(await einlieferungen([dup.nr])).toBe(0);
  });

  it('refuses more than 1,000 records (413), a body that is not {data:[…]} (400), and a key without the write right (403)', async () => {
    const { key } = await newKey({ rollen: [10] });
    const many = Array.from({ length: 1001 }, () => ({ entladedatum: daysAgo(2), entladeneMenge: '1', unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016' }));
    const big = await request(t.app).post('/api/einlieferungen/bulk').set(bearer(key)).send({ data: many });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'BULK_TOO_LARGE', message: 'Zu viele Datensätze: höchstens 1000 je Anfrage, gesendet wurden 1001.' });
    const en = await request(t.app).post('/api/einlieferungen/bulk').set({ ...bearer(key), 'Accept-Language': 'en' }).send({ data: many });
    expect(en.body.message).toBe('Too many records: at most 1000 per request, 1001 were sent.');
    for (const body of [{}, { data: [] }, { data: 'x' }, [einlieferung()], { data: [1, 2] }]) {
      const res = await request(t.app).post('/api/einlieferungen/bulk').set(bearer(key)).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const ab = await request(t.app).post('/api/ablieferungen/bulk').set(bearer(key)).send({ data: [{ nr: 'AK-X' }] });
    expect(ab.status).toBe(403);
  });
});

describe('the page under Administration', () => {
  it('lists the keys, creates one and shows it once, and revokes it after a confirmation naming it', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const page = await agent.get('/de/benutzer/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Tankautomat Spandau');
    expect(page.text).toContain('Altes ERP');
    expect(page.text).toMatch(/Widerrufen am/);
    expect(page.text).toContain('href="/de/benutzer/api-keys"');

    const refused = await agent.post('/de/benutzer/api-keys').type('form').send({ _csrf: csrfFrom(page.text), name: '', rollen: '99' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Bitte geben Sie einen Namen ein.');
    expect(refused.text).toContain('Unbekannter Rollentyp');

    const created = await agent.post('/de/benutzer/api-keys').type('form').send(`_csrf=${encodeURIComponent(csrfFrom(page.text))}&name=Formular-Schl%C3%BCssel&rollen=9&rollen=10&standorte=1007`);
    expect(created.status).toBe(201);
    expect(created.text).toContain('nur dieses eine Mal angezeigt');
    const key = created.text.match(/npk_DEMO_[A-Za-z0-9_-]{43}/)![0];
    const used = await request(t.app).get('/api/einlieferungen?pageSize=1').set(bearer(key));
    expect(used.status).toBe(200);

    const id = (await request(t.app).get('/api/api-keys').set(tadmin)).body.data.find((k: { name: string }) => k.name === 'Formular-Schlüssel').id;
    // Revoking asks first (the list's button posts); that post and cancelling (the link back) change nothing.
    const list = await agent.get('/de/benutzer/api-keys');
    expect(list.text).toContain(`action="/de/benutzer/api-keys/${id}/widerruf"`);
    const confirm = await agent.post(`/de/benutzer/api-keys/${id}/widerruf`).type('form').send({ _csrf: csrfFrom(list.text) });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('API-Schlüssel „Formular-Schlüssel“ widerrufen?');
    expect(confirm.text).toContain('funktioniert sofort nicht mehr');
    expect(confirm.text).toContain('name="bestaetigt" value="ja"');
    expect(confirm.text).toContain('<a class="btn btn-ghost" href="/de/benutzer/api-keys">');
    expect((await request(t.app).get('/api/einlieferungen?pageSize=1').set(bearer(key))).status).toBe(200);
    expect((await agent.get('/de/benutzer/api-keys')).status).toBe(200);
    expect((await request(t.app).get('/api/einlieferungen?pageSize=1').set(bearer(key))).status).toBe(200);
    const done = await agent.post(`/de/benutzer/api-keys/${id}/widerruf`).type('form').send({ _csrf: csrfFrom(confirm.text), bestaetigt: 'ja' });
    expect(done.status).toBe(302);
    expect((await request(t.app).get('/api/einlieferungen').set(bearer(key))).status).toBe(401);
    expect((await agent.get('/de/benutzer/api-keys')).text).toContain('Der API-Schlüssel wurde widerrufen.');
  });

  it('speaks English, and is closed to users who are not administrators', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO', 'en');
    const page = await agent.get('/en/benutzer/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain('New API key');
    const user = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const refused = await user.get('/de/benutzer/api-keys');
    expect(refused.status).toBe(302);
    const dashboard = await user.get('/de/benutzer/dashboard');
    expect((await user.post('/de/benutzer/api-keys/1/widerruf').type('form').send({ _csrf: csrfFrom(dashboard.text) })).status).toBe(302);
  });
});
