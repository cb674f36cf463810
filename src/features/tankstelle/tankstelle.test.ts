// The Tankstelle through HTTP against the real database: each of the traffic light's seven states from tanks
// built here through the API (a location of their own each, so nothing depends on the demo data's story), the
// reach threshold as a tenant setting changed through the API, the 10 latest deliveries against a query of
// their own, the chain view adding up, who sees which location (and never another tenant's), the settings'
// validation in both languages with nothing changed and the audit of a change, the pages without script, and
// that a location's tanks cost the same statements however many there are.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_COUNTS_PATH } from '../../db/query-count.js';
import { milli } from '../../domain/lieferkette.js';
import { TANK_AMPELN } from '../../domain/tankampel.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { zertifikatEingabe } from '../../testing/factories.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { tageVor } from './service.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

type Row = Record<string, unknown>;
let t: TestApp;
let admin: Record<string, string>;
const PASSWORT = 'Tankstelle12345';

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });
const api = () => request(t.app);
// Counted back from today in Germany, the day the app's views take as today (heuteInDeutschland): counted from
// UTC's, the test failed between midnight in Germany and midnight UTC.
const daysAgo = (n: number) => tageVor(heuteInDeutschland(), n);

beforeAll(async () => {
  t = await createTestApp({ countQueries: true });
  admin = await as('TADMIN', 'Tadmin12345');
  await createUserWithRoles(t.db.knex, 'TANKLESER', PASSWORT, [{ typ: 13, standortNr: '1001' }]);
  await createUserWithRoles(t.db.knex, 'TANKCOCKPIT', PASSWORT, [{ typ: 17, standortNr: null }]);
  await createUserWithRoles(t.db.knex, 'TANKSCHREIBER', PASSWORT, [{ typ: 14, standortNr: null }]);
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------------------
// Building tanks through the API: biodiesel B100 (P013, bio content 100 %), so bio quantities are the litres.

let seq = 0;
const next = (p: string) => `${p}${++seq}`;

async function post(path: string, body: Record<string, unknown>, auth = admin) {
  const res = await api().post(`/api${path}`).set(auth).send(body);
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.body.data;
}

async function standort(): Promise<string> {
  const nr = next('TK');
  await post('/standorte', { nr, name: `Tankstelle Test ${nr}`, plz: '20457', stadt: 'Hamburg', land: 'Deutschland' });
  return nr;
}

async function zertifikat(standortNr: string, menge: string, over: Record<string, unknown> = {}): Promise<string> {
  return (await post('/nachweise', zertifikatEingabe({ nr: next('TKN'), standortNr, produktNr: 'P013', menge, ...over }))).nr;
}

/** An inbound delivery of `menge` L B100 `tage` days ago; with `zertifikate`, linked to a collection carrying them. */
async function einlieferung(standortNr: string, tage: number, menge: string, { status = 'completed', zertifikate = [] as string[] } = {}): Promise<string> {
  const nr = next('TKE');
  await post('/einlieferungen', { nr, entladedatum: daysAgo(tage), entladeneMenge: menge, unitOfMeasure: 'L', partnerNr: 'TP001', standortNr, produktNr: 'P013', status });
  if (zertifikate.length) {
    const a = (await post('/abholungen', { nr: next('TKA'), lieferdatum: daysAgo(tage + 1), lieferstelleNr: standortNr, produktgruppe: 'biodiesel', kraftstoffmenge: menge, nachweise: zertifikate })).nr;
    const linked = await api().put(`/api/einlieferungen/${nr}/abholung`).set(admin).send({ abholungNr: a });
    expect(linked.status, linked.text).toBe(200);
  }
  return nr;
}

async function ablieferung(standortNr: string, tage: number, menge: string): Promise<string> {
  const nr = next('TKL');
  await post('/ablieferungen', { nr, lieferdatum: daysAgo(tage), menge, uomMenge: 'L', partnerNr: 'TP015', standortNr, produktNr: 'P013' });
  return nr;
}

async function bestand(standortNr: string, volumen: string, fuellstand = '50', tage = 1) {
  await post('/bestaende', { datum: daysAgo(tage), standortNr, produktNr: 'P013', volumen, fuellstand });
}

/** 7,000 L bio out in the last 14 days: 500 L a day. */
async function abgaben7000(standortNr: string) {
  for (const tage of [2, 5, 9]) await ablieferung(standortNr, tage, tage === 2 ? '3000' : '2000');
}

const tankAn = async (standortNr: string, auth = admin) => {
  const res = await api().get(`/api/tankstelle?standortNr=${standortNr}`).set(auth);
  expect(res.status, res.text).toBe(200);
  expect(res.body.tanks).toHaveLength(1);
  return res.body.tanks[0] as Row;
};

describe('the seven states, from tanks built through the API', () => {
  it('keine_lieferungen: stock, but never an inbound delivery', async () => {
    const s = await standort();
    await bestand(s, '1200', '6');
    await ablieferung(s, 3, '300');
    expect(await tankAn(s)).toMatchObject({ ampel: 'keine_lieferungen', ampelText: 'Keine Lieferungen', ampelFarbe: 'grau', ampelIcon: 'circle', bioMenge: '1200', gedeckt: '0', aktiveEinlieferungNr: null });
  });

  it('keine_aktive_lieferung: an inbound delivery whose certificates have no rest (here: none linked)', async () => {
    const s = await standort();
    await einlieferung(s, 20, '5000');
    await bestand(s, '4000');
    expect(await tankAn(s)).toMatchObject({ ampel: 'keine_aktive_lieferung', ampelFarbe: 'grau', ampelIcon: 'minus', gedeckt: '0', reichweiteTage: null });
  });

  it('vorlaeufiges_zertifikat: part of the cover is provisional', async () => {
    const s = await standort();
    await einlieferung(s, 10, '8000', { zertifikate: [await zertifikat(s, '8000', { vorlaeufig: true })] });
    await bestand(s, '8000');
    await abgaben7000(s);
    expect(await tankAn(s)).toMatchObject({ ampel: 'vorlaeufiges_zertifikat', ampelText: 'Vorläufiges Zertifikat', ampelFarbe: 'blau', ampelIcon: 'clock', gedeckt: '8000' });
  });

  it('ausreichend: 10,000 L of rest at 500 L a day reach 20 days, and nothing follows', async () => {
    const s = await standort();
    const e = await einlieferung(s, 20, '10000', { zertifikate: [await zertifikat(s, '10000')] });
    await bestand(s, '6200', '62');
    await abgaben7000(s);
    expect(await tankAn(s)).toMatchObject({
      ampel: 'ausreichend', ampelText: 'Ausreichend gedeckt', ampelFarbe: 'gruen', ampelIcon: 'check',
      bioMenge: '6200', bioAnteil: '100', volumen: '6200', fuellstand: '62', bestandDatum: daysAgo(1),
      gedeckt: '10000', gedecktProzent: '100', verbrauchProTag: '500', reichweiteTage: 20, aktiveEinlieferungNr: e, nachfolger: false,
    });
  });

  it('ausreichend_mit_nachfolger: enough, and an inbound delivery not yet completed follows', async () => {
    const s = await standort();
    await einlieferung(s, 20, '10000', { zertifikate: [await zertifikat(s, '10000')] });
    await einlieferung(s, 1, '4000', { status: 'open' });
    await bestand(s, '9000');
    await abgaben7000(s);
    expect(await tankAn(s)).toMatchObject({ ampel: 'ausreichend_mit_nachfolger', ampelFarbe: 'gruen', ampelIcon: 'arrow-right', nachfolger: true });
  });

  it('niedrig_mit_nachfolger: the active delivery lasts 7 days; a later delivery with certificate rest follows and does not hide it', async () => {
    const s = await standort();
    const aktiv = await einlieferung(s, 20, '3500', { zertifikate: [await zertifikat(s, '3500')] });
    await einlieferung(s, 4, '6000', { zertifikate: [await zertifikat(s, '6000')] });
    await bestand(s, '7000');
    await abgaben7000(s);
    expect(await tankAn(s)).toMatchObject({
      ampel: 'niedrig_mit_nachfolger', ampelText: 'Niedrig, Nachfolger vorhanden', ampelFarbe: 'gelb', ampelIcon: 'alert',
      aktiveEinlieferungNr: aktiv, reichweiteTage: 7, gedeckt: '9500', gedecktProzent: '100', nachfolger: true,
    });
  });

  it('niedrig_mit_nachfolger: a certificate for the tank not yet linked to a delivery follows too', async () => {
    const s = await standort();
    await einlieferung(s, 20, '3500', { zertifikate: [await zertifikat(s, '3500')] });
    await zertifikat(s, '5000');
    await bestand(s, '3000');
    await abgaben7000(s);
    expect(await tankAn(s)).toMatchObject({ ampel: 'niedrig_mit_nachfolger', reichweiteTage: 7, gedeckt: '3500', nachfolger: true });
  });

  it('niedrig_ohne_nachfolger: 7 days, and nothing follows', async () => {
    const s = await standort();
    await einlieferung(s, 20, '3500', { zertifikate: [await zertifikat(s, '3500')] });
    await bestand(s, '3000');
    await abgaben7000(s);
    expect(await tankAn(s)).toMatchObject({ ampel: 'niedrig_ohne_nachfolger', ampelText: 'Niedrig, kein Nachfolger', ampelFarbe: 'rot', ampelIcon: 'x', reichweiteTage: 7, nachfolger: false });
  });

  it('answers the state texts in English when asked', async () => {
    const s = await standort();
    await bestand(s, '100');
    const res = await api().get(`/api/tankstelle?standortNr=${s}`).set(admin).set('Accept-Language', 'en');
    expect(res.body.tanks[0]).toMatchObject({ ampel: 'keine_lieferungen', ampelText: 'No deliveries' });
    expect(res.body.letzteLieferungen).toEqual([]);
  });

  it('a certificate counted once, at the oldest delivery linking it, its rest in litres', async () => {
    const s = await standort();
    // One collection with 2,000 kg of FAME (2,000 / 0.892 = 2,242.152 L at the group's reference density) arrived as two deliveries.
    const n = await zertifikat(s, '2000', { einheit: 'kg', produktNr: 'P014' });
    const a = (await post('/abholungen', { nr: next('TKA'), lieferdatum: daysAgo(12), lieferstelleNr: s, produktgruppe: 'biodiesel', kraftstoffmenge: '2300', nachweise: [n] })).nr;
    const aelter = await einlieferung(s, 11, '1200');
    const juenger = await einlieferung(s, 10, '1100');
    for (const e of [aelter, juenger]) expect((await api().put(`/api/einlieferungen/${e}/abholung`).set(admin).send({ abholungNr: a })).status).toBe(200);
    await bestand(s, '2000');
    const tank = await tankAn(s);
    const liter = (await t.db.knex('nachweise').where({ mandant: 'DEMO', nr: n }).first('menge_verbleibend')).menge_verbleibend;
    expect(liter).toBe('2000.000');
    expect(tank).toMatchObject({ gedeckt: '2242.152', aktiveEinlieferungNr: aelter, nachfolger: false, ampel: 'ausreichend' });
  });
});

describe('the reach threshold is the tenant setting', () => {
  it('exactly 14 days is sufficient; with the setting at 15 the same tank is low, and back', async () => {
    const s = await standort();
    await einlieferung(s, 20, '7000', { zertifikate: [await zertifikat(s, '7000')] });
    await bestand(s, '5000');
    await abgaben7000(s);
    expect(await tankAn(s)).toMatchObject({ ampel: 'ausreichend', reichweiteTage: 14 });
    const put = await api().put('/api/tankstelle/einstellungen').set(admin).send({ reichweiteTage: 15, verbrauchTage: 14 });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ reichweiteTage: 15, verbrauchTage: 14 });
    try {
      expect(await tankAn(s)).toMatchObject({ ampel: 'niedrig_ohne_nachfolger', reichweiteTage: 14 });
      const res = await api().get(`/api/tankstelle?standortNr=${s}`).set(admin);
      expect(res.body.einstellungen).toEqual({ reichweiteTage: 15, verbrauchTage: 14 });
      // The days of use: over 7 days only the deliveries of 2 and 5 days ago count (5,000 L: 714.286 L a day).
      expect((await api().put('/api/tankstelle/einstellungen').set(admin).send({ reichweiteTage: 14, verbrauchTage: 7 })).status).toBe(200);
      expect(await tankAn(s)).toMatchObject({ verbrauchProTag: '714.286', reichweiteTage: 9, ampel: 'niedrig_ohne_nachfolger' });
    } finally {
      expect((await api().put('/api/tankstelle/einstellungen').set(admin).send({ reichweiteTage: 14, verbrauchTage: 14 })).status).toBe(200);
    }
    expect(await tankAn(s)).toMatchObject({ ampel: 'ausreichend' });
  });
});

