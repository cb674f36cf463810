// Abholungen (collections) and the link of an Einlieferung to one, through HTTP against the real database:
// pages and API, what is stored (rows, versions, audit entries), tenant and location scope, rights.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verknuepfungStatus } from '../../domain/lieferkette.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
type Auth = Record<string, string>;
let voll: Auth;
let lager: Auth;
let leser: Auth;
let nord: Auth;

const PASSWORT = 'Abholung12345';
const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

beforeAll(async () => {
  t = await createTestApp();
  // Collections (7, 8), inbound deliveries (9, 10) and certificates (21, 22): everywhere, or at Hamburg (1001) only.
  const alles = (standortNr: string | null) => [7, 8, 9, 10, 21, 22].map((typ) => ({ typ, standortNr }));
  await createUserWithRoles(t.db.knex, 'ABHOLER', PASSWORT, alles(null));
  await createUserWithRoles(t.db.knex, 'ABHLAGER', PASSWORT, alles('1001'));
  // A reader of all three, as the demo's read roles give it (src/seeds/demo.ts READ_ALL: 7, 9, 21).
  await createUserWithRoles(t.db.knex, 'ABHLESER', PASSWORT, [7, 9, 21].map((typ) => ({ typ, standortNr: null })));
  voll = await as('ABHOLER', PASSWORT);
  lager = await as('ABHLAGER', PASSWORT);
  leser = await as('ABHLESER', PASSWORT);
  nord = await as('ADMIN', 'Admin12345', 'NORD');
});
afterAll(() => t.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
let seq = 0;
const next = (prefix: string) => `${prefix}-${++seq}`;

/** A valid certificate of 10,000 L FAME from used cooking oil (E 10), at Hamburg unless said otherwise. */
const zertifikat = (over: Record<string, unknown> = {}) => ({
  nr: next('AZ'), ausstellungsdatum: '2026-03-02', zeitraumVon: '2026-01-01', zeitraumBis: '2026-03-31', zertifizierungssystem: 'ISCC EU',
  schema: 'massenbilanz', redIIKonform: true, standortNr: '1001', produktNr: 'P013', menge: '10000', einheit: 'L', lieferungVon: '2026-02-01',
  lieferungBis: '2026-02-15', rohstoff: 'altspeiseoel', herkunftsland: 'DE', abfall: true, nachhaltig: true, anlageInbetriebnahme: '2019-05-01',
  eec: '0', el: '0', ep: '6.5', etd: '3.5', eu: '0', esca: '0', eccs: '0', eccr: '0', gesamtStandardwert: '10', lieferant: 'Ölmühle Nord GmbH', ...over,
});
async function neuesZertifikat(over: Record<string, unknown> = {}, auth = voll): Promise<string> {
  const res = await request(t.app).post('/api/nachweise').set(auth).send(zertifikat(over));
  expect(res.status, res.text).toBe(201);
  return res.body.data.nr;
}

const abholung = (nachweise: unknown, over: Record<string, unknown> = {}) => ({
  nr: next('AB'), lieferdatum: daysAgo(10), lieferstelleNr: '1001', lieferant: 'Ölmühle Nord GmbH', produktgruppe: 'biodiesel', kraftstoffmenge: '10000',
  nachweise, ...over,
});
async function neueAbholung(over: Record<string, unknown> = {}, auth = voll): Promise<string> {
  const nachweise = over.nachweise ?? [await neuesZertifikat({ standortNr: over.lieferstelleNr ?? '1001' }, auth)];
  const res = await request(t.app).post('/api/abholungen').set(auth).send(abholung(nachweise, over));
  expect(res.status, res.text).toBe(201);
  return res.body.data.nr;
}

/** An inbound delivery of biodiesel (P013) at Hamburg unless said otherwise. */
async function neueEinlieferung(over: Record<string, unknown> = {}, auth = voll): Promise<string> {
  const nr = (over.nr as string | undefined) ?? next('AE');
  const res = await request(t.app).post('/api/einlieferungen').set(auth)
    .send({ entladedatum: daysAgo(3), entladeneMenge: '9800', unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P013', ...over, nr });
  expect(res.status, res.text).toBe(201);
  return nr;
}

const link = (e: string, a: string, auth = voll) => request(t.app).put(`/api/einlieferungen/${e}/abholung`).set(auth).send({ abholungNr: a });
const unlink = (e: string, auth = voll) => request(t.app).delete(`/api/einlieferungen/${e}/abholung`).set(auth);
const einlieferungRow = (nr: string, mandant = 'DEMO') => t.db.knex('einlieferungen').where({ mandant, nr }).first();
const counts = async () => ({
  abholungen: Number((await t.db.knex('abholungen').count({ c: '*' }))[0].c),
  nachweise: Number((await t.db.knex('abholung_nachweise').count({ c: '*' }))[0].c),
  versionen: Number((await t.db.knex('abholungen_versionen').count({ c: '*' }))[0].c),
});
const audits = (kind: string, entityId: string) => t.db.knex('audit_log').where({ kind, entity_id: entityId }).count({ c: '*' }).then((r) => Number(r[0].c));

describe('Abholungen: create with certificates', () => {
  it('creates through the API with certificates as numbers or objects; the working table and the versions follow the list', async () => {
    const [n1, n2] = [await neuesZertifikat(), await neuesZertifikat({ vorlaeufig: true })];
    const body = abholung([{ nachweisNr: n1 }, { nachweisNr: n2 }], { bilanzierungNr: 'BIL-7', menge: '9000', volumen: '10000', anteil: '100', biogehalt: '100' });
    const res = await request(t.app).post('/api/abholungen').set(voll).send(body);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ nr: body.nr, nachweise: [n1, n2], einheit: 'L', kraftstoffmenge: '10000.000', storniert: false, version: 1 });
    expect(await t.db.knex('abholung_nachweise').where({ mandant: 'DEMO', abholung_nr: body.nr }).orderBy('nachweis_nr').pluck('nachweis_nr')).toEqual([n1, n2].sort());
    expect(await audits('bewegungsdaten.abholungen.create', body.nr)).toBe(1);

    // GET of one: Lieferstelle with name, each certificate with its characteristics, the linked deliveries.
    const got = await request(t.app).get(`/api/abholungen/${body.nr}`).set(voll);
    expect(got.status).toBe(200);
    expect(got.body.data.lieferstelle).toEqual({ nr: '1001', name: 'Tanklager Hamburg-Waltershof' });
    expect(got.body.data.einlieferungen).toEqual([]);
    expect(got.body.data.nachweise).toHaveLength(2);
    expect(got.body.data.nachweise[0]).toEqual({
      nachweisNr: n1, nnwAnteil: '100', thgEmission: '10.00', attributAnnexIx: true, anbauland: 'DE', rohstoff: 'altspeiseoel', biomasseArt: null,
      biomasseCode: null, nnwEnergie: expect.any(String), nnwProduktName: 'Biodiesel B100 (FAME)', nnwProduktNr: 'P013', zertifizierungssystem: 'ISCC EU', vorlaeufig: false,
    });
    expect(Number(got.body.data.nachweise[0].nnwEnergie)).toBe(330000);
    expect(got.body.data.nachweise[1]).toMatchObject({ nachweisNr: n2, vorlaeufig: true });

    // An edit without certificates keeps them; the list row carries the numbers.
    const edit = await request(t.app).put(`/api/abholungen/${body.nr}`).set(voll).send({ ...body, nachweise: undefined, kommentar: 'geprüft', version: 1 });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data).toMatchObject({ nachweise: [n1, n2], kommentar: 'geprüft', version: 2 });
    const listed = await request(t.app).get(`/api/abholungen?q=${body.nr}`).set(voll);
    expect(listed.body.data).toMatchObject([{ nr: body.nr, nachweise: [n1, n2], anzahlNachweise: 2, anzahlEinlieferungen: 0, lieferstelleName: 'Tanklager Hamburg-Waltershof' }]);

    // Certificates added and removed as actions: a new version each, the working table in step, audited.
    const n3 = await neuesZertifikat();
    const added = await request(t.app).post(`/api/abholungen/${body.nr}/nachweis`).set(voll).send({ nachweisNr: n3 });
    expect(added.status, added.text).toBe(200);
    expect(added.body.data).toMatchObject({ nachweise: [n1, n2, n3], version: 3 });
    const removed = await request(t.app).post(`/api/abholungen/${body.nr}/nachweis-entfernen`).set(voll).send({ nachweisNr: n1 });
    expect(removed.body.data).toMatchObject({ nachweise: [n2, n3], version: 4 });
    expect(await t.db.knex('abholung_nachweise').where({ mandant: 'DEMO', abholung_nr: body.nr }).orderBy('nachweis_nr').pluck('nachweis_nr')).toEqual([n2, n3].sort());
    expect(await audits('bewegungsdaten.abholungen.nachweis', body.nr)).toBe(1);
    expect(await audits('bewegungsdaten.abholungen.nachweis-entfernen', body.nr)).toBe(1);
    const versions = (await request(t.app).get(`/api/abholungen/${body.nr}/versionen`).set(voll)).body.data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions[0].changes).toEqual([{ field: 'nachweise', before: [n1, n2, n3], after: [n2, n3] }]);

    // The last certificate stays (spec section 5).
    await request(t.app).post(`/api/abholungen/${body.nr}/nachweis-entfernen`).set(voll).send({ nachweisNr: n2 });
    const last = await request(t.app).post(`/api/abholungen/${body.nr}/nachweis-entfernen`).set(voll).send({ nachweisNr: n3 });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('Eine Abholung muss mindestens ein Zertifikat haben.');
    const empty = await request(t.app).put(`/api/abholungen/${body.nr}`).set(voll).send({ ...body, nachweise: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'nachweise', message: 'Eine Abholung muss mindestens ein Zertifikat haben.' }]);
    expect(await t.db.knex('abholung_nachweise').where({ mandant: 'DEMO', abholung_nr: body.nr }).pluck('nachweis_nr')).toEqual([n3]);
  });

  it('creates through the page without JavaScript: one certificate on the form, more on the tab', async () => {
    const [n1, n2] = [await neuesZertifikat(), await neuesZertifikat()];
    const agent = await signIn(t.app, 'ABHOLER', PASSWORT, 'DEMO');
    const list = await agent.get('/de/bewegungsdaten/abholungen');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('Diese Seite ist in Vorbereitung');
    const form = await agent.get('/de/bewegungsdaten/abholungen/neu');
    expect(form.status).toBe(200);
    expect(form.text).toContain(`<option value="${n1}"`);
    expect(form.text).toMatch(/<label for="f-nachweise">Zertifikate/);
    const nr = next('ABP');
    const refused = await agent.post('/de/bewegungsdaten/abholungen').type('form')
      .send({ _csrf: csrfFrom(form.text), nr, lieferdatum: daysAgo(2), lieferstelleNr: '1001', produktgruppe: 'biodiesel', kraftstoffmenge: '-1', einheit: 'L', nachweise: n1 });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Erlaubt sind Werte von 0,001 bis');
    expect(refused.text).toContain(`<option value="${n1}" selected`);
    const created = await agent.post('/de/bewegungsdaten/abholungen').type('form')
      .send({ _csrf: csrfFrom(form.text), nr, lieferdatum: daysAgo(2), lieferstelleNr: '1001', produktgruppe: 'biodiesel', kraftstoffmenge: '24.000,5', einheit: 'L', nachweise: n1 });
    expect(created.status, created.text).toBe(302);
    expect(created.headers.location).toBe(`/de/bewegungsdaten/abholungen/${nr}`);
    expect(await t.db.knex('abholungen').where({ mandant: 'DEMO', nr }).first()).toMatchObject({ kraftstoffmenge: '24000.500', nachweise: [n1] });

    // The edit form shows the certificates fixed and sends them back unchanged.
    const detail = await agent.get(`${created.headers.location}/bearbeiten`);
    expect(detail.text).toContain('Zertifikate fügen Sie im Reiter Zertifikate hinzu');
    expect(detail.text).toContain(`<input type="hidden" name="nachweise" value="${n1}">`);
    const saved = await agent.post(created.headers.location).type('form')
      .send({ _csrf: csrfFrom(detail.text), version: '1', nr, lieferdatum: daysAgo(2), lieferstelleNr: '1001', produktgruppe: 'biodiesel', kraftstoffmenge: '24000,5', einheit: 'L', nachweise: n1, kommentar: 'per Formular' });
    expect(saved.status, saved.text).toBe(302);
    expect(await t.db.knex('abholungen').where({ mandant: 'DEMO', nr }).first()).toMatchObject({ version: 2, kommentar: 'per Formular', nachweise: [n1] });

    // The certificates tab: the table with the spec's columns, and a form that adds a fitting one.
    const tab = await agent.get(`${created.headers.location}?tab=nachweise`);
    expect(tab.status).toBe(200);
    expect(tab.text).toContain(`href="/de/bewegungsdaten/nachweise/${n1}"`);
    expect(tab.text).toContain('Rohstoff nach Anhang IX');
    expect(tab.text).toContain('<caption class="visually-hidden">Zertifikate der Abholung');
    const add = await agent.post(`${created.headers.location}/nachweis`).type('form').send({ _csrf: csrfFrom(tab.text), version: '2', nachweisNr: n2 });
    expect(add.status, add.text).toBe(302);
    expect(add.headers.location).toBe(`${created.headers.location}?tab=nachweise`);
    const again = await agent.get(add.headers.location);
    expect(again.text).toContain('Das Zertifikat wurde hinzugefügt.');
    // A certificate of another group: refused at the form, on its tab.
    const hvo = await neuesZertifikat({ produktNr: 'P017' });
    const wrong = await agent.post(`${created.headers.location}/nachweis`).type('form').send({ _csrf: csrfFrom(again.text), nachweisNr: hvo });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(`Das Zertifikat ${hvo} gehört zur Produktgruppe hvo`);
    expect(wrong.text).toContain('aria-current="page">Zertifikate');
    // Removing down to one, then the last: refused with the section-5 text on the tab.
    await agent.post(`${created.headers.location}/nachweis-entfernen`).type('form').send({ _csrf: csrfFrom(again.text), nachweisNr: n1 }).expect(302);
    const lastOne = await agent.post(`${created.headers.location}/nachweis-entfernen`).type('form').send({ _csrf: csrfFrom(again.text), nachweisNr: n2 });
    expect(lastOne.status).toBe(409);
    expect(lastOne.text).toContain('Eine Abholung muss mindestens ein Zertifikat haben.');
    expect(await t.db.knex('abholungen').where({ mandant: 'DEMO', nr }).first()).toMatchObject({ nachweise: [n2] });
    // The versions show the list.
    const versionen = await agent.get(`${created.headers.location}?tab=versionen`);
    expect(versionen.text).toContain(n2);
  });

  it('refuses bad input with an error naming the field, storing nothing', async () => {
    const ok = await neuesZertifikat();
    const storniert = await neuesZertifikat();
    expect((await request(t.app).post(`/api/nachweise/${storniert}/storno`).set(voll).send({})).status).toBe(200);
    const hvo = await neuesZertifikat({ produktNr: 'P017' });
    const nordZert = (await request(t.app).post('/api/nachweise').set(nord).send(zertifikat({ nr: 'AZ-NORD-1', standortNr: '2001' }))).body.data.nr;
    expect(nordZert).toBe('AZ-NORD-1');
    const before = await counts();
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ nachweise: undefined }, 'nachweise', 'Eine Abholung muss mindestens ein Zertifikat haben.'],
      [{ nachweise: [] }, 'nachweise', 'Eine Abholung muss mindestens ein Zertifikat haben.'],
      [{ nachweise: ['GIBT-ES-NICHT'] }, 'nachweise', 'Das Zertifikat GIBT-ES-NICHT gibt es an Ihren Standorten nicht.'],
      [{ nachweise: [nordZert] }, 'nachweise', `Das Zertifikat ${nordZert} gibt es an Ihren Standorten nicht.`],
      [{ nachweise: [storniert] }, 'nachweise', `Das Zertifikat ${storniert} ist storniert.`],
      [{ nachweise: [hvo] }, 'nachweise', `Das Zertifikat ${hvo} gehört zur Produktgruppe hvo, nicht zu der des Bioanteils der Abholung.`],
      [{ nachweise: [ok, ok] }, 'nachweise', `Das Zertifikat ${ok} ist schon bei dieser Abholung.`],
      [{ nachweise: [{ nr: ok }] }, 'nachweise'],
      [{ nachweise: 'a,b' }, 'nachweise'],
      [{ lieferstelleNr: undefined }, 'lieferstelleNr'],
      [{ lieferstelleNr: '9999' }, 'lieferstelleNr', 'Unbekannter Standort „9999“'],
      [{ produktgruppe: undefined }, 'produktgruppe'],
      [{ produktgruppe: 'kerosin' }, 'produktgruppe'],
      [{ produktNr: 'P017' }, 'produktgruppe', 'Das Produkt P017 gehört zur Gruppe hvo'],
      [{ produktNr: 'P999' }, 'produktNr'],
      [{ kraftstoffmenge: undefined }, 'kraftstoffmenge'],
      [{ kraftstoffmenge: '0' }, 'kraftstoffmenge'],
      [{ kraftstoffmenge: '-5' }, 'kraftstoffmenge', 'Erlaubt sind Werte von 0,001 bis 5.000.000.000.000'],
      [{ kraftstoffmenge: '9000000000000' }, 'kraftstoffmenge'],
      [{ volumen: '-1' }, 'volumen'],
      [{ menge: 'viel' }, 'menge'],
      [{ biogehalt: '150' }, 'biogehalt'],
      [{ anteil: '-1' }, 'anteil'],
      [{ einheit: 'm3' }, 'einheit'],
      [{ lieferdatum: undefined }, 'lieferdatum'],
      [{ lieferdatum: '1999-12-31' }, 'lieferdatum'],
      [{ ablieferungNr: 'GIBT-ES-NICHT' }, 'ablieferungNr'],
      [{ nr: 'neu' }, 'nr'],
    ];
    for (const [over, field, message] of cases) {
      const res = await request(t.app).post('/api/abholungen').set(voll).send(abholung([ok], over));
      expect(res.status, `${JSON.stringify(over)}: ${res.text}`).toBe(400);
      const errors = res.body.errors as { field: string; message: string }[];
      expect(errors.map((e) => e.field), JSON.stringify(over)).toContain(field);
      if (message) expect(errors.find((e) => e.field === field)!.message).toContain(message);
    }
    const missing = await request(t.app).post('/api/abholungen').set(voll).send({ nr: 'AB-LEER', nachweise: [ok] });
    expect(missing.body.message).toBe('Bitte füllen Sie alle Pflichtfelder aus');
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['kraftstoffmenge', 'lieferdatum', 'lieferstelleNr', 'produktgruppe']);
    // In English when asked.
    const en = await request(t.app).post('/api/abholungen').set({ ...voll, 'Accept-Language': 'en' }).send(abholung([storniert]));
    expect(en.body.errors).toEqual([{ field: 'nachweise', message: `Certificate ${storniert} is cancelled.` }]);
    expect(await counts()).toEqual(before);
  });
  it('keeps a Lieferstelle that a collection names from being deleted (409), as movement data does', async () => {
    const admin = await as('TADMIN', 'Tadmin12345');
    expect((await request(t.app).post('/api/standorte').set(admin).send({ nr: 'ABH-ORT', name: 'Tanklager Abholtest' })).status).toBe(201);
    const z = await neuesZertifikat({ standortNr: 'ABH-ORT' }, admin);
    await neueAbholung({ lieferstelleNr: 'ABH-ORT', nachweise: [z] }, admin);
    const res = await request(t.app).delete('/api/standorte/ABH-ORT').set(admin);
    expect(res.status).toBe(409);
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO', nr: 'ABH-ORT' }).first('nr')).toBeDefined();
  });
});

