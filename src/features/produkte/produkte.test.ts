import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantScope } from '../../db/scope.js';
import type { ProblemError } from '../../errors.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { recordService } from '../../records/service.js';
import { buildEinlieferung, buildProdukt } from '../../testing/factories.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { einlieferungConfig } from '../lieferungen/einlieferungen.js';
import { produktConfig, produktStore } from './config.js';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
});
afterAll(() => t.close());

async function token(login: string, password: string) {
  return (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
}

const produkt = (nr: string, extra: Record<string, unknown> = {}) => ({
  nr, name: `Produkt ${nr}`, produktgruppe: 'diesel', biogehalt: '7', lcv: '35.8', lcvEinheit: 'MJ/L', ...extra,
});

const row = (nr: string, mandant = 'DEMO') => t.db.knex('produkte').where({ mandant, nr }).first();

describe('Produkte', () => {
  it('has the seeded catalogue over all six groups, each with its first version', async () => {
    const list = await request(t.app).get('/api/produkte?pageSize=100').set(admin);
    expect(list.body.total).toBe(25);
    expect(new Set(list.body.data.map((p: { produktgruppe: string }) => p.produktgruppe))).toEqual(new Set(['diesel', 'benzin', 'biodiesel', 'bioethanol', 'hvo', 'pflanzenoel']));
    const missing = await t.db.knex('produkte as p')
      .leftJoin('produkte_versionen as v', (j) => j.on('v.mandant', 'p.mandant').andOn('v.nr', 'p.nr'))
      .whereNull('v.nr').select('p.nr');
    expect(missing).toEqual([]);
    const versions = await request(t.app).get('/api/produkte/P009/versionen').set(admin);
    expect(versions.body.data).toHaveLength(1);
    expect(versions.body.data[0].changes).toContainEqual({ field: 'name', before: null, after: 'Super E10' });
  });

  it('creates, reads, and saves a change as a new version with the difference', async () => {
    const created = await request(t.app).post('/api/produkte').set(admin).send(produkt('T100', { name: 'Diesel B7 Test', produkttyp: 'EN 590' }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ nr: 'T100', name: 'Diesel B7 Test', produktgruppe: 'diesel', lcvEinheit: 'MJ/L', version: 1, status: 'aktiv' });
    expect(Number(created.body.data.biogehalt)).toBe(7);

    const read = await request(t.app).get('/api/produkte/T100').set(admin);
    expect(read.body.data).toMatchObject({ nr: 'T100', produkttyp: 'EN 590' });

    const updated = await request(t.app).put('/api/produkte/T100').set(admin).send({ ...produkt('T100', { name: 'Diesel B7 Test', produkttyp: 'EN 590' }), biogehalt: '6,5', version: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body.data.version).toBe(2);
    const versions = await request(t.app).get('/api/produkte/T100/versionen').set(admin);
    expect(versions.body.data[0]).toMatchObject({ version: 2, benutzer: 'TADMIN' });
    expect(versions.body.data[0].changes).toEqual([{ field: 'biogehalt', before: '7.0000', after: '6.5' }]);

    // The same values again: no new version.
    const again = await request(t.app).put('/api/produkte/T100').set(admin).send({ ...produkt('T100', { name: 'Diesel B7 Test', produkttyp: 'EN 590' }), biogehalt: '6.50' });
    expect(again.status).toBe(200);
    expect(again.body.data.version).toBe(2);

    // The Versionen tab shows the history with the change in German numbers; the form the stored value.
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/produkte/T100/bearbeiten');
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/de/stammdaten/produkte/T100?tab=versionen"');
    const versionsTab = await agent.get('/de/stammdaten/produkte/T100?tab=versionen');
    const history = versionsTab.text.slice(versionsTab.text.indexOf('id="history-heading"'));
    expect(history).toMatch(/<th scope="row">Biogehalt \(%\)<\/th><td>7<\/td><td>6,5<\/td>/);
    expect(page.text).toMatch(/id="f-biogehalt"[^>]*value="6,5"|value="6,5"[^>]*id="f-biogehalt"/);
  });

  it('saves a change made in the form and shows it in the history', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/produkte/P017');
    const post = await agent.post('/de/stammdaten/produkte/P017').type('form').send({
      _csrf: csrfFrom(page.text), version: '1', nr: 'P017', name: 'HVO100 Premium', produktgruppe: 'hvo', produkttyp: 'EN 15940', biogehalt: '100', lcv: '34', lcvEinheit: 'MJ/L',
      beschreibung: 'Hydriertes Pflanzenöl', kommentar: '',
    });
    expect(post.status).toBe(302);
    expect(post.headers.location).toBe('/de/stammdaten/produkte/P017');
    const after = await agent.get('/de/stammdaten/produkte/P017');
    expect(after.text).toContain('Gespeichert.');
    expect((await agent.get('/de/stammdaten/produkte/P017?tab=versionen')).text).toMatch(/<th scope="row">Name<\/th><td>HVO100<\/td><td>HVO100 Premium<\/td>/);
    expect(after.text).toContain('Version 2');
  });

  it('validates each field by name, accepts German and English decimals, and changes nothing', async () => {
    const bad = await request(t.app).post('/api/produkte').set(admin).send({
      nr: 'a b', name: '', produktgruppe: 'kerosin', biogehalt: '12,5,0', lcv: '0', lcvEinheit: 'MJ/m3', produkttyp: 'x'.repeat(101),
    });
    expect(bad.status).toBe(400);
    const byField = Object.fromEntries(bad.body.errors.map((e: { field: string; message: string }) => [e.field, e.message]));
    expect(byField).toEqual({
      nr: 'Nur Buchstaben, Ziffern, Punkt, Binde- und Unterstrich (nicht „neu“)',
      name: 'Pflichtfeld',
      produktgruppe: 'Ungültiger Wert',
      biogehalt: 'Keine gültige Zahl (z. B. 12,5 oder 12.5)',
      lcv: 'Erlaubt sind Werte von 0,0001 bis 1.000',
      lcvEinheit: 'Ungültiger Wert',
      produkttyp: 'Zu lang',
    });
    expect(await row('a b')).toBeUndefined();

    const more = await request(t.app).post('/api/produkte').set(admin).send({ nr: 'T101', name: 'X', biogehalt: '100,5', lcv: '35,12345', lcvEinheit: 'MJ/L' });
    expect(Object.fromEntries(more.body.errors.map((e: { field: string; message: string }) => [e.field, e.message]))).toEqual({
      produktgruppe: 'Pflichtfeld', biogehalt: 'Erlaubt sind Werte von 0 bis 100', lcv: 'Zu viele Nachkommastellen',
    });
    expect(await row('T101')).toBeUndefined();

    const german = await request(t.app).post('/api/produkte').set(admin).send(produkt('T102', { biogehalt: '12,5', lcv: '35,79' }));
    const english = await request(t.app).post('/api/produkte').set(admin).send(produkt('T103', { biogehalt: '12.5', lcv: '35.79' }));
    expect([german.status, english.status]).toEqual([201, 201]);
    expect(Number((await row('T102')).biogehalt)).toBe(12.5);
    expect(Number((await row('T103')).biogehalt)).toBe(12.5);
    expect(Number((await row('T102')).lcv)).toBe(35.79);

    // The form shows the messages next to the fields and keeps the input.
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const form = await agent.get('/de/stammdaten/produkte/neu');
    const res = await agent.post('/de/stammdaten/produkte').type('form').send({ _csrf: csrfFrom(form.text), nr: 'T104', name: 'Test', produktgruppe: 'kerosin', biogehalt: '12,5,0', lcv: '', lcvEinheit: 'MJ/L' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Bitte korrigieren Sie die markierten Felder');
    // The summary lists each wrong field as a link to it (GOV.UK's error summary).
    expect(res.text).toContain('<a href="#f-biogehalt">Biogehalt (%): Keine gültige Zahl');
    expect(res.text).toContain('<a href="#f-produktgruppe">Produktgruppe: Ungültiger Wert');
    expect(res.text).toMatch(/id="f-biogehalt-error"[\s\S]*?Keine gültige Zahl/);
    expect(res.text).toMatch(/id="f-produktgruppe-error"[\s\S]*?Ungültiger Wert/);
    expect(res.text).toContain('value="12,5,0"');
    expect(await row('T104')).toBeUndefined();
  });

  it('stores the reference LCV of the group in the chosen unit when the LCV is left empty, and says so', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const form = await agent.get('/de/stammdaten/produkte/neu');
    expect(form.text).toContain('Leer gelassen, wird der Referenzwert der Produktgruppe nach RED II Anhang III in der gewählten Einheit gespeichert.');
    // Unit preset to MJ/L; the group must be chosen.
    expect(form.text).toMatch(/<option value="MJ\/L"\s+selected>/);
    expect(form.text).toMatch(/<select id="f-produktgruppe"[^>]*>\s*<option value=""\s+selected>Bitte wählen<\/option>/);
    expect(form.text).toContain('Referenzwerte nach RED II Anhang III');

    const post = await agent.post('/de/stammdaten/produkte').type('form').send({ _csrf: csrfFrom(form.text), nr: 'T110', name: 'HVO100 Test', produktgruppe: 'hvo', biogehalt: '100', lcv: '', lcvEinheit: 'MJ/L' });
    expect(post.headers.location).toBe('/de/stammdaten/produkte/T110');
    expect(Number((await row('T110')).lcv)).toBe(34);

    const api = await request(t.app).post('/api/produkte').set(admin).send({ nr: 'T111', name: 'Ethanol', produktgruppe: 'bioethanol', biogehalt: '100', lcvEinheit: 'MJ/kg' });
    expect(api.status).toBe(201);
    expect(Number(api.body.data.lcv)).toBe(27);
    expect(api.body.data.lcvEinheit).toBe('MJ/kg');
  });

  it('warns when the LCV is more than 10 % away from the reference of its group, with both values', async () => {
    await request(t.app).post('/api/produkte').set(admin).send(produkt('T120', { name: 'Super falsch', produktgruppe: 'benzin', biogehalt: '5', lcv: '40', lcvEinheit: 'MJ/L' }));
    await request(t.app).post('/api/produkte').set(admin).send(produkt('T121', { name: 'Super knapp', produktgruppe: 'benzin', biogehalt: '5', lcv: '35,2', lcvEinheit: 'MJ/L' }));
    await request(t.app).post('/api/produkte').set(admin).send(produkt('T122', { name: 'Ethanol zu niedrig', produktgruppe: 'bioethanol', biogehalt: '100', lcv: '21', lcvEinheit: 'MJ/kg' }));
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const high = await agent.get('/de/stammdaten/produkte/T120');
    expect(high.text).toContain('Der Heizwert von 40 MJ/L liegt 25 % über dem Referenzwert der Produktgruppe Benzin (32 MJ/L, RED II Anhang III). Bitte prüfen Sie Wert und Einheit.');
    expect((await agent.get('/de/stammdaten/produkte/T121')).text).not.toContain('alert-warning'); // exactly 10 %
    const low = await agent.get('/de/stammdaten/produkte/T122');
    expect(low.text).toContain('Der Heizwert von 21 MJ/kg liegt 22,2 % unter dem Referenzwert der Produktgruppe Bioethanol (27 MJ/kg, RED II Anhang III).');
    const english = await agent.get('/en/stammdaten/produkte/T120');
    expect(english.text).toContain('The LCV of 40 MJ/L is 25 % above the reference value of the product group Petrol (32 MJ/L, RED II Annex III).');
    // The seeded products lie within their references.
    expect((await agent.get('/de/stammdaten/produkte/P021')).text).not.toContain('alert-warning');
  });

  it('shows stored decimals in the form so that saving them unchanged keeps them (no grouping: 1.000 would be 1)', async () => {
    await request(t.app).post('/api/produkte').set(admin).send(produkt('T125', { lcv: '1000', lcvEinheit: 'MJ/kg', biogehalt: '12.25' }));
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    // The read view shows the decimals as stored, in the language's notation; the form keeps them editable.
    const read = await agent.get('/de/stammdaten/produkte/T125');
    expect(read.text).toMatch(/<dd>1\.000<\/dd>/);
    expect(read.text).toMatch(/<dd>12,25<\/dd>/);
    const page = await agent.get('/de/stammdaten/produkte/T125/bearbeiten');
    expect(page.text).toMatch(/id="f-lcv"[^>]*value="1000"/);
    expect(page.text).toMatch(/id="f-biogehalt"[^>]*value="12,25"/);
    const post = await agent.post('/de/stammdaten/produkte/T125').type('form').send({ _csrf: csrfFrom(page.text), version: '1', ...produkt('T125', { lcv: '1000', lcvEinheit: 'MJ/kg', biogehalt: '12,25' }) });
    expect(post.status).toBe(302);
    expect(await row('T125')).toMatchObject({ version: 1 });
    expect(Number((await row('T125')).lcv)).toBe(1000);
    expect((await agent.get('/en/stammdaten/produkte/T125/bearbeiten')).text).toMatch(/id="f-biogehalt"[^>]*value="12.25"/);
  });

  it('asks before changing the number, then moves the record and its history', async () => {
    await buildProdukt(new TenantScope(t.db.knex, 'DEMO'), produkt('T130'));
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/produkte/T130');
    const body = { ...produkt('T130'), nr: 'T131', version: '1' };
    const ask = await agent.post('/de/stammdaten/produkte/T130').type('form').send({ _csrf: csrfFrom(page.text), ...body });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Nummer wirklich ändern?');
    expect(ask.text).toContain('Die Nummer ändert sich von T130 in T131.');
    expect(await row('T131')).toBeUndefined();
    const confirmed = await agent.post('/de/stammdaten/produkte/T130').type('form').send({ _csrf: csrfFrom(ask.text), ...body, confirmNr: 'T131' });
    expect(confirmed.headers.location).toBe('/de/stammdaten/produkte/T131');
    expect(await row('T130')).toBeUndefined();
    const versions = await request(t.app).get('/api/produkte/T131/versionen').set(admin);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.body.data[0].changes).toEqual([{ field: 'nr', before: 'T130', after: 'T131' }]);
  });

  it('gives another tenant\'s product as 404 and changes nothing', async () => {
    const nord = { Authorization: await token('ADMIN', 'Admin12345'), 'X-Mandant': 'NORD' };
    expect((await request(t.app).post('/api/produkte').set(nord).send(produkt('NORD1', { name: 'Nur im Norden' }))).status).toBe(201);
    expect((await request(t.app).get('/api/produkte/NORD1').set(admin)).status).toBe(404);
    expect((await request(t.app).put('/api/produkte/NORD1').set(admin).send(produkt('NORD1', { name: 'Gekapert' }))).status).toBe(404);
    expect((await request(t.app).delete('/api/produkte/NORD1').set(admin)).status).toBe(404);
    expect((await request(t.app).get('/api/produkte/NORD1/versionen').set(admin)).status).toBe(404);
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    expect((await agent.get('/de/stammdaten/produkte/NORD1')).status).toBe(404);
    expect((await row('NORD1', 'NORD')).name).toBe('Nur im Norden');
    // The same number in both tenants: a change in DEMO leaves NORD's product alone.
    await request(t.app).put('/api/produkte/P003').set(admin).send(produkt('P003', { name: 'Diesel B0 DEMO', biogehalt: '0', lcv: '36' }));
    expect((await row('P003', 'NORD')).name).toBe('Diesel B0');
  });

  it('lets a read-only user read, and refuses their writes with 403', async () => {
    const leser = { Authorization: await token('LESER', 'Leser12345'), 'X-Mandant': 'DEMO' };
    expect((await request(t.app).get('/api/produkte/P001').set(leser)).status).toBe(200);
    expect((await request(t.app).put('/api/produkte/P001').set(leser).send(produkt('P001'))).status).toBe(403);
    expect((await request(t.app).post('/api/produkte').set(leser).send(produkt('T140'))).status).toBe(403);
    expect((await request(t.app).delete('/api/produkte/P001').set(leser)).status).toBe(403);
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    const page = await agent.get('/de/stammdaten/produkte/P001');
    expect(page.text).not.toContain('<fieldset class="plain-fieldset"');
    expect(page.text).not.toContain('/stammdaten/produkte/P001/bearbeiten"');
    expect(page.text).not.toContain('/stammdaten/produkte/P001/delete');
    const post = await agent.post('/de/stammdaten/produkte/P001/delete').type('form').set('Referer', '/de/stammdaten/produkte/P001').send({ _csrf: csrfFrom(page.text) });
    expect(post.headers.location).toBe('/de/stammdaten/produkte/P001');
    expect((await row('P001')).name).toBe('Diesel B7');
    expect(await row('T140')).toBeUndefined();
  });

  it('refuses to delete a product that is referred to (409), and deletes one that is not', async () => {
    const scope = new TenantScope(t.db.knex, 'DEMO');
    await buildProdukt(scope, produkt('T150'));
    const delivery = await buildEinlieferung(scope, { produktNr: 'T150' });
    const inUse = await request(t.app).delete('/api/produkte/T150').set(admin);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe('Der Datensatz wird noch verwendet und kann nicht gelöscht werden. Deaktivieren Sie ihn stattdessen.');
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/produkte/T150');
    const refused = await agent.post('/de/stammdaten/produkte/T150/delete').type('form').send({ _csrf: csrfFrom(page.text) });
    expect(refused.headers.location).toBe('/de/stammdaten/produkte/T150');
    expect((await agent.get('/de/stammdaten/produkte/T150')).text).toContain('Der Datensatz wird noch verwendet');
    expect(await row('T150')).toBeTruthy();

    // The record service refuses the same way, inside its transaction, and writes no audit entry.
    const audits = async () => (await t.db.knex('audit_log').where({ entity: 'produkte', entity_id: 'T150' }).count({ n: '*' }))[0].n;
    const before = await audits();
    await expect(recordService(produktConfig).remove(scope, { user: { id: 1 }, mandant: 'DEMO' }, 'T150'))
      .rejects.toMatchObject({ kind: 'conflict', code: 'IN_USE' } satisfies Partial<ProblemError>);
    expect(await audits()).toBe(before);

    // Once the delivery is gone nothing refers to the product.
    await scope.transaction((tx) => einlieferungConfig.store.delete(tx, delivery.nr));
    expect((await request(t.app).delete('/api/produkte/T150').set(admin)).status).toBe(200);
    expect(await row('T150')).toBeUndefined();
    expect(await t.db.knex('produkte_versionen').where({ mandant: 'DEMO', nr: 'T150' }).first()).toBeUndefined();
  });

  it('asks before deleting on the page, naming what is lost; cancelling changes nothing, confirming deletes', async () => {
    await request(t.app).post('/api/produkte').set(admin).send(produkt('T160'));
    await request(t.app).put('/api/produkte/T160').set(admin).send(produkt('T160', { name: 'Zweite Fassung' }));
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/produkte/T160');
    const asked = await agent.post('/de/stammdaten/produkte/T160/delete').type('form').send({ _csrf: csrfFrom(page.text) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Löschen: Produkt T160?');
    expect(asked.text).toContain('Der Datensatz T160 wird mit allen 2 Versionen endgültig gelöscht. Das lässt sich nicht rückgängig machen.');
    // Cancelling is a link back to the record: nothing was deleted by the first step.
    expect(asked.text).toContain('href="/de/stammdaten/produkte/T160">Abbrechen, nichts ändern</a>');
    expect(await row('T160')).toBeTruthy();
    const done = await agent.post('/de/stammdaten/produkte/T160/delete').type('form').send({ _csrf: csrfFrom(asked.text), bestaetigt: 'ja' });
    expect(done.headers.location).toBe('/de/stammdaten/produkte');
    expect(await row('T160')).toBeUndefined();
  });

  it('lists with search, group filter, sort and a CSV with the groups in words', async () => {
    const list = await request(t.app).get('/api/produkte?produktgruppe=hvo&sort=name:asc').set(admin);
    expect(list.body.data.map((p: { nr: string }) => p.nr)).toEqual(expect.arrayContaining(['P017', 'P019', 'P020']));
    expect(list.body.data.every((p: { produktgruppe: string }) => p.produktgruppe === 'hvo')).toBe(true);
    expect((await request(t.app).get('/api/produkte?produktgruppe=kerosin').set(admin)).status).toBe(400);
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/produkte?q=rapsöl');
    expect(page.text).toContain('Rapsöl-Kraftstoff');
    expect(page.text).toContain('Pflanzenöl');
    const csv = await agent.get('/de/stammdaten/produkte?q=Super%20E10&format=csv');
    expect(csv.text).toContain('P009;Super E10;Benzin;EN 228, 95 ROZ;10,00;30,90;MJ/L;');
    const english = await agent.get('/en/stammdaten/produkte?produktgruppe=benzin');
    expect(english.text).toContain('Petrol');
    expect(english.text).toContain('Product group');
  });
});