describe('the lists', () => {
  it('the 10 latest deliveries are exactly the 10 latest at the location, in and out, not cancelled', async () => {
    const k = t.db.knex;
    for (const s of ['1001', '1002', '1007']) {
      const { rows } = await k.raw(
        `select * from (
           select 'ein' as art, nr, datum::text as datum from einlieferungen where mandant = 'DEMO' and standort_nr = ? and not storniert
           union all
           select 'ab' as art, nr, datum::text as datum from ablieferungen where mandant = 'DEMO' and standort_nr = ? and not storniert) x
         order by datum desc, nr desc, art desc limit 10`,
        [s, s],
      );
      const res = await api().get(`/api/tankstelle?standortNr=${s}`).set(admin);
      expect(res.body.letzteLieferungen.map((l: Row) => [l.art, l.nr, l.datum]), s).toEqual(rows.map((r: Row) => [r.art, r.nr, r.datum]));
      expect(res.body.letzteLieferungen).toHaveLength(10);
    }
    // A cancelled delivery is left out: 1001's demo data has some.
    const storniert = await k('einlieferungen').where({ mandant: 'DEMO', standort_nr: '1001', storniert: true }).first('nr');
    expect(storniert).toBeTruthy();
  });

  it('a delivery of the list names its statuses and links to its page', async () => {
    const res = await api().get('/api/tankstelle?standortNr=1007').set(admin);
    const ein = res.body.letzteLieferungen.find((l: Row) => l.art === 'ein');
    const ab = res.body.letzteLieferungen.find((l: Row) => l.art === 'ab');
    expect(ein).toMatchObject({ href: `/de/bewegungsdaten/einlieferungen/${ein.nr}`, zertifikatStatus: null, verknuepfungStatus: expect.stringMatching(/^(nicht_verknuepft|vorlaeufig|endgueltig)$/), einheit: 'L' });
    expect(ab).toMatchObject({ href: `/de/bewegungsdaten/ablieferungen/${ab.nr}`, verknuepfungStatus: null, zertifikatStatus: expect.stringMatching(/^(keine|ohne_endgueltige|mit_endgueltigen)$/) });
    expect(typeof ein.partnerName).toBe('string');
  });

  it('the pump view sums the outbound deliveries of 30 days by product, with their certificate statuses', async () => {
    const s = await standort();
    await ablieferung(s, 2, '1000');
    await ablieferung(s, 29, '500.5');
    await ablieferung(s, 31, '9999');
    const res = await api().get(`/api/tankstelle/zapfsaeulen?standortNr=${s}`).set(admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ standortNr: s, von: daysAgo(29), bis: daysAgo(0) });
    expect(res.body.produkte).toHaveLength(1);
    expect(res.body.produkte[0]).toMatchObject({ produktNr: 'P013', menge: '1500.5', bioMenge: '1500.5', anzahl: { keine: 2, ohne_endgueltige: 0, mit_endgueltigen: 0 } });
    expect(res.body.produkte[0].ablieferungen.map((a: Row) => a.datum)).toEqual([daysAgo(2), daysAgo(29)]);
    expect(res.body.produkte[0].ablieferungen[0]).toMatchObject({ zertifikatStatus: 'keine', href: expect.stringMatching(/^\/de\/bewegungsdaten\/ablieferungen\/TKL\d+$/) });
  });
});

