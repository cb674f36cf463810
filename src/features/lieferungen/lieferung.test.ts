// Einlieferungen and Ablieferungen behave alike (one declaration, two sets of spec names): each test runs for
// both, through HTTP against the real database, as a user would see it or as the data must be.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords.js';
import { summe, type Einheit } from '../../domain/units.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // LAGER: reads and writes deliveries and stock, but only at location 1001. LESEN: reads them everywhere.
  const add = async (login: string, rollen: number[], standortNr: string | null) => {
    const [{ id }] = await t.db.knex('benutzer')
      .insert({ login, email: `${login.toLowerCase()}@demo.example`, vorname: login, nachname: 'Test', password_hash: await hashPassword('Geheim12345') })
      .returning('id');
    await t.db.knex('benutzer_mandanten').insert({ mandant: 'DEMO', benutzer_id: id, admin_kz: false });
    await t.db.knex('rollen').insert(rollen.map((typ) => ({ mandant: 'DEMO', benutzer_id: id, typ, standort_nr: standortNr })));
  };
  await add('LAGER', [1, 3, 5, 9, 10, 11, 12, 13, 14], '1001');
  await add('LESEN', [1, 3, 5, 9, 11, 13], null);
});
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });
const admin = () => as('TADMIN', 'Tadmin12345');

