import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords.js';
import { TenantScope } from '../../db/scope.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { buildStandort, buildTauschpartner } from '../../testing/factories.js';
import { csrfFrom, signIn } from '../../testing/session.js';

let t: TestApp;
let admin: Record<string, string>;

/** A DEMO user with the given role rows (type @ location, null: all locations). */
async function createUser(login: string, password: string, rollen: [number, string | null][]) {
  const [{ id }] = await t.db
    .knex('benutzer')
    .insert({ login, email: `${login.toLowerCase()}@example.org`, vorname: 'Test', nachname: login, password_hash: await hashPassword(password) })
    .returning('id');
  await t.db.knex('benutzer_mandanten').insert({ mandant: 'DEMO', benutzer_id: id, admin_kz: false });
  await t.db.knex('rollen').insert(rollen.map(([typ, standortNr]) => ({ mandant: 'DEMO', benutzer_id: id, typ, standort_nr: standortNr })));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
  // Partner rights limited to location 1001: one reads (PartnerRead 5), one writes (PartnerWrite 6).
  await createUser('PLESER', 'Pleser12345', [[5, '1001']]);
  await createUser('PSCHREIBER', 'Pschreiber12345', [[6, '1001']]);
});
afterAll(() => t.close());

async function token(login: string, password: string) {
  return (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
}
const as = async (login: string, password: string) => ({ Authorization: await token(login, password), 'X-Mandant': 'DEMO' });

const partner = (nr: string, extra: Record<string, unknown> = {}) => ({
  nr, name: `Partner ${nr}`, strasse: 'Hafenweg', hausNr: '3', plz: '20457', stadt: 'Hamburg', land: 'Deutschland', email: 'dispo@partner.example', gruppe: 'Mineralölhandel', vertrag: 'TV-2025-0001', ...extra,
});

/** A new partner with rules at 1001 (priority 1, 7 %) and 1002 (priority 2, 5.000 L). */
async function partnerWithRules(nr: string) {
  expect((await request(t.app).post('/api/tauschpartner').set(admin).send(partner(nr))).status).toBe(201);
  const a = await request(t.app).post(`/api/tauschpartner/${nr}/regeln`).set(admin).send({ standortNr: '1001', prioritaet: 1, biogehalt: '7' });
  const b = await request(t.app).post(`/api/tauschpartner/${nr}/regeln`).set(admin).send({ standortNr: '1002', prioritaet: 2, biomenge: '5000', biomengeEinheit: 'L' });
  expect([a.status, b.status]).toEqual([201, 201]);
  return { at1001: a.body.data.id as number, at1002: b.body.data.id as number };
}

const demo = () => new TenantScope(t.db.knex, 'DEMO');
const versionOf = async (nr: string) => (await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr }).first('version')).version as number;
const rulesOf = (nr: string, mandant = 'DEMO') => t.db.knex('tauschpartner_regeln').where({ mandant, partner_nr: nr }).orderBy('id');
const errorsOf = (body: { errors: { field: string; message: string }[] }) => Object.fromEntries(body.errors.map((e) => [e.field, e.message]));