describe('the chain view', () => {
  it('is newest first, each delivery giving its bio quantity until the content is explained, the rest without origin', async () => {
    const s = await standort();
    const n1 = await zertifikat(s, '3000');
    const alt = await einlieferung(s, 20, '3000', { zertifikate: [n1] });
    const mitte = await einlieferung(s, 10, '2000');
    const neu = await einlieferung(s, 5, '1500');
    await bestand(s, '4000');
    const res = await api().get(`/api/tankstelle/lieferkette?standortNr=${s}&produktNr=P013`).set(admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ standortNr: s, produktNr: 'P013', bioMenge: '4000', ohneHerkunft: '0', summe: '4000' });
    expect(res.body.anteile.map((a: Row) => [a.einlieferungNr, a.bioMenge, a.anteil])).toEqual([[neu, '1500', '1500'], [mitte, '2000', '2000'], [alt, '3000', '500']]);
    expect(res.body.anteile[2]).toMatchObject({
      href: `/de/bewegungsdaten/einlieferungen/${alt}`, verfolgungHref: `/de/bewegungsdaten/nachweisverfolgung/${alt}?art=einlieferung`,
      nachweise: [{ nr: n1, rest: '3000', einheit: 'L', vorlaeufig: false, thg: '10', href: `/de/bewegungsdaten/nachweise/${n1}` }],
    });
    // More in the tank than came in: the rest has no origin.
    await bestand(s, '7000', '70', 0);
    const mehr = await api().get(`/api/tankstelle/lieferkette?standortNr=${s}&produktNr=P013`).set(admin);
    expect(mehr.body).toMatchObject({ bioMenge: '7000', ohneHerkunft: '500', summe: '7000' });
  });

  it('adds up to the tank\'s bio content for every tank of the demo locations', async () => {
    for (const s of ['1001', '1002', '1003', '1004', '1005', '1006', '1007']) {
      const { tanks } = (await api().get(`/api/tankstelle?standortNr=${s}`).set(admin)).body;
      for (const tank of tanks as Row[]) {
        const k = (await api().get(`/api/tankstelle/lieferkette?standortNr=${s}&produktNr=${tank.produktNr}`).set(admin)).body;
        const where = `${s}/${tank.produktNr}`;
        expect(k.bioMenge, where).toBe(tank.bioMenge);
        const summe = (k.anteile as Row[]).reduce((x, a) => x + milli(String(a.anteil)), 0n) + milli(k.ohneHerkunft);
        expect(summe, where).toBe(tank.bioMenge == null ? 0n : milli(String(tank.bioMenge)));
        expect(milli(k.summe), where).toBe(summe);
        for (const a of k.anteile as Row[]) expect(milli(String(a.anteil)) <= milli(String(a.bioMenge)), where).toBe(true);
        const daten = (k.anteile as Row[]).map((a) => String(a.datum));
        expect(daten, where).toEqual([...daten].sort().reverse());
      }
    }
  });

  it('a tank without a Bestand has no content to explain; a product without a tank is a 404', async () => {
    const s = await standort();
    await einlieferung(s, 3, '1000');
    const res = await api().get(`/api/tankstelle/lieferkette?standortNr=${s}&produktNr=P013`).set(admin);
    expect(res.body).toMatchObject({ bioMenge: null, anteile: [], ohneHerkunft: '0', summe: '0' });
    const keiner = await api().get(`/api/tankstelle/lieferkette?standortNr=${s}&produktNr=P001`).set(admin);
    expect(keiner.status).toBe(404);
    expect(keiner.body).toMatchObject({ success: false, code: 'NOT_FOUND', message: 'An diesem Standort gibt es keinen Tank für dieses Produkt.' });
    expect((await api().get(`/api/tankstelle/lieferkette?standortNr=${s}`).set(admin)).status).toBe(404);
  });
});

