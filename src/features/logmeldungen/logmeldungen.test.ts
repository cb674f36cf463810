import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn, type Agent } from '../../testing/session.js';
import { diffEntries } from './diff.js';

let t: TestApp;
let supportToken: string;
let support: Agent;
const ids: Record<string, number> = {};

const api = (path: string, token = supportToken) => request(t.app).get(path).set({ Authorization: token, 'X-Mandant': 'DEMO' });
const apiToken = async (login: string, password: string) =>
  (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;

async function insertEntry(row: Record<string, unknown>): Promise<number> {
  const [{ id }] = await t.db.knex('audit_log').insert(row).returning('id');
  return Number(id);
}

beforeAll(async () => {
  t = await createTestApp();
  // Failed logins caused the way an attacker or a forgetful user causes them.
  for (const login of ['SUPPORT', 'niemand-xyz']) {
    const res = await request(t.app).post('/api/v1/account/login').send({ login, password: 'falsch-falsch' });
    expect(res.status).toBe(401);
  }
  const benutzer = await t.db.knex('benutzer').where({ login: 'TADMIN' }).first('id');
  // Entries of the other tenant (SUPPORT is no member of NORD) and entries at known times for the date filter.
  ids.nord = await insertEntry({ kind: 'admin.benutzer.update', mandant: 'NORD', benutzer_id: benutzer.id, entity: 'benutzer', entity_id: 'geheim-nord', ip: '10.9.9.9' });
  ids.demoChange = await insertEntry({
    kind: 'admin.benutzer.update', mandant: 'DEMO', benutzer_id: benutzer.id, entity: 'benutzer', entity_id: '42', ip: '10.0.0.7',
    before: JSON.stringify({ status: 'active', email: 'alt@demo.example', password_hash: '$argon2id$alt', adminKz: false, rollen: [1, 3], settings: { theme: 'light', itemsPerPage: 10 } }),
    after: JSON.stringify({ status: 'inactive', email: 'alt@demo.example', password_hash: '$argon2id$neu', adminKz: true, rollen: [1, 3, 5], settings: { theme: 'dark', itemsPerPage: 10 }, vorname: 'Neu' }),
  });
  // 10 March 2020, 11:00 in Berlin, and 11 March 23:30 UTC = 12 March 00:30 in Berlin (the user's time zone).
  ids.march10 = await insertEntry({ kind: 'test.zeit', at: '2020-03-10T10:00:00Z' });
  ids.march12Berlin = await insertEntry({ kind: 'test.zeit', at: '2020-03-11T23:30:00Z' });
  for (let i = 0; i < 25; i++) {
    await insertEntry({ kind: 'test.paging', mandant: 'DEMO', entity: 'seite', entity_id: String(i + 1), at: new Date(Date.UTC(2021, 0, 1, 0, i)).toISOString() });
  }
  supportToken = await apiToken('SUPPORT', 'Support12345');
  support = await signIn(t.app, 'SUPPORT', 'Support12345');
});
afterAll(() => t.close());

describe('the audit log page for support', () => {
  it('lists the failed logins caused in this test, newest first, and reaches the page from the sidebar', async () => {
    const page = await support.get('/de/reports/logmeldungen');
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/de/reports/logmeldungen"');
    expect(page.text).toContain('<h1>Logmeldungen</h1>');
    expect(page.text).toContain('Anmeldung fehlgeschlagen');
    expect(page.text).toContain('NIEMAND-XYZ (Anmeldeversuch)');
    // Newest first: the sign-in of this test's SUPPORT session comes before the failed attempts of beforeAll.
    expect(page.text.indexOf('>Anmeldung</span>')).toBeLessThan(page.text.indexOf('NIEMAND-XYZ (Anmeldeversuch)'));
    expect(page.text).not.toContain('geheim-nord');
    expect(page.text).toMatch(/<select id="log-mandant"[^>]*>[\s\S]*<option value="DEMO"[^>]*>DEMO – Demo Energiehandel GmbH<\/option>[\s\S]*<option value="-"/);
    expect(page.text).not.toContain('<option value="NORD"');
  });

  it('shows known kinds translated and unknown kinds as they are, in German and English', async () => {
    const de = await support.get('/de/reports/logmeldungen');
    expect(de.text).toMatch(/<option value="auth.login.failed"\s*>Anmeldung fehlgeschlagen<\/option>/);
    expect(de.text).toMatch(/<option value="test.paging"\s*>test.paging<\/option>/);
    const en = await support.get('/en/reports/logmeldungen');
    expect(en.text).toMatch(/<option value="auth.login.failed"\s*>Sign-in failed<\/option>/);
    expect(en.text).toContain('NIEMAND-XYZ (sign-in attempt)');
  });

  it('filters by kind and keeps the filter in the URL of every page link', async () => {
    const page = await support.get('/de/reports/logmeldungen?kind=auth.login.failed');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<option value="auth.login.failed"\s+selected>/);
    expect(page.text).toContain('Zeige 1 bis 2 von 2 Ergebnissen');
    expect(page.text).not.toContain('>Anmeldung</span>');
    const detailLinks = [...page.text.matchAll(/href="(\/de\/reports\/logmeldungen\/\d+[^"]*)"/g)].map((m) => m[1]);
    expect(detailLinks).toHaveLength(2);
    detailLinks.forEach((href) => expect(href).toContain('?kind=auth.login.failed'));
  });

  it('filters by day in the user time zone, both ends included', async () => {
    const page = await support.get('/de/reports/logmeldungen?from=2020-03-12&to=2020-03-12');
    expect(page.text).toContain('Zeige 1 bis 1 von 1 Ergebnissen');
    expect(page.text).toContain('12.03.2020\u00a000:30');
    const both = await support.get('/de/reports/logmeldungen?from=2020-03-10&to=2020-03-12&kind=test.zeit');
    expect(both.text).toContain('Zeige 1 bis 2 von 2 Ergebnissen');
    expect(both.text).toContain('10.03.2020\u00a011:00');
  });

  it('pages with the user items per page, keeps the page in the URL and shows the last page for a page beyond it', async () => {
    const second = await support.get('/de/reports/logmeldungen?kind=test.paging&page=2');
    expect(second.text).toContain('Zeige 11 bis 20 von 25 Ergebnissen');
    expect(second.text).toContain('href="/de/reports/logmeldungen?kind=test.paging&amp;page=3"');
    expect(second.text).toContain('href="/de/reports/logmeldungen?kind=test.paging"'); // page 1 needs no parameter
    expect(second.text).toContain('>seite 15</td>');
    expect(second.text).not.toContain('>seite 16</td>');
    const beyond = await support.get('/de/reports/logmeldungen?kind=test.paging&page=99');
    expect(beyond.status).toBe(200);
    expect(beyond.text).toContain('Zeige 21 bis 25 von 25 Ergebnissen');

    const user = await t.db.knex('benutzer').where({ login: 'SUPPORT' }).first('id');
    await t.db.knex('einstellungen').insert({ benutzer_id: user.id, typ: 1, data: JSON.stringify({ itemsPerPage: 25 }) });
    try {
      const all = await support.get('/de/reports/logmeldungen?kind=test.paging');
      expect(all.text).toContain('Zeige 1 bis 25 von 25 Ergebnissen');
      expect((await api('/api/logmeldungen?kind=test.paging')).body.pageSize).toBe(25);
    } finally {
      await t.db.knex('einstellungen').where({ benutzer_id: user.id, typ: 1 }).delete();
    }
  });

  it('filters by user (login or the login that was tried) and by tenant, "without tenant" included', async () => {
    const attempt = await support.get('/de/reports/logmeldungen?benutzer=niemand');
    expect(attempt.text).toContain('Zeige 1 bis 1 von 1 Ergebnissen');
    // The user's own % is a character, not a wildcard.
    expect((await support.get('/de/reports/logmeldungen?benutzer=%25')).text).toContain('Für diese Filter gibt es keine Logmeldungen.');
    const none = await api('/api/logmeldungen?mandant=-&pageSize=500');
    expect(none.body.data.length).toBeGreaterThan(0);
    none.body.data.forEach((e: { mandant: string | null }) => expect(e.mandant).toBeNull());
    const demo = await api('/api/logmeldungen?mandant=demo&pageSize=500');
    // 26 written here, and the demo's two imports (src/seeds/nachrichten.ts).
    expect(demo.body.total).toBe(28);
    demo.body.data.forEach((e: { mandant: string | null }) => expect(e.mandant).toBe('DEMO'));
  });

  it('never shows or counts another tenant entry', async () => {
    const all = await api('/api/logmeldungen?pageSize=500');
    const visible = await t.db.knex('audit_log').whereNull('mandant').orWhere('mandant', 'DEMO').count({ n: '*' }).first();
    expect(all.body.total).toBe(Number(visible!.n));
    expect(all.body.data.map((e: { id: number }) => e.id)).not.toContain(ids.nord);
    expect((await support.get(`/de/reports/logmeldungen/${ids.nord}`)).status).toBe(404);
    expect((await api(`/api/logmeldungen/${ids.nord}`)).status).toBe(404);
  });

  it('shows an entry with its before/after as field changes, secrets hidden, and a way back to the list', async () => {
    const page = await support.get(`/de/reports/logmeldungen/${ids.demoChange}?kind=admin.benutzer.update&page=1`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1>Logmeldung ${ids.demoChange}</h1>`);
    expect(page.text).toMatch(/<th scope="row" class="">status<\/th>\s*<td\s+class="">active<\/td>\s*<td\s+class="">inactive<\/td>\s*<td\s+class="">\s*<span class="badge badge-info">Geändert<\/span>/);
    expect(page.text).toMatch(/<th scope="row" class="">vorname<\/th>\s*<td\s+class="">\(leer\)<\/td>\s*<td\s+class="">Neu<\/td>\s*<td\s+class="">\s*<span class="badge badge-success">Hinzugefügt/);
    expect(page.text).toMatch(/<th scope="row" class="">settings.theme<\/th>\s*<td\s+class="">light<\/td>\s*<td\s+class="">dark<\/td>/);
    expect(page.text).toMatch(/<th scope="row" class="">adminKz<\/th>\s*<td\s+class="">nein<\/td>\s*<td\s+class="">ja<\/td>/);
    expect(page.text).toMatch(/<th scope="row" class="">rollen<\/th>\s*<td\s+class="">1, 3<\/td>\s*<td\s+class="">1, 3, 5<\/td>/);
    expect(page.text).toContain('<dd>Benutzer 42</dd>');
    expect(page.text).toMatch(/<th scope="row" class="">password_hash<\/th>\s*<td\s+class="">\(verborgen\)<\/td>/);
    expect(page.text).not.toContain('argon2id');
    expect(page.text).toContain('Unveränderte Felder (2)');
    expect(page.text).toContain('href="/de/reports/logmeldungen?kind=admin.benutzer.update"');
    expect((await support.get('/de/reports/logmeldungen/99999999')).status).toBe(404);
    expect((await support.get('/de/reports/logmeldungen/abc')).status).toBe(404);
  });

  it('answers invalid filter values with field errors above an empty list, never the unfiltered list, never a 500', async () => {
    const bad = await support.get(`/de/reports/logmeldungen?from=2026-02-30&to=gestern&mandant=NORD&kind=%3Cscript%3E&benutzer=${'x'.repeat(150)}&page=-3`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Bitte überprüfen Sie Ihre Eingabe');
    expect(bad.text).toContain('Bitte geben Sie ein gültiges Datum ein.');
    expect(bad.text).toContain('Bitte wählen Sie einen Ihrer Mandanten aus der Liste.');
    expect(bad.text).toContain('Bitte wählen Sie ein Ereignis aus der Liste.');
    expect(bad.text).toContain('Bitte geben Sie höchstens 100 Zeichen ein.');
    expect(bad.text).not.toContain('<script>');
    // No rows: a list without the refused filters would look like the filtered one.
    expect(bad.text).not.toContain('Zeige 1 bis');
    expect(bad.text).not.toMatch(/href="\/de\/reports\/logmeldungen\/\d+/);
    expect(bad.text).toContain('Die Liste wird angezeigt, sobald alle Angaben gültig sind.');
    const reversed = await support.get('/de/reports/logmeldungen?from=2020-03-12&to=2020-03-10');
    expect(reversed.status).toBe(400);
    expect(reversed.text).toContain('Das Bis-Datum darf nicht vor dem Von-Datum liegen.');
    for (const q of ['from[]=1', 'kind=a&kind=b', 'page=1e3', 'benutzer=%00', 'mandant=%25']) {
      expect((await support.get(`/de/reports/logmeldungen?${q}`)).status).toBeLessThan(500);
    }
  });
});

describe('GET /api/logmeldungen', () => {
  it('answers in the contract list shape, newest first, page size defaulting to the user items per page', async () => {
    const res = await api('/api/logmeldungen');
    expect(res.status).toBe(200);
    expect(res.headers['x-mandant']).toBe('DEMO');
    expect(Object.keys(res.body).sort()).toEqual(['data', 'page', 'pageSize', 'total']);
    expect(res.body).toMatchObject({ page: 1, pageSize: 10 });
    expect(res.body.data).toHaveLength(10);
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number), at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), mandant: null,
      benutzerId: expect.any(Number), benutzer: 'SUPPORT', apiKey: null, kind: 'auth.login', entity: null, entityId: null, before: null, after: null,
      ip: expect.any(String),
    });
    const times = res.body.data.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by kind and time, pages, sorts and refuses a page size above 500', async () => {
    const failed = await api('/api/logmeldungen?kind=auth.login.failed');
    expect(failed.body.total).toBe(2);
    expect(failed.body.data.map((e: { entityId: string }) => e.entityId).sort()).toEqual(['NIEMAND-XYZ', 'SUPPORT']);
    expect(failed.body.data.every((e: { benutzer: null; mandant: null }) => e.benutzer === null && e.mandant === null)).toBe(true);

    const day = await api('/api/logmeldungen?from=2020-03-12&to=2020-03-12');
    expect(day.body.data.map((e: { id: number }) => e.id)).toEqual([ids.march12Berlin]);
    const until = await api('/api/logmeldungen?to=2020-03-11');
    expect(until.body.data.map((e: { id: number }) => e.id)).toEqual([ids.march10]);

    const third = await api('/api/logmeldungen?kind=test.paging&page=3&pageSize=10');
    expect(third.body).toMatchObject({ total: 25, page: 3, pageSize: 10 });
    expect(third.body.data.map((e: { entityId: string }) => e.entityId)).toEqual(['5', '4', '3', '2', '1']);
    const oldest = await api('/api/logmeldungen?kind=test.paging&pageSize=2&sort=at:asc');
    expect(oldest.body.data.map((e: { entityId: string }) => e.entityId)).toEqual(['1', '2']);
    const beyond = await api('/api/logmeldungen?kind=test.paging&page=9');
    expect(beyond.body).toMatchObject({ data: [], total: 25, page: 9 });
    expect((await api('/api/logmeldungen?pageSize=500')).body.pageSize).toBe(500);
    // Above the contract's cap is capped, not refused.
    const tooMany = await api('/api/logmeldungen?pageSize=100000');
    expect(tooMany.status).toBe(200);
    expect(tooMany.body.pageSize).toBe(500);
  });

  it('returns one entry with its field changes, secrets redacted', async () => {
    const res = await api(`/api/logmeldungen/${ids.demoChange}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ids.demoChange, kind: 'admin.benutzer.update', mandant: 'DEMO', benutzer: 'TADMIN' });
    expect(res.body.data.before.password_hash).toBe('[redacted]');
    expect(res.body.data.changes).toContainEqual({ path: 'status', before: 'active', after: 'inactive', change: 'changed', hidden: false });
    expect(JSON.stringify(res.body)).not.toContain('argon2id');
    expect((await api('/api/logmeldungen/12abc')).status).toBe(400);
    expect((await api('/api/logmeldungen/99999999')).status).toBe(404);
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=-5', 'pageSize'],
    ['from=2026-02-30', 'from'],
    ['to=21.11.2026', 'to'],
    ['from=2026-11-21&to=2026-11-20', 'to'],
    ['kind=%3Cscript%3E', 'kind'],
    ['kind=a&kind=b', 'kind'],
    [`benutzer=${'x'.repeat(101)}`, 'benutzer'],
    ['benutzer=a%00b', 'benutzer'],
    ['mandant=NORD', 'mandant'],
    ['mandant=DEMO%27--', 'mandant'],
    ['sort=id:desc', 'sort'],
    ['foo=1', 'foo'],
  ])('answers %s with 400 naming the field %s', async (query, field) => {
    const res = await api(`/api/logmeldungen?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

describe('who may read the audit log', () => {
  it.each([
    ['ADMIN', 'Admin12345', 'DEMO'],
    ['TADMIN', 'Tadmin12345', undefined],
    ['USER', 'User12345', 'DEMO'],
  ])('%s is sent to the dashboard by the page and refused by the API', async (login, password, mandant) => {
    const agent = await signIn(t.app, login, password, mandant);
    for (const path of ['/de/reports/logmeldungen', `/de/reports/logmeldungen/${ids.demoChange}`]) {
      const res = await agent.get(path);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/de/benutzer/dashboard');
    }
    expect((await agent.get('/de/benutzer/dashboard')).text).not.toContain('href="/de/reports/logmeldungen"');
    const token = await apiToken(login, password);
    for (const path of ['/api/logmeldungen', `/api/logmeldungen/${ids.demoChange}`]) {
      const res = await api(path, token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    }
  });

  it('sends anonymous visitors to the login page and answers the API with 401', async () => {
    expect((await request(t.app).get('/de/reports/logmeldungen')).headers.location).toBe('/de/login?redirect=%2Fde%2Freports%2Flogmeldungen');
    expect((await request(t.app).get('/api/logmeldungen').set('X-Mandant', 'DEMO')).status).toBe(401);
  });

  it('needs X-Mandant like every API call', async () => {
    const res = await request(t.app).get('/api/logmeldungen').set({ Authorization: supportToken });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Mandant');
  });
});

describe('diffEntries', () => {
  it('flattens nested objects, keeps arrays whole, sorts by path and treats a missing side as added or removed', () => {
    expect(diffEntries({ a: 1, n: { x: [1, 2] } }, { a: 1, n: { x: [1, 3] }, b: null })).toEqual([
      { path: 'a', before: 1, after: 1, change: 'unchanged', hidden: false },
      { path: 'b', before: undefined, after: null, change: 'added', hidden: false },
      { path: 'n.x', before: [1, 2], after: [1, 3], change: 'changed', hidden: false },
    ]);
    expect(diffEntries(null, { status: 'active' })).toEqual([{ path: 'status', before: undefined, after: 'active', change: 'added', hidden: false }]);
    expect(diffEntries({ status: 'active' }, null)).toEqual([{ path: 'status', before: 'active', after: undefined, change: 'removed', hidden: false }]);
    expect(diffEntries('alt', 'neu')).toEqual([{ path: '', before: 'alt', after: 'neu', change: 'changed', hidden: false }]);
    expect(diffEntries(null, null)).toEqual([]);
  });

  it('says that a secret changed without showing it', () => {
    expect(diffEntries({ mfa_secret: 'A', passwordChangedAt: '2026-01-01' }, { mfa_secret: 'B', passwordChangedAt: '2026-02-01' })).toEqual([
      { path: 'mfa_secret', before: undefined, after: undefined, change: 'changed', hidden: true },
      { path: 'passwordChangedAt', before: '2026-01-01', after: '2026-02-01', change: 'changed', hidden: false },
    ]);
  });
});