describe('Tauschpartner', () => {
  it('has 30 seeded partners with rules, each with a first version that holds its rules', async () => {
    const list = await request(t.app).get('/api/tauschpartner?pageSize=100').set(admin);
    expect(list.body.total).toBe(30);
    expect(list.body.data[0]).not.toHaveProperty('regeln');
    const withoutRules = await t.db.knex('tauschpartner as p').where('p.mandant', 'DEMO')
      .whereNotExists((q) => q.from('tauschpartner_regeln as r').whereRaw('r.mandant = p.mandant and r.partner_nr = p.nr')).select('p.nr');
    expect(withoutRules).toEqual([]);
    const versions = await request(t.app).get('/api/tauschpartner/TP001/versionen').set(admin);
    expect(versions.body.data).toHaveLength(1);
    const rules = (await request(t.app).get('/api/tauschpartner/TP001/regeln').set(admin)).body.data;
    const snapshot = versions.body.data[0].data.regeln;
    expect(Object.values(snapshot).flat()).toHaveLength(rules.length);
  });

  it('creates, reads, and saves a change as a new version with the difference', async () => {
    const created = await request(t.app).post('/api/tauschpartner').set(admin).send(partner('T200', { name: 'Elbe Energie GmbH' }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ nr: 'T200', name: 'Elbe Energie GmbH', email: 'dispo@partner.example', vertrag: 'TV-2025-0001', version: 1, status: 'aktiv', regeln: null });
    expect((await request(t.app).get('/api/tauschpartner/T200').set(admin)).body.data.gruppe).toBe('Mineralölhandel');
    const updated = await request(t.app).put('/api/tauschpartner/T200').set(admin).send({ ...partner('T200', { name: 'Elbe Energie GmbH', vertrag: 'TV-2026-0002' }), version: 1 });
    expect(updated.body.data.version).toBe(2);
    const versions = await request(t.app).get('/api/tauschpartner/T200/versionen').set(admin);
    expect(versions.body.data[0].changes).toEqual([{ field: 'vertrag', before: 'TV-2025-0001', after: 'TV-2026-0002' }]);
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/tauschpartner/T200');
    expect((await agent.get('/de/stammdaten/tauschpartner/T200?tab=versionen')).text).toMatch(/<th scope="row">Vertragsnummer<\/th><td>TV-2025-0001<\/td><td>TV-2026-0002<\/td>/);
    expect(page.text).toContain('Keine Regeln vorhanden.');
  });

  it('speaks section 3\'s names on the API: group (gruppe still accepted and answered), a rule\'s priority (prioritaet too)', async () => {
    const { gruppe: _gruppe, ...withoutGruppe } = partner('T250');
    const created = await request(t.app).post('/api/tauschpartner').set(admin).send({ ...withoutGruppe, group: 'Raffinerie' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ group: 'Raffinerie', gruppe: 'Raffinerie' });
    expect(await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr: 'T250' }).first('gruppe')).toEqual({ gruppe: 'Raffinerie' });
    expect((await request(t.app).get('/api/tauschpartner/T250').set(admin)).body.data).toMatchObject({ group: 'Raffinerie', gruppe: 'Raffinerie' });
    expect((await request(t.app).get('/api/tauschpartner?q=T250').set(admin)).body.data).toEqual([expect.objectContaining({ nr: 'T250', group: 'Raffinerie' })]);
    // The old name alone, or both with one value, is fine; both with different values is a 400 naming `group`.
    const old = await request(t.app).put('/api/tauschpartner/T250').set(admin).send({ ...partner('T250'), version: 1 });
    expect(old.body.data).toMatchObject({ group: 'Mineralölhandel', version: 2 });
    expect((await request(t.app).put('/api/tauschpartner/T250').set(admin).send({ ...partner('T250'), group: 'Mineralölhandel' })).status).toBe(200);
    const both = await request(t.app).put('/api/tauschpartner/T250').set(admin).send({ ...partner('T250'), group: 'Raffinerie' });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([{ field: 'group', message: '„group“ und „gruppe“ sind dasselbe Feld mit verschiedenen Werten; bitte nur eines angeben.' }]);
    // A refused value is named as it was sent.
    const tooLong = await request(t.app).put('/api/tauschpartner/T250').set(admin).send({ ...withoutGruppe, group: 'x'.repeat(101) });
    expect(errorsOf(tooLong.body)).toEqual({ group: 'Zu lang' });
    expect(await versionOf('T250')).toBe(2);

    const rule = await request(t.app).post('/api/tauschpartner/T250/regeln').set(admin).send({ standortNr: '1001', priority: 3, biogehalt: '7' });
    expect(rule.status).toBe(201);
    expect(rule.body.data).toMatchObject({ priority: 3, prioritaet: 3 });
    const changed = await request(t.app).put(`/api/tauschpartner/T250/regeln/${rule.body.data.id}`).set(admin).send({ standortNr: '1001', prioritaet: 4, biogehalt: '7' });
    expect(changed.body.data).toMatchObject({ priority: 4, prioritaet: 4 });
    const clash = await request(t.app).post('/api/tauschpartner/T250/regeln').set(admin).send({ standortNr: '1002', priority: 1, prioritaet: 2, biogehalt: '7' });
    expect(clash.status).toBe(400);
    expect(clash.body.errors.map((e: { field: string }) => e.field)).toEqual(['priority']);
    expect(errorsOf((await request(t.app).post('/api/tauschpartner/T250/regeln').set(admin).send({ standortNr: '1002', priority: 0, biogehalt: '7' })).body)).toHaveProperty('priority');
    expect((await request(t.app).get('/api/tauschpartner/T250/regeln').set(admin)).body.data).toEqual([expect.objectContaining({ priority: 4, prioritaet: 4 })]);
    expect((await request(t.app).get('/api/tauschpartner/T250').set(admin)).body.data.regeln).toEqual({ 1001: [expect.objectContaining({ priority: 4, prioritaet: 4 })] });
    // Pages keep the stored names.
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    expect((await agent.get('/de/stammdaten/tauschpartner/T250/bearbeiten')).text).toMatch(/name="gruppe"/);
  });

  it('validates each field by name and changes nothing', async () => {
    const res = await request(t.app).post('/api/tauschpartner').set(admin).send({ nr: 'neu', name: ' ', email: 'kein-at', plz: 'x'.repeat(21) });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual({
      nr: 'Nur Buchstaben, Ziffern, Punkt, Binde- und Unterstrich (nicht „neu“)', name: 'Pflichtfeld', email: 'Keine gültige E-Mail-Adresse', plz: 'Zu lang',
    });
    const dup = await request(t.app).post('/api/tauschpartner').set(admin).send(partner('TP001'));
    expect(errorsOf(dup.body)).toEqual({ nr: 'Diese Nummer ist bereits vergeben.' });
    expect(await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr: 'neu' }).first()).toBeUndefined();
  });

  it('asks before changing the number, then moves the partner with its rules and history', async () => {
    await partnerWithRules('T210');
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/stammdaten/tauschpartner/T210');
    const version = String(await versionOf('T210'));
    const body = { ...partner('T210'), nr: 'T211', version };
    const ask = await agent.post('/de/stammdaten/tauschpartner/T210').type('form').send({ _csrf: csrfFrom(page.text), ...body });
    expect(ask.text).toContain('Nummer wirklich ändern?');
    expect(await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr: 'T211' }).first()).toBeUndefined();
    const confirmed = await agent.post('/de/stammdaten/tauschpartner/T210').type('form').send({ _csrf: csrfFrom(ask.text), ...body, confirmNr: 'T211' });
    expect(confirmed.headers.location).toBe('/de/stammdaten/tauschpartner/T211');
    expect((await rulesOf('T211')).map((r) => r.standort_nr)).toEqual(['1001', '1002']);
    expect(await rulesOf('T210')).toEqual([]);
    const versions = await request(t.app).get('/api/tauschpartner/T211/versionen').set(admin);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([4, 3, 2, 1]);
  });

  it('gives another tenant\'s partner and its rules as 404 and changes nothing', async () => {
    const nord = { Authorization: await token('ADMIN', 'Admin12345'), 'X-Mandant': 'NORD' };
    await request(t.app).post('/api/tauschpartner').set(nord).send(partner('NORD1', { name: 'Nordpartner' }));
    const rule = await request(t.app).post('/api/tauschpartner/NORD1/regeln').set(nord).send({ standortNr: '2001', prioritaet: 1, biogehalt: '10' });
    expect(rule.status).toBe(201);
    const id = rule.body.data.id;
    expect((await request(t.app).get('/api/tauschpartner/NORD1').set(admin)).status).toBe(404);
    expect((await request(t.app).put('/api/tauschpartner/NORD1').set(admin).send(partner('NORD1', { name: 'Gekapert' }))).status).toBe(404);
    expect((await request(t.app).get('/api/tauschpartner/NORD1/regeln').set(admin)).status).toBe(404);
    expect((await request(t.app).post('/api/tauschpartner/NORD1/regeln').set(admin).send({ standortNr: '1001', prioritaet: 1, biogehalt: '1' })).status).toBe(404);
    expect((await request(t.app).put(`/api/tauschpartner/NORD1/regeln/${id}`).set(admin).send({ standortNr: '2001', prioritaet: 1, biogehalt: '99' })).status).toBe(404);
    expect((await request(t.app).delete(`/api/tauschpartner/NORD1/regeln/${id}`).set(admin)).status).toBe(404);
    // A NORD rule id under a DEMO partner is no rule of that partner.
    await partnerWithRules('T220');
    expect((await request(t.app).put(`/api/tauschpartner/T220/regeln/${id}`).set(admin).send({ standortNr: '1001', prioritaet: 9, biogehalt: '1' })).status).toBe(404);
    expect((await request(t.app).delete(`/api/tauschpartner/T220/regeln/${id}`).set(admin)).status).toBe(404);
    // A NORD location is no location of DEMO.
    const foreign = await request(t.app).post('/api/tauschpartner/T220/regeln').set(admin).send({ standortNr: '2001', prioritaet: 1, biogehalt: '1' });
    expect(foreign.status).toBe(400);
    expect(errorsOf(foreign.body)).toEqual({ standortNr: 'Diesen Standort gibt es nicht.' });
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    expect((await agent.get('/de/stammdaten/tauschpartner/NORD1')).status).toBe(404);
    expect((await t.db.knex('tauschpartner').where({ mandant: 'NORD', nr: 'NORD1' }).first()).name).toBe('Nordpartner');
    expect((await rulesOf('NORD1', 'NORD')).map((r) => Number(r.biogehalt))).toEqual([10]);
  });

  it('refuses writes of users without the write right (403), and partners to users without any right', async () => {
    const pleser = await as('PLESER', 'Pleser12345');
    expect((await request(t.app).get('/api/tauschpartner/TP001').set(pleser)).status).toBe(200);
    expect((await request(t.app).put('/api/tauschpartner/TP001').set(pleser).send(partner('TP001'))).status).toBe(403);
    expect((await request(t.app).post('/api/tauschpartner').set(pleser).send(partner('T230'))).status).toBe(403);
    expect((await request(t.app).delete('/api/tauschpartner/TP001').set(pleser)).status).toBe(403);
    expect((await request(t.app).post('/api/tauschpartner/TP001/regeln').set(pleser).send({ standortNr: '1001', prioritaet: 9, biogehalt: '1' })).status).toBe(403);
    const leser = await as('LESER', 'Leser12345'); // products and locations only
    expect((await request(t.app).get('/api/tauschpartner').set(leser)).status).toBe(403);
    expect((await request(t.app).get('/api/tauschpartner/TP001/regeln').set(leser)).status).toBe(403);
    expect((await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr: 'TP001' }).first()).name).toBe('Hansa Mineralöl Handels-GmbH');

    const agent = await signIn(t.app, 'PLESER', 'Pleser12345');
    const page = await agent.get('/de/stammdaten/tauschpartner/TP001');
    expect(page.text).not.toContain('id="regel-form"');
    const post = await agent.post('/de/stammdaten/tauschpartner/TP001/regeln').type('form').set('Referer', '/de/stammdaten/tauschpartner/TP001')
      .send({ _csrf: csrfFrom(page.text), standortNr: '1001', prioritaet: '9', biogehalt: '1' });
    expect(post.headers.location).toBe('/de/stammdaten/tauschpartner/TP001');
    expect((await rulesOf('TP001')).some((r) => r.prioritaet === 9)).toBe(false);
  });

  it('refuses to delete a location a rule refers to (409), and a partner whose rules lie outside the user\'s locations', async () => {
    await buildStandort(demo(), { nr: '1099', name: 'Depot Test' });
    await buildTauschpartner(demo(), partner('T240'));
    await request(t.app).post('/api/tauschpartner/T240/regeln').set(admin).send({ standortNr: '1099', prioritaet: 1, biogehalt: '7' });
    const inUse = await request(t.app).delete('/api/standorte/1099').set(admin);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe('Der Datensatz wird noch verwendet und kann nicht gelöscht werden. Deaktivieren Sie ihn stattdessen.');

    await partnerWithRules('T241');
    const schreiber = await as('PSCHREIBER', 'Pschreiber12345');
    expect((await request(t.app).delete('/api/tauschpartner/T241').set(schreiber)).status).toBe(409);
    expect(await rulesOf('T241')).toHaveLength(2);
    // An administrator may: the rules go with the partner.
    expect((await request(t.app).delete('/api/tauschpartner/T241').set(admin)).status).toBe(200);
    expect(await rulesOf('T241')).toEqual([]);
    expect(await t.db.knex('tauschpartner_versionen').where({ mandant: 'DEMO', nr: 'T241' }).first()).toBeUndefined();
  });
});