describe('who sees what', () => {
  it('a user limited to a location sees it only: another is a 404, and NORD never', async () => {
    const leser = await as('TANKLESER', PASSWORT);
    const res = await api().get('/api/tankstelle').set(leser);
    expect(res.status).toBe(200);
    expect(res.body.standortNr).toBe('1001');
    expect(res.body.standorte).toEqual([{ nr: '1001', name: 'Tanklager Hamburg-Waltershof' }]);
    for (const path of ['/api/tankstelle?standortNr=1002', '/api/tankstelle/zapfsaeulen?standortNr=1007', '/api/tankstelle/lieferkette?standortNr=1002&produktNr=P002', '/api/tankstelle?standortNr=2008']) {
      const r = await api().get(path).set(leser);
      expect(r.status, path).toBe(404);
      expect(r.body.code).toBe('NOT_FOUND');
    }
    expect((await api().get('/api/tankstelle').set({ ...leser, 'X-Mandant': 'NORD' })).status).toBe(403);
    // Nor may they change the settings (view right only).
    expect((await api().put('/api/tankstelle/einstellungen').set(leser).send({ reichweiteTage: 20, verbrauchTage: 14 })).status).toBe(403);
    const agent = await signIn(t.app, 'TANKLESER', PASSWORT);
    const page = await agent.get('/de/bewegungsdaten/tankstelle-bestand');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('value="1002"');
    expect(page.text).not.toContain('/tankstelle-bestand/einstellungen');
    expect((await agent.get('/de/bewegungsdaten/tankstelle-bestand?standort=1002')).status).toBe(404);
    expect((await agent.get('/de/bewegungsdaten/tankstelle-bestand/einstellungen')).headers.location).toBe('/de/benutzer/dashboard');
  });

  it("another tenant's location is a 404, as one that does not exist", async () => {
    const nord = await as('ADMIN', 'Admin12345', 'NORD');
    expect((await api().get('/api/tankstelle?standortNr=1007').set(nord)).status).toBe(404);
    expect((await api().get('/api/tankstelle?standortNr=2008').set(admin)).status).toBe(404);
    expect((await api().get('/api/tankstelle?standortNr=gibt-es-nicht').set(admin)).status).toBe(404);
    const own = await api().get('/api/tankstelle').set(nord);
    expect(own.body.standorte.every((s: Row) => String(s.nr).startsWith('20'))).toBe(true);
  });

  it('without right 13 or 14 the API is refused (403) and the page sends to the dashboard; Cockpit (17) alone opens the page, which says why it shows nothing', async () => {
    const ohne = await as('LESER', 'Leser12345');
    for (const path of ['/api/tankstelle', '/api/tankstelle/zapfsaeulen', '/api/tankstelle/lieferkette?standortNr=1001&produktNr=P016', '/api/tankstelle/einstellungen']) {
      expect((await api().get(path).set(ohne)).status, path).toBe(403);
    }
    const leser = await signIn(t.app, 'LESER', 'Leser12345');
    const refused = await leser.get('/de/bewegungsdaten/tankstelle-bestand');
    expect(refused.status).toBe(302);
    expect(refused.headers.location).toBe('/de/benutzer/dashboard');
    const cockpit = await as('TANKCOCKPIT', PASSWORT);
    expect((await api().get('/api/tankstelle').set(cockpit)).status).toBe(403);
    const agent = await signIn(t.app, 'TANKCOCKPIT', PASSWORT);
    const page = await agent.get('/de/bewegungsdaten/tankstelle-bestand');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Keine Berechtigung für die Bestände');
    expect(page.text).not.toContain('tankstelle-ansicht');
  });
});

