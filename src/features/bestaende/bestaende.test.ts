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
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const count = async () => Number((await t.db.knex('bestaende').where({ mandant: 'DEMO' }).count({ c: '*' }))[0].c);
const lastNr = async (mandant: string) => Number((await t.db.knex('nummernkreise').where({ mandant, kreis: 'bestaende' }).first('letzte')).letzte);

describe('Bestände', () => {
  it('creates a stock figure from the form at bestaende/create, numbered within the tenant', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const form = await agent.get('/de/bewegungsdaten/bestaende/create');
    expect(form.status).toBe(200);
    expect(form.text).toContain('Neuer Bestand');
    const nordBefore = await lastNr('NORD');
    const expectedNr = String((await lastNr('DEMO')) + 1);
    const res = await agent.post('/de/bewegungsdaten/bestaende').type('form')
      .send({ _csrf: csrfFrom(form.text), datum: daysAgo(200), standortNr: '1001', produktNr: 'P001', volumen: '250.000,5', fuellstand: '62,5' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/de/bewegungsdaten/bestaende/${expectedNr}`);
    expect(await t.db.knex('bestaende').where({ mandant: 'DEMO', nr: expectedNr }).first()).toMatchObject({ datum: daysAgo(200), volumen: '250000.500', fuellstand: '62.50', standort_nr: '1001', produkt_nr: 'P001', version: 1 });
    // Another tenant's numbering is its own.
    expect(await lastNr('NORD')).toBe(nordBefore);
    const detail = await agent.get(res.headers.location);
    expect(detail.text).toContain(`Bestand ${expectedNr}`);
  });

  it('keeps one figure per location, product and day: a second one is refused, naming the existing one', async () => {
    const auth = await as('USER', 'User12345');
    const first = await request(t.app).post('/api/bestaende').set(auth).send({ datum: daysAgo(250), standortNr: '1002', produktNr: 'P002', volumen: '1000' });
    expect(first.status).toBe(201);
    const before = await count();
    const second = await request(t.app).post('/api/bestaende').set(auth).send({ datum: daysAgo(250), standortNr: '1002', produktNr: 'P002', volumen: '2000' });
    expect(second.status).toBe(400);
    expect(second.body.errors).toEqual([{ field: 'datum', message: `Für diesen Standort und dieses Produkt gibt es an diesem Tag schon einen Bestand (Nr. ${first.body.data.nr}); bitte diesen bearbeiten.` }]);
    expect(await count()).toBe(before);
    // Moving another figure onto that day is refused the same way; editing the figure itself is not.
    const other = await request(t.app).post('/api/bestaende').set(auth).send({ datum: daysAgo(251), standortNr: '1002', produktNr: 'P002', volumen: '900' });
    const moved = await request(t.app).put(`/api/bestaende/${other.body.data.nr}`).set(auth).send({ datum: daysAgo(250), standortNr: '1002', produktNr: 'P002', volumen: '900', version: 1 });
    expect(moved.status).toBe(400);
    const edited = await request(t.app).put(`/api/bestaende/${first.body.data.nr}`).set(auth).send({ datum: daysAgo(250), standortNr: '1002', produktNr: 'P002', volumen: '1100', version: 1 });
    expect(edited.body.data).toMatchObject({ volumen: '1100.000', version: 2 });
    const stale = await request(t.app).put(`/api/bestaende/${first.body.data.nr}`).set(auth).send({ datum: daysAgo(250), standortNr: '1002', produktNr: 'P002', volumen: '1200', version: 1 });
    expect(stale.status).toBe(409);
  });

  it('answers a figure with section 3\'s id (its number) and mandant, in the record and in the list', async () => {
    const auth = await as('USER', 'User12345');
    const created = await request(t.app).post('/api/bestaende').set(auth).send({ datum: daysAgo(260), standortNr: '1001', produktNr: 'P002', volumen: '4200' });
    expect(created.status).toBe(201);
    const nr = created.body.data.nr as string;
    expect(created.body.data).toMatchObject({ id: nr, nr, mandant: 'DEMO', datum: daysAgo(260), standortNr: '1001', produktNr: 'P002', volumen: '4200.000' });
    expect((await request(t.app).get(`/api/bestaende/${nr}`).set(auth)).body.data).toMatchObject({ id: nr, mandant: 'DEMO' });
    const list = await request(t.app).get(`/api/bestaende?von=${daysAgo(260)}&bis=${daysAgo(260)}&standortNr=1001&produktNr=P002`).set(auth);
    expect(list.body.data).toEqual([expect.objectContaining({ id: nr, nr, mandant: 'DEMO' })]);
    // A client that sends the record back as it got it changes nothing by `id` or `mandant`.
    const back = await request(t.app).put(`/api/bestaende/${nr}`).set(auth).send({ ...created.body.data, mandant: 'NORD', id: '1' });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ id: nr, mandant: 'DEMO', version: 1 });
    expect(await t.db.knex('bestaende').where({ mandant: 'DEMO', nr }).first('version', 'volumen')).toEqual({ version: 1, volumen: '4200.000' });
  });

  it('validates required fields, ranges and references, storing nothing', async () => {
    const auth = await as('USER', 'User12345');
    const before = await count();
    const empty = await request(t.app).post('/api/bestaende').set(auth).send({});
    expect(empty.body.message).toBe('Bitte füllen Sie alle Pflichtfelder aus');
    expect(empty.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['datum', 'produktNr', 'standortNr', 'volumen']);
    const bad = await request(t.app).post('/api/bestaende').set(auth).send({ datum: '2099-01-01', standortNr: '9999', produktNr: 'P001', volumen: '-1', fuellstand: '120' });
    expect(bad.body.errors).toEqual(expect.arrayContaining([
      { field: 'datum', message: expect.stringContaining('Das Datum muss zwischen 2000-01-01 und') },
      { field: 'volumen', message: 'Erlaubt sind Werte von 0 bis 5.000.000.000.000' },
      { field: 'fuellstand', message: 'Erlaubt sind Werte von 0 bis 100' },
    ]));
    const unknown = await request(t.app).post('/api/bestaende').set(auth).send({ datum: daysAgo(5), standortNr: '9999', produktNr: 'P001', volumen: '1' });
    expect(unknown.body.errors).toEqual([{ field: 'standortNr', message: 'Unbekannter Standort „9999“' }]);
    expect(await count()).toBe(before);
    // The form says the same in the page.
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const form = await agent.get('/de/bewegungsdaten/bestaende/create');
    const page = await agent.post('/de/bewegungsdaten/bestaende').type('form').send({ _csrf: csrfFrom(form.text), volumen: '12' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('Bitte füllen Sie alle Pflichtfelder aus');
  });

  it("hides other tenants' figures (404, unchanged) and refuses writes without the write right (403)", async () => {
    // NORD's numbers run far ahead, so its figure has a number DEMO does not have.
    await t.db.knex('nummernkreise').where({ mandant: 'NORD', kreis: 'bestaende' }).update({ letzte: 900_000 });
    const nord = await as('ADMIN', 'Admin12345', 'NORD');
    const created = await request(t.app).post('/api/bestaende').set(nord).send({ datum: daysAgo(300), standortNr: '2001', produktNr: 'P001', volumen: '5' });
    const nordNr = created.body.data.nr;
    expect(nordNr).toBe('900001');
    const auth = await as('USER', 'User12345');
    expect((await request(t.app).get(`/api/bestaende/${nordNr}`).set(auth)).status).toBe(404);
    expect((await request(t.app).put(`/api/bestaende/${nordNr}`).set(auth).send({ datum: daysAgo(300), standortNr: '1001', produktNr: 'P001', volumen: '6' })).status).toBe(404);
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    expect((await agent.get(`/de/bewegungsdaten/bestaende/${nordNr}`)).status).toBe(404);
    expect(await t.db.knex('bestaende').where({ mandant: 'NORD', nr: nordNr }).first('volumen')).toEqual({ volumen: '5.000' });
    const list = await request(t.app).get('/api/bestaende?pageSize=500').set(auth);
    expect(list.body.data.every((b: { standortNr: string }) => b.standortNr.startsWith('10'))).toBe(true);

    // USER in NORD reads products only: no stock at all.
    expect((await request(t.app).get('/api/bestaende').set(await as('USER', 'User12345', 'NORD'))).status).toBe(403);
    // SUPPORT and LESER have no write right on stock.
    const leser = await as('LESER', 'Leser12345');
    expect((await request(t.app).post('/api/bestaende').set(leser).send({ datum: daysAgo(1), standortNr: '1001', produktNr: 'P001', volumen: '1' })).status).toBe(403);
  });
});
