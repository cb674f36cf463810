import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { TenantScope } from '../../db/scope.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn, type Agent } from '../../testing/session.js';
import { aequivalentfaktorenAm, gesetzeswerteAm, nachweisAblauf, quoteImJahr } from './service.js';

// "Today" is 1 June 2026 in this file: rows from 2027 on are in the future (deletable), the seed's are in force.
const clock = new ManualClock(Date.parse('2026-06-01T10:00:00Z'));
let t: TestApp;
let admin: Agent;
let adminAuth: Record<string, string>;

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });
const count = async (table: string, where: Record<string, unknown> = {}) => Number((await t.db.knex(table).where(where).count({ c: '*' }))[0].c);
const auditOf = (id: number) => t.db.knex('audit_log').where({ entity: 'gesetzeswert', entity_id: String(id) }).orderBy('id').select('kind', 'benutzer_id', 'mandant', 'before', 'after');
const adminId = async () => (await t.db.knex('benutzer').where({ login: 'ADMIN' }).first('id')).id;

const SEED_SCHWELLEN = [{ anlageAb: '0001-01-01', prozent: '50' }, { anlageAb: '2015-10-06', prozent: '60' }, { anlageAb: '2021-01-01', prozent: '65' }];

beforeAll(async () => {
  t = await createTestApp({}, clock);
  admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
  adminAuth = await as('ADMIN', 'Admin12345');
});
afterAll(() => t.close());