const ENTITIES = [
  { resource: 'einlieferungen', menge: 'entladeneMenge', einheit: 'unitOfMeasure', datum: 'entladedatum', one: 'Einlieferung' },
  { resource: 'ablieferungen', menge: 'menge', einheit: 'uomMenge', datum: 'lieferdatum', one: 'Ablieferung' },
] as const;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe.each(ENTITIES)('$resource', (E) => {
  const api = `/api/${E.resource}`;
  const page = `/de/bewegungsdaten/${E.resource}`;
  let n = 0;
  /** A valid delivery body with a fresh number. */
  const body = (over: Record<string, unknown> = {}) => ({
    nr: `T-${E.resource.slice(0, 3)}-${++n}`, [E.datum]: daysAgo(3), [E.menge]: '12500,5', [E.einheit]: 'L',
    partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016', ...over,
  });
  const count = async () => Number((await t.db.knex(E.resource).where({ mandant: 'DEMO' }).count({ c: '*' }))[0].c);

  it('creates by hand from the form: number and version of partner, location and product stored, marked as manual entry', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const form = await agent.get(`${page}/neu`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('TP001 · ');
    // The form proposes the next free number after the tenant's highest of the form EL-/AL- and six digits.
    const prefix = E.resource === 'einlieferungen' ? 'EL-' : 'AL-';
    const highest = (await t.db.knex(E.resource).where({ mandant: 'DEMO' }).select('nr')).map((r) => r.nr as string)
      .filter((nr) => new RegExp(`^${prefix}\\d+$`).test(nr)).map((nr) => Number(nr.slice(3))).reduce((a, b) => Math.max(a, b), 0);
    expect(form.text).toMatch(new RegExp(`id="f-nr"[^>]*value="${prefix}${String(highest + 1).padStart(6, '0')}"`));
    const b = body();
    const res = await agent.post(page).type('form').send({ _csrf: csrfFrom(form.text), ...b, status: 'open' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${page}/${b.nr}`);
    const row = await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: b.nr }).first();
    // P016 is Biodiesel B30: its group and bio content are taken when the form leaves them empty.
    expect(row).toMatchObject({ menge: '12500.500', einheit: 'L', datum: b[E.datum], manuelle_eingabe: true, storniert: false, status: 'open', produktgruppe: 'biodiesel', biogehalt: '30.0000', partner_version: 1, standort_version: 1, produkt_version: 1 });
    // The record opens as a read view: its key figures with names and the quantity as stored, its groups.
    const detail = await agent.get(res.headers.location);
    expect(detail.text).toContain(`${E.one} ${b.nr}`);
    expect(detail.text).not.toContain('<form method="post" action="' + `${page}/${b.nr}"`);
    const figures = detail.text.match(/<dl class="key-figures"[\s\S]*?<\/dl>/)![0];
    expect(figures).toContain('12.500,5 L');
    expect(figures).toMatch(/TP001 · [^<]+/);
    expect(figures).toMatch(/1001 · [^<]+/);
    expect(figures).toMatch(/P016 · [^<]+/);
    expect(detail.text).toContain('<h2 class="read-legend">Partner, Standort und Produkt</h2>');
    expect(detail.text).toContain(`href="${page}/${b.nr}/bearbeiten"`);
    // "Bearbeiten" opens the form: field groups as fieldsets with their legends.
    const edit = await agent.get(`${page}/${b.nr}/bearbeiten`);
    expect(edit.text).toContain('<legend>Partner, Standort und Produkt</legend>');
    expect(edit.text).toContain(`<form method="post" action="${page}/${b.nr}"`);
    expect(detail.text).toContain(`href="${page}/${b.nr}?tab=stammdaten"`);
    const stammdaten = await agent.get(`${page}/${b.nr}?tab=stammdaten`);
    expect(stammdaten.text).toContain('Von Hand erfasst');
    expect(stammdaten.text).toMatch(/<a id="record-tabs-2" href="[^"]+\?tab=stammdaten" aria-current="page">Stammdatenstand<\/a>/);
  });

  it('lists quantities with the decimals they were stored with, and sorts by partner, location and product name', async () => {
    const auth = await admin();
    // A partner whose name is longer than its column at 1366 px: the cell is cut with an ellipsis.
    const partnerNr = `TPL${E.resource.slice(0, 1).toUpperCase()}`;
    const langerName = `Mineralölhandel & Tankstellenbetriebsgesellschaft Nordwestdeutschland ${E.resource} mbH & Co. KG`;
    expect((await request(t.app).post('/api/tauschpartner').set(auth).send({ nr: partnerNr, name: langerName, plz: '20457', stadt: 'Hamburg', land: 'Deutschland' })).status).toBe(201);
    const b = body({ [E.datum]: '2021-01-04', partnerNr });
    expect((await request(t.app).post(api).set(auth).send(b)).status).toBe(201);
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const list = await agent.get(`${page}?von=2021-01-04&bis=2021-01-04`);
    expect(list.text).toContain('12.500,5 L');
    // Text cells carry their full text as a tooltip that needs no script; numbers, dates and badges do not.
    const row = list.text.match(new RegExp(`<tr>\\s*<th scope="row"[^>]*><a href="${page}/${b.nr}">[\\s\\S]*?</tr>`))![0];
    expect(row).toContain(`title="${langerName.replace(/&/g, '&amp;')}">${langerName.replace(/&/g, '&amp;')}</td>`);
    expect(row).toMatch(/<td\s+class="num">12\.500,5 L<\/td>/);
    expect(row).toMatch(/<td\s+class="">04\.01\.2021<\/td>/);
    expect(row).toMatch(/<td\s+class="">\s*<span class="badge/);
    expect(row).not.toMatch(/<th scope="row"[^>]*title=/);
    // Each of the three columns links to its sort; the rows come in the order of the names they show.
    for (const [key, name] of [['partnerName', 'partner_name'], ['standortName', 'standort_name'], ['produktName', 'produkt_name']] as const) {
      expect(list.text).toContain(`sort=${key}%3Aasc`);
      const sorted = await request(t.app).get(`${api}?sort=${key}:asc&pageSize=500`).set(auth);
      expect(sorted.status).toBe(200);
      const names = sorted.body.data.map((r: Record<string, string>) => r[key] ?? r[name]);
      expect(names.length).toBeGreaterThan(1);
      // DIN 5007-1: Förde between Fo… and Fr…, case ignored (ties keep any order).
      const din = (x: string) => x.toLowerCase().replace(/ä/g, 'a').replace(/ö/g, 'o').replace(/ü/g, 'u').replace(/ß/g, 's');
      expect(names.map(din)).toEqual(names.map(din).sort());
    }
  });

  it('keeps showing partner, location and product as they were when the delivery was recorded', async () => {
    const auth = await admin();
    const b = body({ partnerNr: 'TP003' });
    expect((await request(t.app).post(api).set(auth).send(b)).status).toBe(201);
    const partner = (await request(t.app).get('/api/tauschpartner/TP003').set(auth)).body.data;
    const renamed = await request(t.app).put('/api/tauschpartner/TP003').set(auth).send({ ...partner, name: `Umbenannt für ${E.resource}`, version: partner.version });
    expect(renamed.status).toBe(200);
    // Editing the delivery without touching the partner keeps the partner's version.
    const edited = await request(t.app).put(`${api}/${b.nr}`).set(auth).send({ ...b, kommentar: 'nachgetragen', version: 1 });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ version: 2, partnerVersion: partner.version, kommentar: 'nachgetragen' });
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const detail = await agent.get(`${page}/${b.nr}?tab=stammdaten`);
    expect(detail.text).toContain(`TP003 · ${partner.name}`);
    expect(detail.text).toContain(`inzwischen geändert, aktuell Version ${partner.version + 1}`);
    const list = await request(t.app).get(`${api}?q=${b.nr}`).set(auth);
    expect(list.body.data[0].partnerName).toBe(partner.name);
    // Choosing the partner anew takes its current version.
    const rechosen = await request(t.app).put(`${api}/${b.nr}`).set(auth).send({ ...b, partnerNr: 'TP004', version: 2 });
    expect(rechosen.body.data.partnerVersion).toBe((await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr: 'TP004' }).first('version')).version);
  });

  it('refuses every bad input with a clear message naming the field, and stores nothing', async () => {
    const auth = await admin();
    const before = await count();
    const missing = await request(t.app).post(api).set(auth).send({ nr: 'LEER' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Bitte füllen Sie alle Pflichtfelder aus');
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([E.datum, E.einheit, E.menge, 'partnerNr', 'produktNr', 'standortNr'].sort());

    const cases: [Record<string, unknown>, string, string][] = [
      [{ [E.menge]: '-5' }, E.menge, 'Erlaubt sind Werte von 0,001 bis 5.000.000.000.000'],
      [{ [E.menge]: '9000000000000' }, E.menge, 'Erlaubt sind Werte von 0,001 bis 5.000.000.000.000'],
      [{ [E.menge]: 'zwölf' }, E.menge, 'Keine gültige Zahl (z. B. 12,5 oder 12.5)'],
      [{ biogehalt: '150' }, 'biogehalt', 'Erlaubt sind Werte von 0 bis 100'],
      [{ [E.datum]: '1990-01-01' }, E.datum, 'Das Datum muss zwischen 2000-01-01 und'],
      [{ [E.datum]: daysAgo(-800) }, E.datum, 'Das Datum muss zwischen 2000-01-01 und'],
      [{ [E.datum]: '31.02.2025' }, E.datum, 'Kein gültiges Datum'],
      [{ [E.einheit]: 'm3' }, E.einheit, 'Ungültiger Wert'],
      [{ partnerNr: 'TP999' }, 'partnerNr', 'Unbekannter Partner „TP999“'],
      [{ standortNr: '9999' }, 'standortNr', 'Unbekannter Standort „9999“'],
      [{ produktNr: 'P999' }, 'produktNr', 'Unbekanntes Produkt „P999“'],
      [{ produktNr: 'P007' }, 'produktNr', '„P007“ ist deaktiviert'],
      [{ produktgruppe: 'benzin' }, 'produktgruppe', 'Das Produkt P016 gehört zur Gruppe biodiesel'],
      [{ nr: 'EL 1' }, 'nr', 'Nur Buchstaben, Ziffern'],
      [{ incoterm: 'XXX' }, 'incoterm', 'Ungültiger Wert'],
    ];
    for (const [over, field, message] of cases) {
      const res = await request(t.app).post(api).set(auth).send(body(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.errors.find((e: { field: string }) => e.field === field)?.message, JSON.stringify(over)).toContain(message);
    }
    const existing = (await t.db.knex(E.resource).where({ mandant: 'DEMO' }).first('nr')).nr;
    const dup = await request(t.app).post(api).set(auth).send(body({ nr: existing }));
    expect(dup.body.errors).toEqual([{ field: 'nr', message: 'Diese Nummer ist bereits vergeben.' }]);
    expect(await count()).toBe(before);

    const english = await request(t.app).post(api).set({ ...auth, 'Accept-Language': 'en' }).send(body({ biogehalt: '101', [E.datum]: '' }));
    expect(english.body.message).toBe('Please fill in all required fields');
    expect(english.body.errors).toContainEqual({ field: 'biogehalt', message: 'Allowed values are 0 to 100' });

    // The form shows the spec's message and keeps what was typed.
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const form = await agent.get(`${page}/neu`);
    const res = await agent.post(page).type('form').send({ _csrf: csrfFrom(form.text), nr: 'FORM-1', [E.menge]: '12,5', kommentar: 'bleibt stehen' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Bitte füllen Sie alle Pflichtfelder aus');
    expect(res.text).toContain('bleibt stehen');
    expect(await count()).toBe(before);
  });

  it('makes a completed or locked delivery read-only: the page shows why, the API answers 409 and nothing changes', async () => {
    const auth = await admin();
    const b = body();
    await request(t.app).post(api).set(auth).send(b);
    const done = await request(t.app).put(`${api}/${b.nr}`).set(auth).send({ ...b, status: 'completed', version: 1 });
    expect(done.body.data.status).toBe('completed');
    for (const change of [{ kommentar: 'zu spät' }, { status: 'open' }, { storniert: true }]) {
      const refused = await request(t.app).put(`${api}/${b.nr}`).set(auth).send({ ...b, ...change });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, code: 'RECORD_LOCKED', message: 'Diese Lieferung ist abgeschlossen und kann nicht mehr bearbeitet werden.' });
    }
    await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: b.nr }).update({ status: 'locked' });
    const locked = await request(t.app).put(`${api}/${b.nr}`).set(auth).send(b);
    expect(locked.body.message).toBe('Diese Lieferung ist gesperrt und kann nicht mehr bearbeitet werden.');

    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const detail = await agent.get(`${page}/${b.nr}`);
    // A read view without "Bearbeiten", no form behind it, and no cancel button.
    expect(detail.text).not.toContain('/bearbeiten"');
    expect(detail.text).not.toContain('<fieldset class="plain-fieldset"');
    expect((await agent.get(`${page}/${b.nr}/bearbeiten`)).headers.location).toBe(`${page}/${b.nr}`);
    expect(detail.text).toContain('Diese Lieferung ist gesperrt');
    expect(detail.text).not.toContain('/storno');
    const post = await agent.post(`${page}/${b.nr}`).type('form').send({ _csrf: csrfFrom(detail.text), ...b, kommentar: 'per Formular', version: '2' });
    expect(post.status).toBe(409);
    const storno = await agent.post(`${page}/${b.nr}/storno`).type('form').send({ _csrf: csrfFrom(detail.text), storniert: 'true' });
    expect(storno.status).toBe(302);
    const row = await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: b.nr }).first();
    expect(row).toMatchObject({ version: 2, kommentar: null, storniert: false, status: 'locked' });
  });

  it('cancels a delivery: kept, marked everywhere, left out of every total; undoing counts it again', async () => {
    const auth = await admin();
    const b = body({ [E.datum]: daysAgo(400), [E.menge]: '1000', [E.einheit]: 'kg', produktNr: 'P016' });
    await request(t.app).post(api).set(auth).send(b);
    const filter = `?von=${b[E.datum]}&bis=${b[E.datum]}`;
    const expected = async () => {
      const rows = await t.db.knex(E.resource).where({ mandant: 'DEMO', datum: b[E.datum], storniert: false }).select('menge', 'einheit', 'produktgruppe');
      const list = rows.map((r) => ({ menge: r.menge as string, einheit: r.einheit as Einheit, gruppe: r.produktgruppe as Produktgruppe }));
      return { summeLiter: summe(list, 'L'), summeKg: summe(list, 'kg') };
    };
    const totals = async () => (await request(t.app).get(`${api}${filter}`).set(auth)).body.totals;
    const same = (a: Record<string, string>, b2: Record<string, string>) => Object.keys(b2).forEach((k) => expect(Number(a[k])).toBeCloseTo(Number(b2[k]), 3));
    const before = await totals();
    same(before, await expected());
    // 1000 kg of FAME at 0.892 kg/L are 1121.076 L.
    expect(Number(before.summeLiter)).toBeGreaterThanOrEqual(1121.076);

    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const detail = await agent.get(`${page}/${b.nr}`);
    // The button asks first, naming what cancelling does; that step changes nothing.
    const asked = await agent.post(`${page}/${b.nr}/storno`).type('form').send({ _csrf: csrfFrom(detail.text), storniert: 'true', version: '1' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain(`Stornieren: ${E.one} ${b.nr}?`);
    expect(asked.text).toContain('zählt aber in keiner Summe, keinem Bericht und keiner Bilanz mehr');
    expect(asked.text).toContain('name="bestaetigt" value="ja"');
    expect(asked.text).toContain(`href="${page}/${b.nr}"`);
    expect(await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: b.nr }).first('storniert', 'version')).toEqual({ storniert: false, version: 1 });
    const res = await agent.post(`${page}/${b.nr}/storno`).type('form').send({ _csrf: csrfFrom(asked.text), storniert: 'true', version: '1', bestaetigt: 'ja' });
    expect(res.status).toBe(302);
    const after = await totals();
    expect(Number(before.summeLiter) - Number(after.summeLiter)).toBeCloseTo(1121.076, 3);
    expect(Number(before.summeKg) - Number(after.summeKg)).toBeCloseTo(1000, 3);
    same(after, await expected());
    expect(await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: b.nr }).first('storniert')).toEqual({ storniert: true });
    const list = await agent.get(`${page}${filter}`);
    expect(list.text).toMatch(new RegExp(`${b.nr}[\\s\\S]*?Storniert`));
    const csv = await agent.get(`${page}${filter}&format=csv`);
    expect(csv.text).toMatch(new RegExp(`${b.nr};.*;1\\.000,000;kg;.*;Ja`));
    expect(csv.text).toContain(`Summe ohne Stornierte in Kilogramm;${Number(after.summeKg).toLocaleString('de-DE', { maximumFractionDigits: 0 })}`);
    const cancelledOnly = await request(t.app).get(`${api}${filter}&storniert=true`).set(auth);
    expect(cancelledOnly.body.data.map((d: { nr: string }) => d.nr)).toContain(b.nr);
    expect(Number(cancelledOnly.body.totals.summeLiter)).toBe(0);

    const again = await agent.get(`${page}/${b.nr}`);
    expect(again.text).toContain('Stornierung aufheben');
    await agent.post(`${page}/${b.nr}/storno`).type('form').send({ _csrf: csrfFrom(again.text), storniert: 'false', version: '2' });
    same(await totals(), before);
  });

  it('asks before changing the number, then moves the delivery with its history', async () => {
    const auth = await admin();
    const b = body();
    await request(t.app).post(api).set(auth).send(b);
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const detail = await agent.get(`${page}/${b.nr}`);
    const values = { ...b, nr: `${b.nr}-NEU`, status: 'open', version: '1' };
    const ask = await agent.post(`${page}/${b.nr}`).type('form').send({ _csrf: csrfFrom(detail.text), ...values });
    expect(ask.text).toContain('Nummer wirklich ändern?');
    expect(await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: values.nr }).first()).toBeUndefined();
    const done = await agent.post(`${page}/${b.nr}`).type('form').send({ _csrf: csrfFrom(ask.text), ...values, confirmNr: values.nr });
    expect(done.headers.location).toBe(`${page}/${values.nr}`);
    const history = await request(t.app).get(`${api}/${values.nr}/versionen`).set(auth);
    expect(history.body.data[0].changes).toEqual([{ field: 'nr', before: b.nr, after: values.nr }]);
  });

  it("never shows or changes another tenant's delivery: 404, and NORD's row stays as it was", async () => {
    const nord = await as('ADMIN', 'Admin12345', 'NORD');
    const nordNr = 'NUR-NORD-1';
    expect((await request(t.app).post(api).set(nord).send(body({ nr: nordNr, partnerNr: 'TP001', standortNr: '2001', produktNr: 'P001' }))).status).toBe(201);
    const snapshot = await t.db.knex(E.resource).where({ mandant: 'NORD', nr: nordNr }).first();
    const auth = await admin();
    expect((await request(t.app).get(`${api}/${nordNr}`).set(auth)).status).toBe(404);
    expect((await request(t.app).put(`${api}/${nordNr}`).set(auth).send(body({ nr: undefined }))).status).toBe(404);
    expect((await request(t.app).get(`${api}?q=${nordNr}`).set(auth)).body.total).toBe(0);
    // A DEMO delivery cannot point at NORD's master data either.
    const cross = await request(t.app).post(api).set(auth).send(body({ standortNr: '2001' }));
    expect(cross.body.errors).toContainEqual({ field: 'standortNr', message: 'Unbekannter Standort „2001“' });
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    expect((await agent.get(`${page}/${nordNr}`)).status).toBe(404);
    expect(await t.db.knex(E.resource).where({ mandant: 'NORD', nr: nordNr }).first()).toEqual(snapshot);
  });

  it('limits a user to the locations of their rights, and refuses writes to a read-only user', async () => {
    const lager = await as('LAGER', 'Geheim12345');
    const list = await request(t.app).get(`${api}?pageSize=500`).set(lager);
    expect(list.body.total).toBeGreaterThan(0);
    expect(new Set(list.body.data.map((d: { standortNr: string }) => d.standortNr))).toEqual(new Set(['1001']));
    const elsewhere = (await t.db.knex(E.resource).where({ mandant: 'DEMO' }).whereNot('standort_nr', '1001').first('nr')).nr;
    expect((await request(t.app).get(`${api}/${elsewhere}`).set(lager)).status).toBe(404);
    const create = await request(t.app).post(api).set(lager).send(body({ standortNr: '1002' }));
    expect(create.status).toBe(400);
    expect(create.body.errors).toContainEqual({ field: 'standortNr', message: expect.stringContaining('Standort') });
    expect((await request(t.app).post(api).set(lager).send(body())).status).toBe(201);
    // The location filter offers only the user's locations.
    const agent = await signIn(t.app, 'LAGER', 'Geheim12345');
    const listPage = await agent.get(page);
    expect(listPage.text).toContain('<option value="1001"');
    expect(listPage.text).not.toContain('<option value="1002"');

    const leser = await as('LESEN', 'Geheim12345');
    expect((await request(t.app).get(api).set(leser)).status).toBe(200);
    const mine = (await t.db.knex(E.resource).where({ mandant: 'DEMO' }).first('nr')).nr;
    expect((await request(t.app).put(`${api}/${mine}`).set(leser).send(body({ nr: undefined }))).status).toBe(403);
    expect((await request(t.app).post(api).set(leser).send(body())).status).toBe(403);
    const readOnly = await signIn(t.app, 'LESEN', 'Geheim12345');
    // A reader sees the read view, never a (disabled) form, and no "Bearbeiten".
    const detail = await readOnly.get(`${page}/${mine}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('class="key-figures"');
    expect(detail.text).not.toContain('<fieldset class="plain-fieldset"');
    expect(detail.text).not.toContain('/bearbeiten"');
    expect((await readOnly.get(`${page}/${mine}/bearbeiten`)).status).not.toBe(200);
    // The create form is a page the user may not open: back to the dashboard, as the spec says.
    expect((await readOnly.get(`${page}/neu`)).headers.location).toMatch(/\/de\/benutzer\/dashboard/);
    // LESER has no right on movement data at all.
    expect((await request(t.app).get(api).set(await as('LESER', 'Leser12345'))).status).toBe(403);
  });

  it('answers a tampered version or flag with 400 (page and API), never a 500, and changes nothing', async () => {
    const auth = await admin();
    const b = body();
    await request(t.app).post(api).set(auth).send(b);
    const flag = await request(t.app).put(`${api}/${b.nr}`).set(auth).send({ ...b, storniert: 'vielleicht' });
    expect(flag.status).toBe(400);
    expect(flag.body.errors).toEqual([{ field: 'storniert', message: 'Ungültiger Typ' }]);
    expect((await request(t.app).put(`${api}/${b.nr}`).set({ ...auth, 'If-Match': '"abc"' }).send(b)).status).toBe(400);
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const detail = await agent.get(`${page}/${b.nr}`);
    const form = await agent.post(`${page}/${b.nr}`).type('form').send({ _csrf: csrfFrom(detail.text), ...b, status: 'open', kommentar: 'x', version: 'abc' });
    expect(form.status).toBe(400);
    const storno = await agent.post(`${page}/${b.nr}/storno`).type('form').send({ _csrf: csrfFrom(detail.text), storniert: 'true', version: 'abc', bestaetigt: 'ja' });
    expect(storno.headers.location).toBe(`${page}/${b.nr}`);
    expect(await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: b.nr }).first('version', 'storniert', 'kommentar')).toEqual({ version: 1, storniert: false, kommentar: null });
  });

  it('refuses an edit based on an old version (409), so two users cannot overwrite each other unnoticed', async () => {
    const auth = await admin();
    const b = body();
    await request(t.app).post(api).set(auth).send(b);
    const first = await request(t.app).put(`${api}/${b.nr}`).set(auth).send({ ...b, kommentar: 'erster', version: 1 });
    expect(first.status).toBe(200);
    const second = await request(t.app).put(`${api}/${b.nr}`).set({ ...auth, 'If-Match': '"1"' }).send({ ...b, kommentar: 'zweiter' });
    expect(second.status).toBe(409);
    expect((await t.db.knex(E.resource).where({ mandant: 'DEMO', nr: b.nr }).first('kommentar')).kommentar).toBe('erster');
  });
});

describe('Demo movement data', () => {
  it('has every status and some cancelled deliveries in each direction, over the last six months', async () => {
    for (const table of ['einlieferungen', 'ablieferungen']) {
      // The seeded ones (the tests above add their own, numbered T-…).
      const rows = await t.db.knex(table).where({ mandant: 'DEMO' }).whereNot('nr', 'like', 'T-%').select('status', 'storniert', 'datum');
      expect(rows.length, table).toBeGreaterThan(100);
      expect(new Set(rows.map((r) => r.status)), table).toEqual(new Set(['open', 'inProgress', 'completed', 'locked']));
      expect(rows.some((r) => r.storniert), table).toBe(true);
      expect(rows.filter((r) => r.datum < daysAgo(190) || r.datum > daysAgo(-1)), table).toEqual([]);
    }
  });

  it('keeps the daily stock consistent with the deliveries: each day moves by inbound minus outbound litres', async () => {
    const k = t.db.knex;
    const bestaende = await k('bestaende').where({ mandant: 'DEMO' }).orderBy(['standort_nr', 'produkt_nr', 'datum']).select('standort_nr', 'produkt_nr', 'datum', 'volumen');
    expect(bestaende.length).toBeGreaterThan(90 * 6);
    const moved = async (table: string, b: { standort_nr: string; produkt_nr: string; datum: string }) => {
      const rows = await k(table).where({ mandant: 'DEMO', standort_nr: b.standort_nr, produkt_nr: b.produkt_nr, datum: b.datum, storniert: false }).select('menge', 'einheit', 'produktgruppe');
      return Number(summe(rows.map((r) => ({ menge: r.menge, einheit: r.einheit, gruppe: r.produktgruppe })), 'L'));
    };
    let checked = 0;
    for (let i = 1; i < bestaende.length && checked < 60; i++) {
      const [prev, cur] = [bestaende[i - 1], bestaende[i]];
      if (prev.standort_nr !== cur.standort_nr || prev.produkt_nr !== cur.produkt_nr) continue;
      const delta = Number(cur.volumen) - Number(prev.volumen);
      // The stock is kept in whole litres; a delivery in kg converts with up to half a litre of rounding.
      expect(Math.abs(delta - ((await moved('einlieferungen', cur)) - (await moved('ablieferungen', cur))))).toBeLessThanOrEqual(1);
      expect(Number(cur.volumen)).toBeGreaterThanOrEqual(0);
      checked++;
    }
    expect(checked).toBe(60);
  });
});