describe('the settings', () => {
  const stand = async () => (await t.db.knex('mandanten').where({ mandant: 'DEMO' }).first('tank_reichweite_tage', 'tank_verbrauch_tage')) as Row;
  const audits = async () => Number((await t.db.knex('audit_log').where({ mandant: 'DEMO', kind: 'tankstelle.einstellungen.aendern' }).count({ c: '*' }))[0].c);

  it('refuses 0, 366 and "abc" with the field and a translated message, in German and English, and changes nothing', async () => {
    const vorher = await stand();
    const anzahl = await audits();
    for (const [wert, lang, text] of [[0, 'de', 'Bitte geben Sie eine ganze Zahl von 1 bis 365 ein.'], [366, 'en', 'Please enter a whole number from 1 to 365.'], ['abc', 'de', 'Bitte geben Sie eine ganze Zahl von 1 bis 365 ein.'], ['abc', 'en', 'Please enter a whole number from 1 to 365.'], [7.5, 'de', 'Bitte geben Sie eine ganze Zahl von 1 bis 365 ein.']] as const) {
      const res = await api().put('/api/tankstelle/einstellungen').set(admin).set('Accept-Language', lang).send({ reichweiteTage: wert, verbrauchTage: 14 });
      expect(res.status, String(wert)).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'VALIDATION', message: text, errors: [{ field: 'reichweiteTage', message: text }] });
    }
    const beide = await api().put('/api/tankstelle/einstellungen').set(admin).send({ reichweiteTage: '', verbrauchTage: -1 });
    expect(beide.body.errors.map((e: Row) => e.field)).toEqual(['reichweiteTage', 'verbrauchTage']);
    expect(await stand()).toEqual(vorher);
    expect(await audits()).toBe(anzahl);
  });

  it('a change is stored with its audit entry (who, before, after); the same values again write nothing', async () => {
    const auth = await as('TANKSCHREIBER', PASSWORT);
    const anzahl = await audits();
    try {
      const res = await api().put('/api/tankstelle/einstellungen').set(auth).send({ reichweiteTage: '21', verbrauchTage: 10 });
      expect(res.status, res.text).toBe(200);
      expect(await stand()).toEqual({ tank_reichweite_tage: 21, tank_verbrauch_tage: 10 });
      expect((await api().get('/api/tankstelle/einstellungen').set(auth)).body).toEqual({ reichweiteTage: 21, verbrauchTage: 10 });
      const eintrag = await t.db.knex('audit_log').where({ mandant: 'DEMO', kind: 'tankstelle.einstellungen.aendern' }).orderBy('id', 'desc').first();
      const benutzer = await t.db.knex('benutzer').where({ login: 'TANKSCHREIBER' }).first('id');
      expect(eintrag).toMatchObject({ benutzer_id: benutzer.id, entity: 'mandanten', entity_id: 'DEMO', before: { reichweiteTage: 14, verbrauchTage: 14 }, after: { reichweiteTage: 21, verbrauchTage: 10 } });
      expect((await api().put('/api/tankstelle/einstellungen').set(auth).send({ reichweiteTage: 21, verbrauchTage: 10 })).status).toBe(200);
      expect(await audits()).toBe(anzahl + 1);
    } finally {
      await api().put('/api/tankstelle/einstellungen').set(admin).send({ reichweiteTage: 14, verbrauchTage: 14 });
    }
  });

  it('the page\'s form: a refused value shows the form again with its error, a good one saves and goes back with a message', async () => {
    const agent = await signIn(t.app, 'TANKSCHREIBER', PASSWORT, 'DEMO');
    const form = await agent.get('/de/bewegungsdaten/tankstelle-bestand/einstellungen');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="f-reichweiteTage">Ausreichend ab (Tage Reichweite)');
    expect(form.text).toContain('value="14"');
    const refused = await agent.post('/de/bewegungsdaten/tankstelle-bestand/einstellungen').type('form').send({ _csrf: csrfFrom(form.text), reichweiteTage: '366', verbrauchTage: 'abc' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="f-reichweiteTage-error"');
    expect(refused.text).toContain('id="f-verbrauchTage-error"');
    expect(refused.text).toContain('Bitte geben Sie eine ganze Zahl von 1 bis 365 ein.');
    expect(refused.text).toContain('value="366"');
    expect(await stand()).toEqual({ tank_reichweite_tage: 14, tank_verbrauch_tage: 14 });
    try {
      const saved = await agent.post('/de/bewegungsdaten/tankstelle-bestand/einstellungen').type('form').send({ _csrf: csrfFrom(form.text), reichweiteTage: '10', verbrauchTage: '7' });
      expect(saved.status).toBe(302);
      expect(saved.headers.location).toBe('/de/bewegungsdaten/tankstelle-bestand');
      const page = await agent.get(saved.headers.location);
      expect(page.text).toContain('Die Einstellungen der Tankstelle wurden gespeichert.');
      expect(page.text).toContain('Ausreichend ab 10 Tagen Reichweite');
      const en = await signIn(t.app, 'TANKSCHREIBER', PASSWORT, 'DEMO', 'en');
      const enForm = await en.get('/en/bewegungsdaten/tankstelle-bestand/einstellungen');
      const enRefused = await en.post('/en/bewegungsdaten/tankstelle-bestand/einstellungen').type('form').send({ _csrf: csrfFrom(enForm.text), reichweiteTage: '0', verbrauchTage: '7' });
      expect(enRefused.status).toBe(400);
      expect(enRefused.text).toContain('Please enter a whole number from 1 to 365.');
    } finally {
      await api().put('/api/tankstelle/einstellungen').set(admin).send({ reichweiteTage: 14, verbrauchTage: 14 });
    }
  });
});