describe('Linking an Einlieferung to a collection', () => {
  it('links exactly once: a second link is 409 with the spec text in German and English; unlink and relink work; versions and audit entries are written', async () => {
    const [a1, a2] = [await neueAbholung(), await neueAbholung()];
    const e = await neueEinlieferung();
    const linked = await link(e, a1);
    expect(linked.status, linked.text).toBe(200);
    expect(linked.body.data).toMatchObject({ nr: e, abholungNr: a1, verknuepfungStatus: 'endgueltig', version: 2 });
    expect((await request(t.app).get(`/api/einlieferungen/${e}/abholung`).set(voll)).body.data).toMatchObject({ nr: a1, lieferstelleNr: '1001' });
    expect((await request(t.app).get(`/api/einlieferungen/${e}`).set(voll)).body.data).toMatchObject({ abholungNr: a1, verknuepfungStatus: 'endgueltig' });

    const second = await link(e, a2);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ success: false, code: 'ALREADY_LINKED', message: `Diese Lieferung ist bereits mit Abholung ${a1} verknüpft.` });
    const english = await request(t.app).put(`/api/einlieferungen/${e}/abholung`).set({ ...voll, 'Accept-Language': 'en' }).send({ abholungNr: a2 });
    expect(english.status).toBe(409);
    expect(english.body.message).toBe(`This delivery is already linked to collection ${a1}.`);
    expect((await link(e, a1)).status).toBe(409);
    expect((await einlieferungRow(e)).abholung_nr).toBe(a1);

    expect((await unlink(e)).body.data).toMatchObject({ abholungNr: null, verknuepfungStatus: 'nicht_verknuepft', version: 3 });
    expect((await request(t.app).get(`/api/einlieferungen/${e}/abholung`).set(voll)).status).toBe(404);
    expect((await unlink(e)).status).toBe(404);
    expect((await link(e, a2)).status).toBe(200);
    expect((await einlieferungRow(e)).abholung_nr).toBe(a2);

    // Each link and unlink is a version of the Einlieferung and an audit entry.
    const versions = (await request(t.app).get(`/api/einlieferungen/${e}/versionen`).set(voll)).body.data as { version: number; changes: unknown[] }[];
    expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions.slice(0, 3).map((v) => v.changes)).toEqual([
      [{ field: 'abholungNr', before: null, after: a2 }],
      [{ field: 'abholungNr', before: a1, after: null }],
      [{ field: 'abholungNr', before: null, after: a1 }],
    ]);
    expect(await audits('bewegungsdaten.einlieferungen.abholung', e)).toBe(2);
    expect(await audits('bewegungsdaten.einlieferungen.abholung-loesen', e)).toBe(1);
    // The collection shows it.
    const detail = (await request(t.app).get(`/api/abholungen/${a2}`).set(voll)).body.data;
    expect(detail.einlieferungen).toEqual([{ nr: e, entladedatum: daysAgo(3), entladeneMenge: '9800.000', unitOfMeasure: 'L', status: 'open' }]);
  });

  it('lets exactly one of two concurrent links of one Einlieferung win; the other gets 409', async () => {
    const [a1, a2] = [await neueAbholung(), await neueAbholung()];
    const e = await neueEinlieferung();
    const results = await Promise.all([link(e, a1), link(e, a2)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!.body.data.abholungNr;
    expect((await einlieferungRow(e)).abholung_nr).toBe(winner);
    expect(Number((await t.db.knex('einlieferungen_versionen').where({ mandant: 'DEMO', nr: e }).count({ c: '*' }))[0].c)).toBe(2);
    expect(await audits('bewegungsdaten.einlieferungen.abholung', e)).toBe(1);
  });

  it('lets a link and a cancellation of its collection at the same time never both win, and two links from both sides never wait for each other', async () => {
    for (let i = 0; i < 3; i++) {
      const a = await neueAbholung();
      const e = await neueEinlieferung();
      const [linked, cancelled] = await Promise.all([link(e, a), request(t.app).post(`/api/abholungen/${a}/storno`).set(voll).send({})]);
      expect([linked.status, cancelled.status].sort()).toEqual([200, 409]);
      const storniert = (await t.db.knex('abholungen').where({ mandant: 'DEMO', nr: a }).first()).storniert;
      expect((await einlieferungRow(e)).abholung_nr === a && storniert).toBe(false);
    }
    // The collection's page and the delivery's API link the same pair at once: one wins, the other is told.
    const agent = await signIn(t.app, 'ABHOLER', PASSWORT, 'DEMO');
    const a = await neueAbholung();
    const e = await neueEinlieferung();
    const tab = await agent.get(`/de/bewegungsdaten/abholungen/${a}?tab=einlieferungen`);
    const [page, api] = await Promise.all([
      agent.post(`/de/bewegungsdaten/abholungen/${a}/einlieferungen`).type('form').send({ _csrf: csrfFrom(tab.text), einlieferungNr: e }),
      link(e, a),
    ]);
    expect([page.status === 302, api.status === 200].filter(Boolean)).toHaveLength(1);
    expect([page.status, api.status]).toContain(409);
    expect((await einlieferungRow(e)).abholung_nr).toBe(a);
  });

  it('links a completed delivery, refuses another product group (400), cancelled records (409), and cancelling a collection with links', async () => {
    const a = await neueAbholung();
    const done = await neueEinlieferung({ status: 'completed' });
    expect((await link(done, a)).status).toBe(200);
    expect((await request(t.app).put(`/api/einlieferungen/${done}`).set(voll).send({ kommentar: 'x' })).status).toBe(409);

    const hvo = await neueEinlieferung({ produktNr: 'P017' });
    const group = await link(hvo, a);
    expect(group.status).toBe(400);
    expect(group.body.errors).toEqual([{ field: 'abholungNr', message: `Die Abholung ${a} hat die Produktgruppe biodiesel, die Einlieferung ${hvo} eine andere.` }]);

    const cancelledE = await neueEinlieferung();
    await request(t.app).post(`/api/einlieferungen/${cancelledE}/storno`).set(voll).send({}).expect(200);
    expect((await link(cancelledE, a)).status).toBe(409);

    // A collection with a linked delivery cannot be cancelled; unlinked it can, and then nothing links to it.
    const storno = await request(t.app).post(`/api/abholungen/${a}/storno`).set(voll).send({});
    expect(storno.status).toBe(409);
    expect(storno.body.message).toContain('Lösen Sie erst die Verknüpfungen');
    expect((await unlink(done)).status).toBe(200);
    expect((await request(t.app).post(`/api/abholungen/${a}/storno`).set(voll).send({})).status).toBe(200);
    const fresh = await neueEinlieferung();
    const toCancelled = await link(fresh, a);
    expect(toCancelled.status).toBe(409);
    expect(toCancelled.body.message).toBe(`Die Abholung ${a} ist storniert.`);
    for (const nr of [hvo, cancelledE, fresh]) expect((await einlieferungRow(nr)).abholung_nr).toBeNull();
  });

  it('links and unlinks through both pages without JavaScript, and shows a refusal at the form on its tab', async () => {
    const a = await neueAbholung();
    const [e1, e2] = [await neueEinlieferung(), await neueEinlieferung()];
    const agent = await signIn(t.app, 'ABHOLER', PASSWORT, 'DEMO');
    // The Einlieferung's tab: the collections at its location and of its group are suggested.
    const tab = await agent.get(`/de/bewegungsdaten/einlieferungen/${e1}?tab=abholung`);
    expect(tab.status).toBe(200);
    expect(tab.text).toContain('Nicht verknüpft');
    expect(tab.text).toContain(`<option value="${a}">`);
    const linked = await agent.post(`/de/bewegungsdaten/einlieferungen/${e1}/abholung`).type('form').send({ _csrf: csrfFrom(tab.text), abholungNr: a });
    expect(linked.status).toBe(302);
    expect(linked.headers.location).toBe(`/de/bewegungsdaten/einlieferungen/${e1}?tab=abholung`);
    const after = await agent.get(linked.headers.location);
    expect(after.text).toContain('Die Einlieferung wurde mit der Abholung verknüpft.');
    expect(after.text).toContain(`href="/de/bewegungsdaten/abholungen/${a}"`);
    expect(after.text).toContain('Endgültiges Zertifikat');
    // The collection's tab: e1 listed with an unlink button; linking e1 again there is refused at the form.
    const aTab = await agent.get(`/de/bewegungsdaten/abholungen/${a}?tab=einlieferungen`);
    expect(aTab.text).toContain(`href="/de/bewegungsdaten/einlieferungen/${e1}?tab=abholung"`);
    expect(aTab.text).toContain(`<option value="${e2}">`);
    const twice = await agent.post(`/de/bewegungsdaten/abholungen/${a}/einlieferungen`).type('form').send({ _csrf: csrfFrom(aTab.text), einlieferungNr: e1 });
    expect(twice.status).toBe(409);
    expect(twice.text).toContain(`Diese Lieferung ist bereits mit Abholung ${a} verknüpft.`);
    expect(twice.text).toContain(`value="${e1}"`);
    const unknown = await agent.post(`/de/bewegungsdaten/abholungen/${a}/einlieferungen`).type('form').send({ _csrf: csrfFrom(aTab.text), einlieferungNr: 'GIBT-ES-NICHT' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Die Einlieferung GIBT-ES-NICHT gibt es an Ihren Standorten nicht.');
    expect((await agent.post(`/de/bewegungsdaten/abholungen/${a}/einlieferungen`).type('form').send({ _csrf: csrfFrom(aTab.text), einlieferungNr: e2 })).status).toBe(302);
    expect((await einlieferungRow(e2)).abholung_nr).toBe(a);
    const unlinked = await agent.post(`/de/bewegungsdaten/abholungen/${a}/einlieferungen/${e1}/loesen`).type('form').send({ _csrf: csrfFrom(aTab.text) });
    expect(unlinked.status).toBe(302);
    expect(unlinked.headers.location).toBe(`/de/bewegungsdaten/abholungen/${a}?tab=einlieferungen`);
    expect((await einlieferungRow(e1)).abholung_nr).toBeNull();
    // And from the Einlieferung's side.
    const e2Tab = await agent.get(`/de/bewegungsdaten/einlieferungen/${e2}?tab=abholung`);
    expect((await agent.post(`/de/bewegungsdaten/einlieferungen/${e2}/abholung/loesen`).type('form').send({ _csrf: csrfFrom(e2Tab.text) })).status).toBe(302);
    expect((await einlieferungRow(e2)).abholung_nr).toBeNull();
    // The list page of collections, and its exports.
    const listPage = await agent.get(`/de/bewegungsdaten/abholungen?q=${a}`);
    expect(listPage.text).toContain(`href="/de/bewegungsdaten/abholungen/${a}"`);
    const csv = await agent.get(`/de/bewegungsdaten/abholungen?q=${a}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(a);
  });
});

describe('Tenant, location and rights', () => {
  it("never touches another tenant's collection or Einlieferung: 404 and nothing changed", async () => {
    const nordZert = (await request(t.app).post('/api/nachweise').set(nord).send(zertifikat({ standortNr: '2001' }))).body.data.nr;
    const na = (await request(t.app).post('/api/abholungen').set(nord).send(abholung([nordZert], { lieferstelleNr: '2001' })));
    expect(na.status, na.text).toBe(201);
    const ne = next('AE');
    expect((await request(t.app).post('/api/einlieferungen').set(nord)
      .send({ nr: ne, entladedatum: daysAgo(3), entladeneMenge: '100', unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '2001', produktNr: 'P013' })).status).toBe(201);
    const e = await neueEinlieferung();
    const a = await neueAbholung();
    const before = { e: await einlieferungRow(e), ne: await einlieferungRow(ne, 'NORD'), nord: await t.db.knex('abholungen').where({ mandant: 'NORD', nr: na.body.data.nr }).first() };

    expect((await request(t.app).get(`/api/abholungen/${na.body.data.nr}`).set(voll)).status).toBe(404);
    expect((await link(e, na.body.data.nr)).status).toBe(404);
    expect((await link(ne, a)).status).toBe(404);
    expect((await unlink(ne)).status).toBe(404);
    expect((await request(t.app).get(`/api/einlieferungen/${ne}/abholung`).set(voll)).status).toBe(404);
    expect((await request(t.app).post(`/api/abholungen/${na.body.data.nr}/nachweis`).set(voll).send({ nachweisNr: nordZert })).status).toBe(404);
    expect((await request(t.app).get(`/api/abholungen?q=${na.body.data.nr}`).set(voll)).body.total).toBe(0);
    expect({ e: await einlieferungRow(e), ne: await einlieferungRow(ne, 'NORD'), nord: await t.db.knex('abholungen').where({ mandant: 'NORD', nr: na.body.data.nr }).first() }).toEqual(before);
  });

  it('gives a reader 403 on every write, changing nothing', async () => {
    const a = await neueAbholung();
    const e = await neueEinlieferung();
    const z = await neuesZertifikat();
    expect((await request(t.app).get(`/api/abholungen/${a}`).set(leser)).status).toBe(200);
    const before = { counts: await counts(), e: await einlieferungRow(e) };
    const writes = [
      request(t.app).post('/api/abholungen').set(leser).send(abholung([z])),
      request(t.app).put(`/api/abholungen/${a}`).set(leser).send({ kommentar: 'x' }),
      request(t.app).post(`/api/abholungen/${a}/storno`).set(leser).send({}),
      request(t.app).post(`/api/abholungen/${a}/nachweis`).set(leser).send({ nachweisNr: z }),
      request(t.app).post(`/api/abholungen/${a}/nachweis-entfernen`).set(leser).send({ nachweisNr: z }),
      link(e, a, leser),
      unlink(e, leser),
    ];
    for (const [i, res] of (await Promise.all(writes)).entries()) expect(res.status, `write ${i}: ${res.text}`).toBe(403);
    // The pages send a reader back with the no-permission dialog.
    const agent = await signIn(t.app, 'ABHLESER', PASSWORT, 'DEMO');
    const page = await agent.get(`/de/bewegungsdaten/einlieferungen/${e}?tab=abholung`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(`action="/de/bewegungsdaten/einlieferungen/${e}/abholung"`);
    for (const path of [`/de/bewegungsdaten/einlieferungen/${e}/abholung`, `/de/bewegungsdaten/abholungen/${a}/einlieferungen`, `/de/bewegungsdaten/abholungen/${a}/nachweis`]) {
      const res = await agent.post(path).type('form').send({ _csrf: csrfFrom(page.text), abholungNr: a, einlieferungNr: e, nachweisNr: z });
      expect(res.status, path).toBe(302);
    }
    expect({ counts: await counts(), e: await einlieferungRow(e) }).toEqual(before);
  });

  it('limits a user with one location to collections there: not seen, not linked, not created elsewhere', async () => {
    const hamburg = await neueAbholung();
    const elsewhere = await neueAbholung({ lieferstelleNr: '1002' });
    expect((await request(t.app).get(`/api/abholungen/${elsewhere}`).set(lager)).status).toBe(404);
    expect((await request(t.app).get(`/api/abholungen/${hamburg}`).set(lager)).status).toBe(200);
    const listed = await request(t.app).get('/api/abholungen?pageSize=500').set(lager);
    expect(new Set(listed.body.data.map((a: { lieferstelleNr: string }) => a.lieferstelleNr))).toEqual(new Set(['1001']));
    const e = await neueEinlieferung({}, lager);
    expect((await link(e, elsewhere, lager)).status).toBe(404);
    expect((await einlieferungRow(e)).abholung_nr).toBeNull();
    expect((await link(e, hamburg, lager)).status).toBe(200);
    const z = await neuesZertifikat({}, lager);
    const create = await request(t.app).post('/api/abholungen').set(lager).send(abholung([z], { lieferstelleNr: '1002' }));
    expect(create.status).toBe(400);
    expect(create.body.errors.map((x: { field: string }) => x.field)).toContain('lieferstelleNr');
    // A certificate at another location is unknown to this user.
    const z2 = await neuesZertifikat({ standortNr: '1002' });
    const other = await request(t.app).post('/api/abholungen').set(lager).send(abholung([z2]));
    expect(other.body.errors).toEqual([{ field: 'nachweise', message: `Das Zertifikat ${z2} gibt es an Ihren Standorten nicht.` }]);
  });
});

describe('The link status of the Einlieferung list', () => {
  it('is what the links say: not linked, provisional, final, as column, filter and page', async () => {
    const zFinal = await neuesZertifikat();
    const zVorl = await neuesZertifikat();
    const aFinal = await neueAbholung({ nachweise: [zFinal] });
    const aVorl = await neueAbholung({ nachweise: [zFinal, zVorl] });
    const prefix = next('STAT');
    const mk = (i: number) => neueEinlieferung({ nr: `${prefix}-${i}` });
    const [eLos, eFinal, eVorl] = [await mk(1), await mk(2), await mk(3)];
    expect((await link(eFinal, aFinal)).status).toBe(200);
    expect((await link(eVorl, aVorl)).status).toBe(200);

    const statusList = async (filter = '') =>
      Object.fromEntries(((await request(t.app).get(`/api/einlieferungen?q=${prefix}&pageSize=50${filter}`).set(voll)).body.data as { nr: string; verknuepfungStatus: string }[]).map((r) => [r.nr, r.verknuepfungStatus]));
    /** What the pure rule says from the database's links. */
    const expected = async () => {
      const out: Record<string, string> = {};
      for (const nr of [eLos, eFinal, eVorl]) {
        const row = await einlieferungRow(nr);
        const flags = row.abholung_nr
          ? await t.db.knex('abholung_nachweise as an').join('nachweise as n', (j) => j.on('n.mandant', 'an.mandant').andOn('n.nr', 'an.nachweis_nr'))
            .where({ 'an.mandant': 'DEMO', 'an.abholung_nr': row.abholung_nr }).pluck('n.vorlaeufig')
          : [];
        out[nr] = verknuepfungStatus(row.abholung_nr, flags);
      }
      return out;
    };
    expect(await statusList()).toEqual({ [eLos]: 'nicht_verknuepft', [eFinal]: 'endgueltig', [eVorl]: 'endgueltig' });
    expect(await statusList()).toEqual(await expected());

    // The supplier's certificate turns out provisional: the status follows at once (the remembered count too).
    const countOf = async (status: string) => (await request(t.app).get(`/api/einlieferungen?q=${prefix}&verknuepfungStatus=${status}`).set(voll)).body.total;
    expect(await countOf('vorlaeufig')).toBe(0);
    await t.db.knex('nachweise').where({ mandant: 'DEMO', nr: zVorl }).update({ vorlaeufig: true });
    expect(await statusList()).toEqual({ [eLos]: 'nicht_verknuepft', [eFinal]: 'endgueltig', [eVorl]: 'vorlaeufig' });
    expect(await statusList()).toEqual(await expected());
    for (const [status, nr] of [['nicht_verknuepft', eLos], ['vorlaeufig', eVorl], ['endgueltig', eFinal]]) {
      expect(Object.keys(await statusList(`&verknuepfungStatus=${status}`)), status).toEqual([nr]);
      expect(await countOf(status)).toBe(1);
    }
    // Marked final: endgültig.
    await t.db.knex('nachweise').where({ mandant: 'DEMO', nr: zVorl }).update({ vorlaeufig: false });
    expect(await countOf('vorlaeufig')).toBe(0);
    expect((await statusList())[eVorl]).toBe('endgueltig');
    expect((await request(t.app).get('/api/einlieferungen?verknuepfungStatus=irgendwas').set(voll)).status).toBe(400);

    // The page: a badge column and a select filter, in German and English.
    await t.db.knex('nachweise').where({ mandant: 'DEMO', nr: zVorl }).update({ vorlaeufig: true });
    const agent = await signIn(t.app, 'ABHOLER', PASSWORT, 'DEMO');
    const de = await agent.get(`/de/bewegungsdaten/einlieferungen?q=${prefix}&verknuepfungStatus=vorlaeufig`);
    expect(de.text).toContain('Vorläufiges Zertifikat');
    expect(de.text).toContain(eVorl);
    expect(de.text).not.toContain(`${eFinal}<`);
    expect(de.text).toMatch(/<select[^>]*name="verknuepfungStatus"/);
    const en = await agent.get(`/en/bewegungsdaten/einlieferungen?q=${prefix}`);
    for (const text of ['Not linked', 'Provisional certificate', 'Final certificate']) expect(en.text).toContain(text);
  });
});