describe('the values valid on a date', () => {
  it('reads the seed: comparator, Basiswert and the thresholds by plant date, ascending', async () => {
    expect(await gesetzeswerteAm(t.db.knex, '2026-06-01')).toEqual({ fossilerVergleichswert: '94', basiswert: '94.1', schwellen: SEED_SCHWELLEN });
    // Before every row (2015-01-01): the earliest values.
    expect(await gesetzeswerteAm(t.db.knex, '2012-03-01')).toEqual(await gesetzeswerteAm(t.db.knex, '2015-01-01'));
    expect(await quoteImJahr(t.db.knex, 2024)).toBe('9.25');
    expect(await quoteImJahr(t.db.knex, 2030)).toBe('25');
    expect(await quoteImJahr(t.db.knex, 2031)).toBeNull();
    expect(await nachweisAblauf(t.db.knex, '2026-03-31')).toBe('2027-04-15');
  });

  it('a value added from 2027-01-01 leaves earlier dates unchanged and applies from that day', async () => {
    const before = await gesetzeswerteAm(t.db.knex, '2026-06-01');
    const res = await request(t.app).post('/api/gesetzeswerte').set(adminAuth)
      .send({ art: 'fossiler_vergleichswert', gueltigAb: '2027-01-01', wert: '93.5', kommentar: 'Reform (Test)' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ art: 'fossiler_vergleichswert', anlageAb: null, jahr: null, gueltigAb: '2027-01-01', wert: '93.5', kommentar: 'Reform (Test)', createdBy: 'ADMIN' });
    expect(await gesetzeswerteAm(t.db.knex, '2026-06-01')).toEqual(before);
    expect(await gesetzeswerteAm(t.db.knex, '2026-12-31')).toEqual(before);
    expect(await gesetzeswerteAm(t.db.knex, '2027-02-01')).toEqual({ ...before, fossilerVergleichswert: '93.5' });

    const am = await request(t.app).get('/api/gesetzeswerte/am/2027-02-01').set(await as('USER', 'User12345'));
    expect(am.status).toBe(200);
    expect(am.body.data).toEqual({
      datum: '2027-02-01', fossilerVergleichswert: '93.5', basiswert: '94.1', schwellen: SEED_SCHWELLEN,
      quote: { jahr: 2027, prozent: '14.5' }, nachweisAblauf: '2028-04-15',
    });
    // Cleaned up through the API: the row is still in the future.
    expect((await request(t.app).delete(`/api/gesetzeswerte/${res.body.data.id}`).set(adminAuth)).status).toBe(200);
    expect((await gesetzeswerteAm(t.db.knex, '2027-02-01')).fossilerVergleichswert).toBe('94');
  });

  it('a new plant band applies from its own valid-from date on, and adds a threshold row there', async () => {
    const res = await request(t.app).post('/api/gesetzeswerte').set(adminAuth).send({ art: 'schwelle', anlageAb: '01.01.2030', gueltigAb: '2029-01-01', wert: '70' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ anlageAb: '2030-01-01', wert: '70' });
    expect((await gesetzeswerteAm(t.db.knex, '2028-12-31')).schwellen).toEqual(SEED_SCHWELLEN);
    expect((await gesetzeswerteAm(t.db.knex, '2029-01-01')).schwellen).toEqual([...SEED_SCHWELLEN, { anlageAb: '2030-01-01', prozent: '70' }]);
    await request(t.app).delete(`/api/gesetzeswerte/${res.body.data.id}`).set(adminAuth);
  });

  it('the equivalents of the THG display: the seed\'s factors with their sources, and a newer factor from its valid-from date on', async () => {
    const seed = await aequivalentfaktorenAm(t.db.knex, '2026-06-01');
    expect(seed.map((f) => [f.einheit, f.kgCo2e])).toEqual([['auto_100km', '21'], ['flug_500km', '107'], ['schwein_kg', '12'], ['rind_kg', '99.5']]);
    expect(seed[1].quelle).toBe('UBA 2019, Inlandsflüge: 214 g je Personenkilometer');
    const res = await request(t.app).post('/api/gesetzeswerte').set(adminAuth)
      .send({ art: 'aequivalent', einheit: 'flug_500km', gueltigAb: '2027-01-01', wert: '98,5', kommentar: 'UBA 2026 (Test)' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ art: 'aequivalent', einheit: 'flug_500km', anlageAb: null, jahr: null, gueltigAb: '2027-01-01', wert: '98.5' });
    expect(await aequivalentfaktorenAm(t.db.knex, '2026-12-31')).toEqual(seed);
    expect((await aequivalentfaktorenAm(t.db.knex, '2027-01-01'))[1]).toEqual({ einheit: 'flug_500km', kgCo2e: '98.5', quelle: 'UBA 2026 (Test)' });
    // The law's values are untouched by it.
    expect(await gesetzeswerteAm(t.db.knex, '2027-01-01')).toEqual(await gesetzeswerteAm(t.db.knex, '2026-06-01'));
    // Its unit is part of its identity: a correction may not move it.
    const moved = await request(t.app).put(`/api/gesetzeswerte/${res.body.data.id}`).set(adminAuth).send({ wert: '99', einheit: 'auto_100km' });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual([{ field: 'einheit', message: 'Art, Bezug und „Gültig ab“ eines Werts können nicht geändert werden; fügen Sie stattdessen einen neuen Wert hinzu.' }]);
    expect((await request(t.app).delete(`/api/gesetzeswerte/${res.body.data.id}`).set(adminAuth)).status).toBe(200);
  });

  it('is readable inside a tenant transaction (the app role), which cannot change it', async () => {
    const scope = new TenantScope(t.db.knex, 'DEMO');
    const werte = await scope.transaction((tx) => gesetzeswerteAm(tx.knex, '2026-06-01'));
    expect(werte.basiswert).toBe('94.1');
    await expect(scope.transaction((tx) => tx.knex('gesetzeswerte').update({ wert: '1' }).where({ art: 'basiswert' }))).rejects.toThrow(/permission denied/);
    expect((await gesetzeswerteAm(t.db.knex, '2026-06-01')).basiswert).toBe('94.1');
  });

  it('lists every row for any signed-in user, and answers a bad date with 400 naming it', async () => {
    const user = await as('USER', 'User12345');
    const list = await request(t.app).get('/api/gesetzeswerte').set(user);
    expect(list.status).toBe(200);
    expect(list.body.data.filter((r: { art: string }) => r.art === 'quote').map((r: { jahr: number; wert: string }) => [r.jahr, r.wert])).toEqual([
      [2022, '7'], [2023, '8'], [2024, '9.25'], [2025, '10.5'], [2026, '12'], [2027, '14.5'], [2028, '17.5'], [2029, '21'], [2030, '25'],
    ]);
    expect(list.body.data.find((r: { art: string }) => r.art === 'nachweis_ablauf')).toMatchObject({ wert: '04-15', gueltigAb: '2015-01-01' });
    const bad = await request(t.app).get('/api/gesetzeswerte/am/2026-02-30').set(user);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'datum', message: 'Bitte geben Sie ein Datum im Format JJJJ-MM-TT an, z. B. 2026-06-01.' }]);
    // X-Mandant is required as for every call of the contract.
    expect((await request(t.app).get('/api/gesetzeswerte').set({ Authorization: user.Authorization })).status).toBe(400);
  });
});