describe('the page without JavaScript', () => {
  it('shows the tanks with gauge, figures, state and links, the legend, and the 10 latest deliveries', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const res = await agent.get('/de/bewegungsdaten/tankstelle-bestand?standort=1007');
    expect(res.status).toBe(200);
    const html = res.text;
    // The island's element (islands/tankstelle) holds the whole page below the intro, complete without script.
    expect(html).toContain('<div id="tankstelle-ansicht" class="tankstelle" data-island="tankstelle" data-props=');
    expect(html.match(/data-island=/g)).toHaveLength(1);
    expect(html).toMatch(/<form method="get" action="\/de\/bewegungsdaten\/tankstelle-bestand"[^>]*>[^]*?<select id="tankstelle-standort" name="standort"[^]*?<button type="submit"/);
    expect(html).toMatch(/<a id="tankstelle-tabs-1" href="[^"]*ansicht=tanks[^"]*" aria-current="page">Tanks<\/a>/);
    expect(html).toMatch(/<a id="tankstelle-tabs-2" href="[^"]*ansicht=zapfsaeulen[^"]*" >Zapfsäulen<\/a>/);
    for (const a of TANK_AMPELN) {
      const text = { ausreichend: 'Ausreichend gedeckt', ausreichend_mit_nachfolger: 'Ausreichend, Nachfolger vorhanden', niedrig_mit_nachfolger: 'Niedrig, Nachfolger vorhanden', niedrig_ohne_nachfolger: 'Niedrig, kein Nachfolger', keine_aktive_lieferung: 'Keine aktive Lieferung', keine_lieferungen: 'Keine Lieferungen', vorlaeufiges_zertifikat: 'Vorläufiges Zertifikat' }[a];
      // On its tank's card and in the legend, each time with its icon.
      expect(html.split(`</svg>${text}</span>`).length - 1, a).toBe(2);
    }
    // The gauge: an accessible name with the level, the level as its height and as text, volume and date.
    expect(html).toMatch(/<div class="tank-gauge" role="img" aria-label="Füllstand HVO100: 48,33 %">\s*<div class="tank-gauge-fill tank-fill-48"><\/div>/);
    expect(html).toContain('<p class="tank-level-value">48,33\u00a0%</p>');
    expect(html).toContain('14.500\u00a0L');
    expect(html).toMatch(/Bestand vom \d\d\.\d\d\.\d{4}/);
    expect(html).toContain('href="/de/bewegungsdaten/tankstelle-bestand?standort=1007&amp;ansicht=lieferkette&amp;produkt=P017"');
    expect(html).toContain('32 Tage');
    expect(html).toContain('Ausreichend ab 14 Tagen Reichweite');
    expect(html).toContain('href="/de/bewegungsdaten/tankstelle-bestand/einstellungen"');
    const letzte = html.slice(html.indexOf('id="tankstelle-letzte-heading"'));
    expect(letzte.match(/<tr>\s*<th scope="row"><a href="\/de\/bewegungsdaten\/(ein|ab)lieferungen\//g)).toHaveLength(10);
  });

  it('shows the pump view and the chain view, each with the latest deliveries below', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const pumpen = (await agent.get('/de/bewegungsdaten/tankstelle-bestand?standort=1007&ansicht=zapfsaeulen')).text;
    expect(pumpen).toMatch(/aria-current="page">Zapfsäulen</);
    expect(pumpen).toMatch(/<h3 id="pumpe-P017" class="card-title">HVO100/);
    expect(pumpen).toMatch(/<a class="badge-link" href="\/de\/bewegungsdaten\/ablieferungen\/AL-T1007-\d+">\s*<span class="badge badge-success">mit endgültigen<\/span><\/a>/);
    expect(pumpen).toContain('id="tankstelle-letzte-heading"');
    const kette = (await agent.get('/de/bewegungsdaten/tankstelle-bestand?standort=1007&ansicht=lieferkette&produkt=P021')).text;
    expect(kette).toMatch(/aria-current="page">Lieferkette</);
    expect(kette).toContain('<option value="P021" selected>');
    expect(kette).toMatch(/href="\/de\/bewegungsdaten\/einlieferungen\/EL-T1007-\d+"/);
    expect(kette).toMatch(/href="\/de\/bewegungsdaten\/nachweisverfolgung\/EL-T1007-\d+\?art=einlieferung"/);
    expect(kette).toMatch(/href="\/de\/bewegungsdaten\/nachweise\/NW-T1007-\d+"/);
    expect(kette).toContain('Ohne Herkunft');
    expect(kette).toMatch(/Summe = Bio-Inhalt<\/th>\s*<td class="num"><strong>8.500\u00a0L<\/strong>/);
    expect(kette).toContain('id="tankstelle-letzte-heading"');
    const en = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO', 'en');
    expect((await en.get('/en/bewegungsdaten/tankstelle-bestand?standort=1007')).text).toContain('Sufficiently covered');
  });

  it('a location without tanks says so', async () => {
    const s = await standort();
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const html = (await agent.get(`/de/bewegungsdaten/tankstelle-bestand?standort=${s}`)).text;
    expect(html).toContain('An diesem Standort gibt es keine Tanks: weder Bestände noch Einlieferungen.');
    expect(html).toContain('An diesem Standort gibt es noch keine Lieferungen.');
    expect((await agent.get(`/de/bewegungsdaten/tankstelle-bestand?standort=${s}&ansicht=lieferkette`)).text).toContain('An diesem Standort gibt es keine Tanks.');
    expect((await agent.get(`/de/bewegungsdaten/tankstelle-bestand?standort=${s}&ansicht=zapfsaeulen`)).text).toContain('keine Ablieferungen');
  });
});

describe('the cost of a location', () => {
  it('is the same handful of statements for one tank as for seven', async () => {
    const zaehlen = async (standortNr: string) => {
      await api().get(QUERY_COUNTS_PATH);
      expect((await api().get(`/api/tankstelle?standortNr=${standortNr}`).set(admin).set('x-bench-label', 'tanks')).status).toBe(200);
      return (await api().get(QUERY_COUNTS_PATH)).body.tanks.queries as number;
    };
    const s = await standort();
    await bestand(s, '100');
    const eins = await zaehlen(s);
    const sieben = await zaehlen('1007');
    expect((await api().get('/api/tankstelle?standortNr=1007').set(admin)).body.tanks).toHaveLength(7);
    expect(sieben).toBe(eins);
    expect(sieben).toBeLessThanOrEqual(14);
  });
});
