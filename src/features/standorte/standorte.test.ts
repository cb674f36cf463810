import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;

describe('Standorte', () => {
  it('creates, reads, updates as a new version with the differences, and lists with search, sort and CSV', async () => {
    const auth = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
    const created = await request(t.app).post('/api/standorte').set(auth).send({ nr: '1090', name: 'Tanklager Kiel', stadt: 'Kiel', plz: '24103', quota: true });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ nr: '1090', name: 'Tanklager Kiel', version: 1, status: 'aktiv', quota: true });
    const updated = await request(t.app).put('/api/standorte/1090').set(auth).send({ name: 'Tanklager Kiel-Nord', stadt: 'Kiel', plz: '24103', quota: true, version: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body.data.version).toBe(2);
    const stale = await request(t.app).put('/api/standorte/1090').set(auth).send({ name: 'Alter Stand', quota: false, version: 1 });
    expect(stale.status).toBe(409);
    const versions = await request(t.app).get('/api/standorte/1090/versionen').set(auth);
    expect(versions.body.data[0]).toMatchObject({ version: 2, benutzer: 'TADMIN', changes: [{ field: 'name', before: 'Tanklager Kiel', after: 'Tanklager Kiel-Nord' }] });

    const list = await request(t.app).get('/api/standorte?q=kiel&sort=name:desc').set(auth);
    expect(list.body).toMatchObject({ total: 1, page: 1, data: [{ nr: '1090' }] });
    const bad = await request(t.app).get('/api/standorte?sort=passwort:asc').set(auth);
    expect(bad.status).toBe(400);

    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/standorte?sort=nr:desc');
    expect(page.text).toContain('Tanklager Kiel-Nord');
    expect(page.text).toContain('Zeige 1 bis 10 von 13 Ergebnissen');
    const csv = await agent.get('/de/stammdaten/standorte?q=kiel&format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text.split('\r\n').length).toBeGreaterThanOrEqual(2);
    expect(csv.text).toContain('1090;Tanklager Kiel-Nord;24103;Kiel');
  });

  it('names the demo data as the author of the versions the seeds wrote, on the page in both languages and in the API', async () => {
    for (const table of ['standorte', 'produkte', 'tauschpartner', 'einlieferungen', 'ablieferungen', 'bestaende', 'abholungen', 'nachweise', 'nachweisbescheinigungen']) {
      const unnamed = await t.db.knex(`${table}_versionen`).whereNull('benutzer_id').whereNull('quelle').count({ n: '*' }).first();
      expect(Number(unnamed?.n), table).toBe(0);
    }
    const auth = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
    const standort = (await request(t.app).get('/api/standorte/1002/versionen').set(auth)).body.data;
    expect(standort).toEqual([expect.objectContaining({ version: 1, benutzer: null, quelle: 'demo', autor: 'Demo-Daten' })]);
    const english = (await request(t.app).get('/api/einlieferungen/EL-000001/versionen').set(auth).set('Accept-Language', 'en')).body.data;
    // EL-000001 was also linked to its collection by the demo data (version 2): every version is the demo data's.
    expect(english.at(-1)).toEqual(expect.objectContaining({ version: 1, benutzer: null, quelle: 'demo', autor: 'Demo data' }));
    for (const v of english) expect(v).toEqual(expect.objectContaining({ benutzer: null, quelle: 'demo', autor: 'Demo data' }));

    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    expect((await agent.get('/de/stammdaten/standorte/1002?tab=versionen')).text).toMatch(/Version 1<\/strong> · [^<]+ · Demo-Daten<\/p>/);
    expect((await agent.get('/en/bewegungsdaten/einlieferungen/EL-000001?tab=versionen')).text).toMatch(/Version 1<\/strong> · [^<]+ · Demo data<\/p>/);
    // A user's version names the user.
    expect((await request(t.app).put('/api/standorte/1002').set(auth).send({ name: 'Umbenannt', version: 1 })).status).toBe(200);
    const after = (await request(t.app).get('/api/standorte/1002/versionen').set(auth)).body.data;
    expect(after.map((v: { autor: string; quelle: string | null }) => [v.autor, v.quelle])).toEqual([['TADMIN', null], ['Demo-Daten', 'demo']]);
  });

  it('validates each field by name and changes nothing', async () => {
    const auth = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
    const res = await request(t.app).post('/api/standorte').set(auth).send({ nr: 'a b', name: '', plz: 'x'.repeat(30) });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'nr', 'plz']);
    const dup = await request(t.app).post('/api/standorte').set(auth).send({ nr: '1001', name: 'Doppelt' });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual([{ field: 'nr', message: 'Diese Nummer ist bereits vergeben.' }]);
  });

  it('refuses to delete a location that is referred to, and deletes one that is not', async () => {
    const auth = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
    const inUse = await request(t.app).delete('/api/standorte/1001').set(auth);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe('Der Datensatz wird noch verwendet und kann nicht gelöscht werden. Deaktivieren Sie ihn stattdessen.');
    await request(t.app).post('/api/standorte').set(auth).send({ nr: 'TMP', name: 'Vorübergehend' });
    expect((await request(t.app).delete('/api/standorte/TMP').set(auth)).status).toBe(200);
    expect((await request(t.app).get('/api/standorte/TMP').set(auth)).status).toBe(404);
  });

  it('gives another tenant\'s location as 404 and changes nothing', async () => {
    const auth = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
    expect((await request(t.app).get('/api/standorte/2001').set(auth)).status).toBe(404);
    expect((await request(t.app).put('/api/standorte/2001').set(auth).send({ name: 'Gekapert' })).status).toBe(404);
    expect((await t.db.knex('standorte').where({ mandant: 'NORD', nr: '2001' }).first('name')).name).toBe('Tanklager Wilhelmshaven');
  });

  it('shows a user limited to one location only that location; read-only users get 403 on writes', async () => {
    const auth = { Authorization: await token('LESER', 'Leser12345'), 'X-Mandant': 'DEMO' };
    const list = await request(t.app).get('/api/standorte').set(auth);
    expect(list.body.data.map((s: { nr: string }) => s.nr)).toEqual(['1001']);
    expect((await request(t.app).get('/api/standorte/1002').set(auth)).status).toBe(404);
    expect((await request(t.app).put('/api/standorte/1001').set(auth).send({ name: 'x' })).status).toBe(403);
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    const page = await agent.get('/de/stammdaten/standorte/1001');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<fieldset class="plain-fieldset"');
    expect(page.text).not.toContain('/stammdaten/standorte/1001/bearbeiten"');
    const post = await agent.post('/de/stammdaten/standorte/1001').type('form').set('Referer', '/de/stammdaten/standorte/1001').send({ _csrf: csrfFrom(page.text), nr: '1001', name: 'x' });
    expect(post.headers.location).toBe('/de/stammdaten/standorte/1001');
    expect((await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '1001' }).first('name')).name).toBe('Tanklager Hamburg-Waltershof');
  });

  it('asks before changing the number, then moves the record, its history and its references', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/standorte/1003');
    const ask = await agent.post('/de/stammdaten/standorte/1003').type('form').send({ _csrf: csrfFrom(page.text), nr: '1030', name: 'Tankstelle Bremen-Vegesack', version: '1' });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Nummer wirklich ändern?');
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '1030' }).first()).toBeUndefined();
    const confirmed = await agent.post('/de/stammdaten/standorte/1003').type('form').send({ _csrf: csrfFrom(ask.text), nr: '1030', name: 'Tankstelle Bremen-Vegesack', version: '1', confirmNr: '1030' });
    expect(confirmed.headers.location).toBe('/de/stammdaten/standorte/1030');
    expect(await t.db.knex('benutzer_standorte').where({ mandant: 'DEMO', standort_nr: '1030' }).first()).toBeTruthy();
    const detail = await agent.get('/de/stammdaten/standorte/1030');
    expect(detail.text).toContain('Versionen');
  });
});