describe('the page', () => {
  it('shows each kind with its rows, units and the row valid today, in German and English', async () => {
    const page = await admin.get('/de/benutzer/gesetzeswerte');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Gesetzliche Werte</h1>');
    for (const text of ['Fossiler Vergleichswert', '94 g CO₂-Äq/MJ', '94,1 kg CO₂-Äq/GJ', 'Mindest-THG-Einsparung', '65 %', 'frühester Tag (alle älteren Anlagen)',
      '06.10.2015', 'THG-Quote', '9,25 %', '15. April des Folgejahres', 'gültig seit 01.01.2015', 'Wert hinzufügen', 'Änderungsverlauf']) {
      expect(page.text, text).toContain(text);
    }
    // One row in force per kind and reference: comparator, Basiswert, three bands, nine years, expiry, four equivalents.
    expect(page.text.match(/gültig seit 01\.01\.2015/g)).toHaveLength(19);
    for (const text of ['Äquivalente der THG-Anzeige', 'Autofahrt à 100 km (je Pkw)', '99,5 kg CO₂-Äq', 'Poore &amp; Nemecek 2018, Rindfleisch']) expect(page.text, text).toContain(text);
    expect(page.text).toContain('href="/de/benutzer/gesetzeswerte" aria-current="page"');
    const en = await admin.get('/en/benutzer/gesetzeswerte');
    for (const text of ['<h1>Legal values</h1>', '94 g CO₂eq/MJ', '94.1 kg CO₂eq/GJ', '9.25 %', '15 April of the following year', 'valid since 01.01.2015']) {
      expect(en.text, text).toContain(text);
    }
  });

  it('adds, corrects and deletes a value through the forms, each with its audit entry', async () => {
    const form = await admin.get('/de/benutzer/gesetzeswerte');
    const added = await admin.post('/de/benutzer/gesetzeswerte').type('form')
      .send({ _csrf: csrfFrom(form.text), art: 'quote', jahr: '2031', anlageAb: '', gueltigAb: '01.01.2028', wert: '27,5', kommentar: 'Entwurf' });
    expect(added.status).toBe(302);
    expect(added.headers.location).toBe('/de/benutzer/gesetzeswerte');
    const row = await t.db.knex('gesetzeswerte').where({ art: 'quote', bezug: '2031' }).first();
    expect(row).toMatchObject({ gueltig_ab: '2028-01-01', wert: '27.5000', wert_text: null, kommentar: 'Entwurf', created_by: await adminId() });
    expect(await auditOf(row.id)).toEqual([{
      kind: 'admin.gesetzeswert.create', benutzer_id: await adminId(), mandant: null, before: null,
      after: { art: 'quote', anlageAb: null, jahr: 2031, gueltigAb: '2028-01-01', wert: '27.5', kommentar: 'Entwurf' },
    }]);
    const list = await admin.get('/de/benutzer/gesetzeswerte');
    expect(list.text).toContain('Gespeichert.');
    expect(list.text).toContain('gilt ab 01.01.2028');
    expect(list.text).toContain('Hinzugefügt');

    const edit = await admin.get(`/de/benutzer/gesetzeswerte/${row.id}`);
    expect(edit.status).toBe(200);
    expect(edit.text).toContain('value="27,5"');
    expect(edit.text).toContain(`action="/de/benutzer/gesetzeswerte/${row.id}/loeschen"`);
    const corrected = await admin.post(`/de/benutzer/gesetzeswerte/${row.id}`).type('form').send({ _csrf: csrfFrom(edit.text), wert: '28', kommentar: 'Referentenentwurf' });
    expect(corrected.status).toBe(302);
    expect(await t.db.knex('gesetzeswerte').where({ id: row.id }).first('wert', 'kommentar')).toEqual({ wert: '28.0000', kommentar: 'Referentenentwurf' });
    expect((await auditOf(row.id))[1]).toMatchObject({
      kind: 'admin.gesetzeswert.update', before: { wert: '27.5', kommentar: 'Entwurf' }, after: { wert: '28', kommentar: 'Referentenentwurf' },
    });
    const history = await admin.get('/de/benutzer/gesetzeswerte');
    expect(history.text).toMatch(/Korrigiert<\/strong>[\s\S]*?THG-Quote · Jahr 2031 · gültig ab 01\.01\.2028[\s\S]*?27,5 %<\/td><td>28 %/);

    // Deleting asks first (the edit page's button posts); that post and cancelling (the link back) change nothing.
    const editAgain = await admin.get(`/de/benutzer/gesetzeswerte/${row.id}`);
    const confirm = await admin.post(`/de/benutzer/gesetzeswerte/${row.id}/loeschen`).type('form').send({ _csrf: csrfFrom(editAgain.text) });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Wert löschen: THG-Quote · Jahr 2031?');
    expect(confirm.text).toContain('Der Wert 28 %, gültig ab 01.01.2028, wird gelöscht');
    expect(confirm.text).toContain('name="bestaetigt" value="ja"');
    expect(confirm.text).toContain(`<a class="btn btn-ghost" href="/de/benutzer/gesetzeswerte/${row.id}">`);
    expect(await t.db.knex('gesetzeswerte').where({ id: row.id }).first('id')).toBeTruthy();
    expect((await admin.get(`/de/benutzer/gesetzeswerte/${row.id}`)).status).toBe(200);
    expect((await auditOf(row.id)).map((e) => e.kind)).toEqual(['admin.gesetzeswert.create', 'admin.gesetzeswert.update']);
    const deleted = await admin.post(`/de/benutzer/gesetzeswerte/${row.id}/loeschen`).type('form').send({ _csrf: csrfFrom(confirm.text), bestaetigt: 'ja' });
    expect(deleted.status).toBe(302);
    expect(await t.db.knex('gesetzeswerte').where({ id: row.id }).first()).toBeUndefined();
    expect((await auditOf(row.id)).map((e) => e.kind)).toEqual(['admin.gesetzeswert.create', 'admin.gesetzeswert.update', 'admin.gesetzeswert.delete']);
    expect((await admin.get('/de/benutzer/gesetzeswerte')).text).toContain('Der Wert wurde gelöscht.');
  });

  it('shows a bad form again with the field named, storing nothing', async () => {
    const before = await count('gesetzeswerte');
    const form = await admin.get('/de/benutzer/gesetzeswerte');
    const bad = await admin.post('/de/benutzer/gesetzeswerte').type('form').send({ _csrf: csrfFrom(form.text), art: 'schwelle', anlageAb: '2030-01-01', gueltigAb: '2029-01-01', wert: '120' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-wert-error"[^>]*>[\s\S]*?Erlaubt sind Werte von 0 bis 100/);
    expect(bad.text).toContain('value="2030-01-01"');
    expect(await count('gesetzeswerte')).toBe(before);
  });

  it('refuses to delete a value in force (409), on the page and through the API', async () => {
    const basiswert = await t.db.knex('gesetzeswerte').where({ art: 'basiswert' }).first('id');
    const edit = await admin.get(`/de/benutzer/gesetzeswerte/${basiswert.id}`);
    expect(edit.text).not.toContain('/loeschen"');
    const page = await admin.post(`/de/benutzer/gesetzeswerte/${basiswert.id}/loeschen`).type('form').send({ _csrf: csrfFrom(edit.text) });
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe(`/de/benutzer/gesetzeswerte/${basiswert.id}`);
    expect((await admin.get(page.headers.location)).text).toContain('Nur Werte, die erst in der Zukunft gelten, können gelöscht werden.');
    const api = await request(t.app).delete(`/api/gesetzeswerte/${basiswert.id}`).set(adminAuth);
    expect(api.status).toBe(409);
    expect(api.body.code).toBe('GESETZESWERT_IN_KRAFT');
    expect(await t.db.knex('gesetzeswerte').where({ id: basiswert.id }).first('id')).toBeTruthy();
    expect(await count('audit_log', { entity: 'gesetzeswert', entity_id: String(basiswert.id) })).toBe(0);
    expect((await request(t.app).delete('/api/gesetzeswerte/999999').set(adminAuth)).status).toBe(404);
    expect((await admin.get('/de/benutzer/gesetzeswerte/abc')).status).toBe(404);
  });
});

describe('the API', () => {
  it('corrects a value and its comment, keeping its kind, reference and date', async () => {
    const row = await t.db.knex('gesetzeswerte').where({ art: 'quote', bezug: '2030' }).first('id');
    const ok = await request(t.app).put(`/api/gesetzeswerte/${row.id}`).set(adminAuth).send({ wert: '25,0', kommentar: '§ 37a Abs. 4 BImSchG (geprüft)' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ jahr: 2030, wert: '25', kommentar: '§ 37a Abs. 4 BImSchG (geprüft)', updatedBy: 'ADMIN' });
    // The row sent back as it was read (identity unchanged) is fine; a moved date is not.
    const same = await request(t.app).put(`/api/gesetzeswerte/${row.id}`).set(adminAuth).send({ ...ok.body.data, wert: '25' });
    expect(same.status).toBe(200);
    // A comment left out stays.
    expect((await request(t.app).put(`/api/gesetzeswerte/${row.id}`).set(adminAuth).send({ wert: '25' })).body.data.kommentar).toBe('§ 37a Abs. 4 BImSchG (geprüft)');
    const moved = await request(t.app).put(`/api/gesetzeswerte/${row.id}`).set(adminAuth).send({ wert: '26', gueltigAb: '2020-01-01', jahr: 2031 });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual([
      { field: 'jahr', message: 'Art, Bezug und „Gültig ab“ eines Werts können nicht geändert werden; fügen Sie stattdessen einen neuen Wert hinzu.' },
      { field: 'gueltigAb', message: 'Art, Bezug und „Gültig ab“ eines Werts können nicht geändert werden; fügen Sie stattdessen einen neuen Wert hinzu.' },
    ]);
    expect(await t.db.knex('gesetzeswerte').where({ id: row.id }).first('wert', 'gueltig_ab')).toEqual({ wert: '25.0000', gueltig_ab: '2015-01-01' });
    // The unchanged resend wrote no second entry.
    expect((await auditOf(row.id)).map((e) => e.kind)).toEqual(['admin.gesetzeswert.update']);
  });

  it.each([
    ['not a number', { art: 'basiswert', gueltigAb: '2028-01-01', wert: 'viel' }, 'wert', 'Keine gültige Zahl (z. B. 12,5 oder 12.5)', 'Not a valid number (e.g. 12.5 or 12,5)'],
    ['a negative comparator', { art: 'fossiler_vergleichswert', gueltigAb: '2028-01-01', wert: '-94' }, 'wert',
      'Der Wert muss größer als 0 sein und darf höchstens 1.000 betragen.', 'The value must be greater than 0 and at most 1,000.'],
    ['a negative quota', { art: 'quote', jahr: 2031, gueltigAb: '2028-01-01', wert: '-1' }, 'wert', 'Erlaubt sind Werte von 0 bis 100', 'Allowed values are 0 to 100'],
    ['a threshold above 100', { art: 'schwelle', anlageAb: '2030-01-01', gueltigAb: '2029-01-01', wert: '100.5' }, 'wert', 'Erlaubt sind Werte von 0 bis 100', 'Allowed values are 0 to 100'],
    ['a duplicate kind, reference and date', { art: 'schwelle', anlageAb: '2015-10-06', gueltigAb: '2015-01-01', wert: '61' }, 'gueltigAb',
      'Für diese Art und diesen Bezug gibt es ab diesem Tag schon einen Wert; bitte korrigieren Sie diesen.',
      'There is already a value of this kind and reference from this day; please correct that one.'],
    ['an unknown kind', { art: 'mehrwertsteuer', gueltigAb: '2028-01-01', wert: '19' }, 'art', 'Bitte wählen Sie eine Art aus der Liste.', 'Please choose a kind from the list.'],
    ['a year outside 2000–2100', { art: 'quote', jahr: 1999, gueltigAb: '2028-01-01', wert: '5' }, 'jahr', 'Bitte geben Sie ein Jahr von 2000 bis 2100 an.', 'Please enter a year from 2000 to 2100.'],
    ['a day that is not in every year', { art: 'nachweis_ablauf', gueltigAb: '2028-01-01', wert: '29.02.' }, 'wert',
      'Bitte geben Sie einen Tag im Format TT.MM. an, z. B. 15.04. (der 29.02. ist nicht möglich).', 'Please enter a day as MM-DD, e.g. 04-15 (29 February is not possible).'],
    ['a reference the kind does not have', { art: 'basiswert', jahr: 2028, gueltigAb: '2028-01-01', wert: '95' }, 'jahr',
      'Bitte lassen Sie dieses Feld bei dieser Art leer.', 'Please leave this field empty for this kind.'],
    ['an equivalent without its unit', { art: 'aequivalent', gueltigAb: '2028-01-01', wert: '20' }, 'einheit', 'Pflichtfeld', 'Required'],
    ['an equivalent of an unknown unit', { art: 'aequivalent', einheit: 'bahn_100km', gueltigAb: '2028-01-01', wert: '3' }, 'einheit',
      'Bitte wählen Sie eine Einheit aus der Liste.', 'Please choose a unit from the list.'],
    ['an equivalent of zero', { art: 'aequivalent', einheit: 'rind_kg', gueltigAb: '2028-01-01', wert: '0' }, 'wert',
      'Der Wert muss größer als 0 sein und darf höchstens 1.000 betragen.', 'The value must be greater than 0 and at most 1,000.'],
    ['a unit on a kind that has none', { art: 'basiswert', einheit: 'rind_kg', gueltigAb: '2028-01-01', wert: '95' }, 'einheit',
      'Bitte lassen Sie dieses Feld bei dieser Art leer.', 'Please leave this field empty for this kind.'],
  ])('refuses %s with 400, naming the field in German and English, storing nothing', async (_label, body, field, de, en) => {
    const before = { rows: await count('gesetzeswerte'), audit: await count('audit_log') };
    const res = await request(t.app).post('/api/gesetzeswerte').set(adminAuth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field, message: de }]);
    const english = await request(t.app).post('/api/gesetzeswerte').set({ ...adminAuth, 'Accept-Language': 'en' }).send(body);
    expect(english.body.errors).toEqual([{ field, message: en }]);
    expect({ rows: await count('gesetzeswerte'), audit: await count('audit_log') }).toEqual(before);
  });

  it('names every missing field at once', async () => {
    const res = await request(t.app).post('/api/gesetzeswerte').set(adminAuth).send({ art: 'quote' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Bitte füllen Sie alle Pflichtfelder aus');
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['gueltigAb', 'jahr', 'wert']);
  });

  it('stores a value and its audit entry in one transaction: when the entry fails, nothing is stored', async () => {
    await t.db.knex.raw(`create function gesetzeswerte_test_audit_fails() returns trigger language plpgsql as $$
      begin raise exception 'audit log unavailable'; end $$`);
    await t.db.knex.raw(`create trigger gesetzeswerte_test_audit before insert on audit_log for each row
      when (new.entity = 'gesetzeswert') execute function gesetzeswerte_test_audit_fails()`);
    const quote = await t.db.knex('gesetzeswerte').where({ art: 'quote', bezug: '2029' }).first('id', 'wert');
    try {
      const before = await count('gesetzeswerte');
      const res = await request(t.app).post('/api/gesetzeswerte').set(adminAuth).send({ art: 'quote', jahr: 2032, gueltigAb: '2028-01-01', wert: '30' });
      expect(res.status).toBe(500);
      expect(await count('gesetzeswerte')).toBe(before);
      expect((await request(t.app).put(`/api/gesetzeswerte/${quote.id}`).set(adminAuth).send({ wert: '22' })).status).toBe(500);
      expect(await t.db.knex('gesetzeswerte').where({ id: quote.id }).first('wert')).toEqual({ wert: quote.wert });
    } finally {
      await t.db.knex.raw('drop trigger gesetzeswerte_test_audit on audit_log');
      await t.db.knex.raw('drop function gesetzeswerte_test_audit_fails()');
    }
  });
});

describe('who may change them', () => {
  it.each([['TADMIN', 'Tadmin12345'], ['USER', 'User12345']])('%s does not see the page and gets 403 on every write', async (login, password) => {
    const agent = await signIn(t.app, login, password, 'DEMO');
    const page = await agent.get('/de/benutzer/gesetzeswerte');
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe('/de/benutzer/dashboard');
    const dashboard = await agent.get('/de/benutzer/dashboard');
    expect(dashboard.text).not.toContain('href="/de/benutzer/gesetzeswerte"');
    const before = { rows: await count('gesetzeswerte'), audit: await count('audit_log', { entity: 'gesetzeswert' }) };
    const post = await agent.post('/de/benutzer/gesetzeswerte').type('form').send({ _csrf: csrfFrom(dashboard.text), art: 'basiswert', gueltigAb: '2028-01-01', wert: '1' });
    expect(post.status).toBe(302);
    const row = await t.db.knex('gesetzeswerte').where({ art: 'basiswert' }).first('id');
    const auth = await as(login, password);
    expect((await request(t.app).post('/api/gesetzeswerte').set(auth).send({ art: 'basiswert', gueltigAb: '2028-01-01', wert: '1' })).status).toBe(403);
    expect((await request(t.app).put(`/api/gesetzeswerte/${row.id}`).set(auth).send({ wert: '1' })).status).toBe(403);
    expect((await request(t.app).delete(`/api/gesetzeswerte/${row.id}`).set(auth)).status).toBe(403);
    expect({ rows: await count('gesetzeswerte'), audit: await count('audit_log', { entity: 'gesetzeswert' }) }).toEqual(before);
    expect((await t.db.knex('gesetzeswerte').where({ id: row.id }).first('wert')).wert).toBe('94.1000');
    // Reading stays open to them: the values are law, and their computations use them.
    expect((await request(t.app).get('/api/gesetzeswerte/am/2026-06-01').set(auth)).body.data.basiswert).toBe('94.1');
  });

  it('the system administrator finds the page in the sidebar next to the tenants', async () => {
    const dashboard = await admin.get('/de/benutzer/dashboard');
    expect(dashboard.text).toMatch(/href="\/de\/benutzer\/mandanten"[\s\S]*?href="\/de\/benutzer\/gesetzeswerte"/);
  });
});