describe('Rules of a partner', () => {
  it('adds, changes and deletes rules through the API, each change a new partner version that shows the rules', async () => {
    await request(t.app).post('/api/tauschpartner').set(admin).send(partner('T300'));
    const added = await request(t.app).post('/api/tauschpartner/T300/regeln').set(admin).send({ standortNr: '1001', prioritaet: '1', biogehalt: '7,5' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      success: true,
      data: { standortNr: '1001', standortName: 'Tanklager Hamburg-Waltershof', prioritaet: 1, biogehalt: '7.5', biomenge: null, biomengeEinheit: null },
      partner: { nr: 'T300', version: 2 },
    });
    const id = added.body.data.id;
    const changed = await request(t.app).put(`/api/tauschpartner/T300/regeln/${id}`).set(admin).send({ standortNr: '1001', prioritaet: 1, biogehalt: '7,5', biomenge: '12.000,5', biomengeEinheit: 'kg' });
    expect(changed.body).toMatchObject({ data: { id, biomenge: '12000.5', biomengeEinheit: 'kg' }, partner: { version: 3 } });
    // The same values again: no version.
    const same = await request(t.app).put(`/api/tauschpartner/T300/regeln/${id}`).set(admin).send({ standortNr: '1001', prioritaet: 1, biogehalt: '7.50', biomenge: '12000.500', biomengeEinheit: 'kg' });
    expect(same.body.partner.version).toBe(3);
    const list = await request(t.app).get('/api/tauschpartner/T300/regeln').set(admin);
    expect(list.body).toMatchObject({ total: 1, data: [{ id, prioritaet: 1 }] });

    const versions = (await request(t.app).get('/api/tauschpartner/T300/versionen').set(admin)).body.data;
    expect(versions[0]).toMatchObject({
      version: 3,
      changes: [{
        field: 'regeln',
        before: { 1001: [{ prioritaet: 1, biogehalt: '7.5', biomenge: null, biomengeEinheit: null }] },
        after: { 1001: [{ prioritaet: 1, biogehalt: '7.5', biomenge: '12000.5', biomengeEinheit: 'kg' }] },
      }],
    });
    expect(versions[0].data.regeln).toEqual(versions[0].changes[0].after);

    const deleted = await request(t.app).delete(`/api/tauschpartner/T300/regeln/${id}`).set(admin);
    expect(deleted.body).toEqual({ success: true, partner: { nr: 'T300', version: 4 } });
    expect(await rulesOf('T300')).toEqual([]);
    const after = (await request(t.app).get('/api/tauschpartner/T300').set(admin)).body.data;
    expect(after).toMatchObject({ version: 4, regeln: null });
    expect((await request(t.app).delete(`/api/tauschpartner/T300/regeln/${id}`).set(admin)).status).toBe(404);
    expect((await request(t.app).put('/api/tauschpartner/T300/regeln/abc').set(admin).send({})).status).toBe(404);

    const audit = await t.db.knex('audit_log').where({ entity: 'tauschpartner', entity_id: 'T300' }).orderBy('id').pluck('kind');
    expect(audit).toEqual(['stammdaten.tauschpartner.create', 'stammdaten.tauschpartner.regel.create', 'stammdaten.tauschpartner.regel.update', 'stammdaten.tauschpartner.regel.update', 'stammdaten.tauschpartner.regel.delete']);
  });

  it('validates a rule: location, priority, bio content and/or quantity, the quantity\'s unit', async () => {
    await partnerWithRules('T310');
    const post = (body: Record<string, unknown>) => request(t.app).post('/api/tauschpartner/T310/regeln').set(admin).send(body);
    const before = await versionOf('T310');

    expect(errorsOf((await post({})).body)).toEqual({
      standortNr: 'Pflichtfeld', prioritaet: 'Pflichtfeld',
      biogehalt: 'Bitte geben Sie einen Biogehalt und/oder eine Biomenge an.', biomenge: 'Bitte geben Sie einen Biogehalt und/oder eine Biomenge an.',
    });
    expect(errorsOf((await post({ standortNr: '1003', prioritaet: '0', biogehalt: '100,5', biomenge: '-1' })).body)).toEqual({
      prioritaet: 'Erlaubt sind Werte von 1 bis 1.000.000', biogehalt: 'Erlaubt sind Werte von 0 bis 100', biomenge: 'Erlaubt sind Werte von 0 bis 999.999.999.999.999',
    });
    expect(errorsOf((await post({ standortNr: '1003', prioritaet: '1,5', biogehalt: '12,5,0' })).body)).toEqual({
      prioritaet: 'Zu viele Nachkommastellen', biogehalt: 'Keine gültige Zahl (z. B. 12,5 oder 12.5)',
    });
    expect(errorsOf((await post({ standortNr: '1003', prioritaet: 1, biomenge: '5000' })).body)).toEqual({
      biomengeEinheit: 'Bitte wählen Sie die Einheit der Biomenge (L oder kg).',
    });
    expect(errorsOf((await post({ standortNr: '1003', prioritaet: 1, biomenge: '5000', biomengeEinheit: 'm3' })).body)).toEqual({ biomengeEinheit: 'Ungültiger Wert' });
    expect(errorsOf((await post({ standortNr: '9999', prioritaet: 1, biogehalt: '5' })).body)).toEqual({ standortNr: 'Diesen Standort gibt es nicht.' });
    expect(errorsOf((await post({ standortNr: '1001', prioritaet: 1, biogehalt: '5' })).body)).toEqual({
      prioritaet: 'Für diesen Standort gibt es bereits eine Regel mit dieser Priorität.',
    });
    expect(await rulesOf('T310')).toHaveLength(2);
    expect(await versionOf('T310')).toBe(before);

    // German and English decimals; a unit without a quantity is dropped.
    const ok = await post({ standortNr: '1003', prioritaet: 1, biogehalt: '12,5', biomengeEinheit: 'kg' });
    expect(ok.body.data).toMatchObject({ biogehalt: '12.5', biomenge: null, biomengeEinheit: null });
    const english = await post({ standortNr: '1003', prioritaet: 2, biogehalt: '12.5' });
    expect(english.body.data.biogehalt).toBe('12.5');
  });

  it('refuses a change based on an older partner version (409)', async () => {
    const { at1001 } = await partnerWithRules('T320');
    const current = await versionOf('T320');
    const stale = await request(t.app).put(`/api/tauschpartner/T320/regeln/${at1001}`).set(admin).send({ standortNr: '1001', prioritaet: 1, biogehalt: '9', version: current - 1 });
    expect(stale.status).toBe(409);
    const ifMatch = await request(t.app).delete(`/api/tauschpartner/T320/regeln/${at1001}`).set(admin).set('If-Match', `"${current - 1}"`);
    expect(ifMatch.status).toBe(409);
    const fresh = await request(t.app).put(`/api/tauschpartner/T320/regeln/${at1001}`).set(admin).send({ standortNr: '1001', prioritaet: 1, biogehalt: '9', version: current });
    expect(fresh.status).toBe(200);
  });

  it('shows a user limited to location 1001 only the rules of 1001, on the page, in the history and in the API', async () => {
    await partnerWithRules('T330');
    const pleser = await as('PLESER', 'Pleser12345');
    const rules = await request(t.app).get('/api/tauschpartner/T330/regeln').set(pleser);
    expect(rules.body.data.map((r: { standortNr: string }) => r.standortNr)).toEqual(['1001']);
    const record = (await request(t.app).get('/api/tauschpartner/T330').set(pleser)).body.data;
    expect(Object.keys(record.regeln)).toEqual(['1001']);
    const versions = (await request(t.app).get('/api/tauschpartner/T330/versionen').set(pleser)).body.data;
    expect(JSON.stringify(versions)).not.toContain('1002');
    // The version that only added the rule at 1002 shows no change to this user.
    expect(versions[0].changes).toEqual([]);
    const all = (await request(t.app).get('/api/tauschpartner/T330/versionen').set(admin)).body.data;
    expect(all[0].changes[0].after).toHaveProperty('1002');

    const agent = await signIn(t.app, 'PLESER', 'Pleser12345');
    const page = await agent.get('/de/stammdaten/tauschpartner/T330');
    expect(page.status).toBe(200);
    expect(page.text).toContain('1001 – Tanklager Hamburg-Waltershof');
    // As a word: the page's CSRF token and nonce are random hex, which may hold the digits 1002.
    expect(page.text).not.toMatch(/\b1002\b/);
    const history = await agent.get('/de/stammdaten/tauschpartner/T330?tab=versionen');
    expect(history.text).toContain('Standort 1001, Priorität 1: Biogehalt 7 %');
    expect(history.text).not.toMatch(/\b1002\b/);
    expect(page.text).toContain('Sie sehen nur die Regeln Ihrer Standorte.');
  });

  it('lets a user limited to location 1001 change rules there and nowhere else', async () => {
    const { at1001, at1002 } = await partnerWithRules('T340');
    const schreiber = await as('PSCHREIBER', 'Pschreiber12345');
    const added = await request(t.app).post('/api/tauschpartner/T340/regeln').set(schreiber).send({ standortNr: '1001', prioritaet: 3, biomenge: '1000', biomengeEinheit: 'L' });
    expect(added.status).toBe(201);
    const elsewhere = await request(t.app).post('/api/tauschpartner/T340/regeln').set(schreiber).send({ standortNr: '1003', prioritaet: 3, biogehalt: '5' });
    expect(elsewhere.status).toBe(403);
    expect(errorsOf(elsewhere.body)).toEqual({ standortNr: 'Für diesen Standort haben Sie keine Berechtigung.' });
    // Moving a rule of 1001 to another location is refused too.
    expect((await request(t.app).put(`/api/tauschpartner/T340/regeln/${at1001}`).set(schreiber).send({ standortNr: '1002', prioritaet: 7, biogehalt: '5' })).status).toBe(403);
    // Rules of 1002 do not exist for this user.
    expect((await request(t.app).put(`/api/tauschpartner/T340/regeln/${at1002}`).set(schreiber).send({ standortNr: '1001', prioritaet: 7, biogehalt: '5' })).status).toBe(404);
    expect((await request(t.app).delete(`/api/tauschpartner/T340/regeln/${at1002}`).set(schreiber)).status).toBe(404);
    expect((await rulesOf('T340')).map((r) => `${r.standort_nr}/${r.prioritaet}`)).toEqual(['1001/1', '1002/2', '1001/3']);

    // The page offers only 1001 and refuses another location posted by hand.
    const agent = await signIn(t.app, 'PSCHREIBER', 'Pschreiber12345');
    const page = await agent.get('/de/stammdaten/tauschpartner/T340');
    const select = page.text.match(/<select id="regel-standortNr"[\s\S]*?<\/select>/)![0];
    expect(select).toContain('value="1001"');
    expect(select).not.toContain('value="1002"');
    const refused = await agent.post('/de/stammdaten/tauschpartner/T340/regeln').type('form')
      .send({ _csrf: csrfFrom(page.text), standortNr: '1002', prioritaet: '5', biogehalt: '5' });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/id="regel-standortNr-error"[\s\S]*?Für diesen Standort haben Sie keine Berechtigung\./);
    expect(await rulesOf('T340')).toHaveLength(3);
  });

  it('adds, edits and deletes a rule through the page forms, with the change in the partner\'s history', async () => {
    await buildTauschpartner(demo(), partner('T350'));
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    let page = await agent.get('/de/stammdaten/tauschpartner/T350');
    expect(page.text).toContain('Regel hinzufügen');

    // A mistake shows in the rules form, with the input kept.
    const bad = await agent.post('/de/stammdaten/tauschpartner/T350/regeln').type('form')
      .send({ _csrf: csrfFrom(page.text), version: '1', standortNr: '1002', prioritaet: '', biogehalt: '', biomenge: '25000', biomengeEinheit: '' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="regel-prioritaet-error"[\s\S]*?Pflichtfeld/);
    expect(bad.text).toMatch(/id="regel-biomengeEinheit-error"[\s\S]*?Bitte wählen Sie die Einheit der Biomenge/);
    expect(bad.text).toMatch(/<option value="1002"\s+selected>/);
    expect(bad.text).toContain('value="25000"');

    const add = await agent.post('/de/stammdaten/tauschpartner/T350/regeln').type('form')
      .send({ _csrf: csrfFrom(page.text), version: '1', standortNr: '1002', prioritaet: '2', biogehalt: '', biomenge: '25000', biomengeEinheit: 'L' });
    expect(add.status).toBe(302);
    expect(add.headers.location).toBe('/de/stammdaten/tauschpartner/T350#regeln');
    page = await agent.get('/de/stammdaten/tauschpartner/T350');
    expect(page.text).toContain('Die Regel wurde hinzugefügt.');
    expect(page.text).toContain('1002 – Depot Hannover-Linden');
    expect(page.text).toContain('25.000\u00a0L');
    expect((await agent.get('/de/stammdaten/tauschpartner/T350?tab=versionen')).text).toMatch(/<th scope="row">Regeln<\/th><td>–<\/td><td>Standort 1002, Priorität 2: Biomenge 25.000 L<\/td>/);
    const [rule] = await rulesOf('T350');

    const edit = await agent.get(`/de/stammdaten/tauschpartner/T350?regel=${rule.id}`);
    expect(edit.text).toContain('Regel bearbeiten');
    expect(edit.text).toContain(`action="/de/stammdaten/tauschpartner/T350/regeln/${rule.id}#regel-form"`);
    // Stored numbers come back without grouping, so saving them unchanged keeps them.
    expect(edit.text).toMatch(/id="regel-biomenge"[^>]*value="25000"/);
    const saved = await agent.post(`/de/stammdaten/tauschpartner/T350/regeln/${rule.id}`).type('form')
      .send({ _csrf: csrfFrom(edit.text), version: '2', standortNr: '1002', prioritaet: '2', biogehalt: '6,5', biomenge: '25000', biomengeEinheit: 'L' });
    expect(saved.headers.location).toBe('/de/stammdaten/tauschpartner/T350#regeln');
    page = await agent.get('/de/stammdaten/tauschpartner/T350');
    expect(page.text).toContain('Version 3');
    expect((await agent.get('/de/stammdaten/tauschpartner/T350?tab=versionen')).text).toContain('Standort 1002, Priorität 2: Biogehalt 6,5 %, Biomenge 25.000 L');

    // A form of an older version is refused and says why.
    const stale = await agent.post(`/de/stammdaten/tauschpartner/T350/regeln/${rule.id}/delete`).type('form').send({ _csrf: csrfFrom(page.text), version: '2', bestaetigt: 'ja' });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('Der Datensatz wurde inzwischen von jemand anderem geändert.');

    // Deleting asks first, naming the rule; that step changes nothing.
    const asked = await agent.post(`/de/stammdaten/tauschpartner/T350/regeln/${rule.id}/delete`).type('form').send({ _csrf: csrfFrom(page.text), version: '3' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Regel für Standort 1002 (Priorität 2) löschen?');
    expect(asked.text).toContain('href="/de/stammdaten/tauschpartner/T350#regeln"');
    expect(await versionOf('T350')).toBe(3);
    const del = await agent.post(`/de/stammdaten/tauschpartner/T350/regeln/${rule.id}/delete`).type('form').send({ _csrf: csrfFrom(asked.text), version: '3', bestaetigt: 'ja' });
    expect(del.headers.location).toBe('/de/stammdaten/tauschpartner/T350#regeln');
    page = await agent.get('/de/stammdaten/tauschpartner/T350');
    expect(page.text).toContain('Die Regel wurde gelöscht.');
    expect(page.text).toContain('Keine Regeln vorhanden.');
    expect(await versionOf('T350')).toBe(4);
    const english = await agent.get('/en/stammdaten/tauschpartner/T350?tab=versionen');
    expect(english.text).toContain('Location 1002, priority 2: bio content 6.5 %, bio quantity 25,000 L');
  });
});
