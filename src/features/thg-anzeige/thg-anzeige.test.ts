// The public THG display through HTTP against the seeded database: the worked example of domain-notes.md
// (27.753 t) in a tenant of its own, DEMO's figures against a computation of this file over the seeded rows
// (before and after its open Bilanz is allocated and closed, so nothing counts twice), revoked and renewed
// links, what the display never shows, its caching, the administrators' page with its audit entries, and a newer
// equivalent factor taking effect from its date.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alsText, dez, gerundet, mal, minus, plus, quotient, verschoben, type Dez } from '../../domain/dezimal.js';
import { REFERENZWERTE, type Produktgruppe } from '../../domain/fuels.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { zertifikatEingabe } from '../../testing/factories.js';
import { csrfFrom, setCookies, signIn, type Agent } from '../../testing/session.js';
import { heuteInDeutschland } from '../zuordnung/service.js';

let t: TestApp;
const heute = heuteInDeutschland();
const monatAb = `${heute.slice(0, 8)}01`;
const jahrAb = `${heute.slice(0, 5)}01-01`;
const DEMO_LINK = 'demo-thg-anzeige';

const login = async (l: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login: l, password })).body.token as string;
const as = async (l: string, password: string, mandant = 'DEMO') => ({ Authorization: await login(l, password), 'X-Mandant': mandant });
const json = (token: string) => request(t.app).get(`/api/thg-anzeige/${token}`);
const seite = (token: string, query = '', lang = 'de') => request(t.app).get(`/${lang}/thg-anzeige/${token}${query}`);
const tokenOf = async (mandant: string) => (await t.db.knex('mandanten').where({ mandant }).first('thg_anzeige_token')).thg_anzeige_token as string | null;
const auditOf = (mandant: string) => t.db.knex('audit_log').where({ entity: 'thg-anzeige', entity_id: mandant }).orderBy('id').select('kind', 'mandant', 'benutzer_id', 'before', 'after');
/** The three tiles' figures as the page shows them. */
const kacheln = (html: string) => [...html.matchAll(/data-zeitraum="(\w+)">([^<]*)</g)].map((m) => [m[1], m[2]]);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * The saving of DEMO's posts, computed here from the rows: the live proofs on outbound deliveries and the lines of
 * open Bilanzen without a POC, each quantity × LCV (the certificate's, in the quantity's unit, or the group's
 * reference value) × (94.1 − E) / 10⁶, summed per period and rounded to three places at the end.
 */
async function vonHand(mandant: string): Promise<{ heute: string; monat: string; jahr: string }> {
  const { rows } = await t.db.knex.raw(
    `select a.datum::text as datum, nb.volumen as menge, nb.einheit as einheit, nb.thg_emission as e, n.lcv, n.einheit as lcv_einheit, n.produktgruppe
       from nachweisbescheinigungen nb
       join ablieferungen a on a.mandant = nb.mandant and a.nr = nb.ablieferung_nr
       join nachweise n on n.mandant = nb.mandant and n.nr = nb.nachweis_nr
      where nb.mandant = :mandant and not nb.storniert and not a.storniert
     union all
     select a.datum::text, z.menge, b.einheit, coalesce(z.thg, n.thg), n.lcv, n.einheit, n.produktgruppe
       from bilanz_zeilen z
       join bilanzen b on b.mandant = z.mandant and b.id = z.bilanz_id
       join ablieferungen a on a.mandant = z.mandant and a.nr = z.ablieferung_nr
       join nachweise n on n.mandant = z.mandant and n.nr = z.nachweis_nr
      where z.mandant = :mandant and b.status = 'offen' and z.nachweisbescheinigung_nr is null and not a.storniert`,
    { mandant },
  );
  const summe = { heute: dez('0'), monat: dez('0'), jahr: dez('0') };
  for (const r of rows as { datum: string; menge: string; einheit: string; e: string; lcv: string | null; lcv_einheit: string; produktgruppe: Produktgruppe }[]) {
    const ref = REFERENZWERTE[r.produktgruppe];
    let lcv: Dez;
    if (r.lcv == null) lcv = dez(String(r.einheit === 'L' ? ref.mjProL : ref.mjProKg));
    else if (r.lcv_einheit === r.einheit) lcv = dez(r.lcv);
    // MJ/kg × kg/L = MJ/L, MJ/L ÷ kg/L = MJ/kg, to four places as a stored LCV.
    else lcv = r.einheit === 'L' ? gerundet(mal(dez(r.lcv), dez(String(ref.kgProL))), 4) : quotient(dez(r.lcv), dez(String(ref.kgProL)), 4);
    const t = verschoben(mal(mal(dez(r.menge), lcv), minus(dez('94.1'), dez(r.e))), 6);
    if (r.datum > heute || r.datum < jahrAb) continue;
    summe.jahr = plus(summe.jahr, t);
    if (r.datum >= monatAb) summe.monat = plus(summe.monat, t);
    if (r.datum === heute) summe.heute = plus(summe.heute, t);
  }
  const drei = (d: Dez) => alsText(gerundet(d, 3));
  return { heute: drei(summe.heute), monat: drei(summe.monat), jahr: drei(summe.jahr) };
}

describe('the worked example: 10,000 L FAME, E = 10, 33 MJ/L, delivered today', () => {
  let token: string;

  beforeAll(async () => {
    // A tenant of its own, made by the system administrator, with its master data through the API.
    const admin = await as('ADMIN', 'Admin12345');
    const tenant = await request(t.app).post('/api/mandanten').set(admin).send({ mandant: 'THGTEST', name: 'Beispiel Biokraftstoffe GmbH' });
    expect(tenant.status, tenant.text).toBe(201);
    const auth = { ...admin, 'X-Mandant': 'THGTEST' };
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await request(t.app).post(`/api${path}`).set(auth).send(body);
      expect(res.status, `${path}: ${res.text}`).toBe(201);
      return res.body;
    };
    await post('/standorte', { nr: '9001', name: 'Testlager Beispielhafen', plz: '20457', stadt: 'Hamburg', land: 'Deutschland' });
    await post('/tauschpartner', { nr: 'K1', name: 'Kunde Beispiel', plz: '20457', stadt: 'Hamburg', land: 'Deutschland' });
    await post('/produkte', { nr: 'FAME', name: 'Biodiesel B100 (FAME)', produktgruppe: 'biodiesel', biogehalt: '100', lcv: '33', lcvEinheit: 'MJ/L' });
    await post('/ablieferungen', { nr: 'AB-1', lieferdatum: heute, menge: '10000', uomMenge: 'L', partnerNr: 'K1', standortNr: '9001', produktNr: 'FAME' });
    await post('/nachweise', zertifikatEingabe({
      nr: 'N-1', standortNr: '9001', produktNr: 'FAME', lcv: '33', ausstellungsdatum: heute, zeitraumVon: monatAb, zeitraumBis: heute,
      lieferungVon: heute, lieferungBis: heute, lieferantZertifikatNr: 'EU-ISCC-Cert-DE100-0001',
    }));
    await post('/ablieferungen/AB-1/nachweise', { nachweisNr: 'N-1', volumen: '10000' });
    const published = await post('/thg-anzeige', {});
    expect(published.data).toMatchObject({ veroeffentlicht: true, pfad: `/de/thg-anzeige/${published.data.token}` });
    token = published.data.token;
  });

  it('a new link is random, 32 characters of base64url', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(token).not.toBe(DEMO_LINK);
  });

  it('the JSON: 27.753 t today, this month and this year, and what that equals', async () => {
    const res = await json(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mandant: 'Beispiel Biokraftstoffe GmbH', heute: '27.753', monat: '27.753', jahr: '27.753', stand: heute, berechnetAm: expect.any(String),
      aequivalente: [
        // 27,753 kg ÷ 21 = 1,321.57; ÷ 107 = 259.37; ÷ 12 = 2,312.75; ÷ 99.5 = 278.92.
        { einheit: 'auto_100km', anzahl: 1322, kgCo2e: '21', quelle: 'Kraftstoffbasiert: 7 L Benzin × 32 MJ/L × 93,3 g/MJ je Pkw; UBA: 15,4 kg je Person und 100 km' },
        { einheit: 'flug_500km', anzahl: 259, kgCo2e: '107', quelle: 'UBA 2019, Inlandsflüge: 214 g je Personenkilometer' },
        { einheit: 'schwein_kg', anzahl: 2313, kgCo2e: '12', quelle: 'Poore & Nemecek 2018, Schweinefleisch' },
        { einheit: 'rind_kg', anzahl: 279, kgCo2e: '99.5', quelle: 'Poore & Nemecek 2018, Rindfleisch' },
      ],
    });
  });

  it('the page in German and English: the figures in each language\'s numbers, each equivalent an estimate with its source', async () => {
    const de = await seite(token);
    expect(de.status).toBe(200);
    expect(kacheln(de.text)).toEqual([['heute', '27,753'], ['monat', '27,753'], ['jahr', '27,753']]);
    for (const text of ['<h1>THG-Einsparungen <span class="thg-mandant">Beispiel Biokraftstoffe GmbH</span></h1>', 't CO₂-Äquivalent',
      '≈ 1.322 Autofahrten à 100 km', 'Schätzung je Pkw, nicht je Person: 21 kg CO₂-Äq je Fahrt über 100 km.', '≈ 259 Flüge à 500 km',
      '≈ 2.313 kg Schweinefleisch', 'Schätzung für Schweinefleisch: 12 kg CO₂-Äq je kg.', '≈ 279 kg Rindfleisch', 'Schätzung für Rindfleisch: 99,5 kg CO₂-Äq je kg.',
      'Quelle: Poore &amp; Nemecek 2018, Rindfleisch', 'Quelle: UBA 2019, Inlandsflüge', `href="/de/thg-anzeige/${token}?vollbild=1"`]) {
      expect(de.text, text).toContain(text);
    }
    expect(de.text).toMatch(/Stand: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
    const en = await seite(token, '', 'en');
    expect(kacheln(en.text)).toEqual([['heute', '27.753'], ['monat', '27.753'], ['jahr', '27.753']]);
    for (const text of ['≈ 1,322 car trips of 100 km', 'Estimate per car, not per person', '≈ 2,313 kg of pork', '≈ 279 kg of beef', 't CO₂ equivalent']) {
      expect(en.text, text).toContain(text);
    }
  });

  it('a renewed link works at once and the old one answers 404; a revoked one answers 404 like a link that never existed', async () => {
    const auth = { ...(await as('ADMIN', 'Admin12345')), 'X-Mandant': 'THGTEST' };
    const neu = await request(t.app).post('/api/thg-anzeige').set(auth).send({});
    expect(neu.status).toBe(201);
    const neuerToken = neu.body.data.token as string;
    expect(neuerToken).not.toBe(token);
    expect((await json(token)).status).toBe(404);
    expect((await seite(token)).status).toBe(404);
    expect((await json(neuerToken)).body.jahr).toBe('27.753');
    expect((await seite(neuerToken)).status).toBe(200);

    const weg = await request(t.app).delete('/api/thg-anzeige').set(auth);
    expect(weg.body.data).toMatchObject({ veroeffentlicht: false, token: null, pfad: null });
    const revoked = await json(neuerToken);
    const never = await json('gab-es-nie-0123456789');
    for (const res of [revoked, never]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', errors: [], message: 'Diese THG-Anzeige gibt es nicht oder nicht mehr. Vielleicht wurde ihr Link erneuert oder widerrufen.' });
      // Not kept by a cache: a link published again later must not find a stale 404.
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const page = await seite(neuerToken);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Diese THG-Anzeige gibt es nicht oder nicht mehr.');
    expect((await seite(neuerToken, '', 'en')).text).toContain('This GHG display does not exist, or no longer exists.');
    // Whatever else comes in a link's place is no token: 404, never a 500.
    for (const bad of ['kurz', 'x'.repeat(65), 'mit%20leerzeichen-1234567890', '%27%3B--0123456789abcdef']) {
      expect((await json(bad)).status, bad).toBe(404);
      expect((await seite(bad)).status, bad).toBe(404);
    }
    // Revoking what is not published changes nothing and writes no entry.
    const before = await auditOf('THGTEST');
    expect((await request(t.app).delete('/api/thg-anzeige').set(auth)).status).toBe(200);
    expect(await auditOf('THGTEST')).toEqual(before);
    expect(before.map((e) => e.kind)).toEqual(['admin.thg_anzeige.publish', 'admin.thg_anzeige.rotate', 'admin.thg_anzeige.revoke']);
  });

  it('a deactivated tenant\'s display answers 404', async () => {
    const auth = { ...(await as('ADMIN', 'Admin12345')), 'X-Mandant': 'THGTEST' };
    const link = (await request(t.app).post('/api/thg-anzeige').set(auth).send({})).body.data.token as string;
    expect((await json(link)).status).toBe(200);
    await t.db.knex('mandanten').where({ mandant: 'THGTEST' }).update({ status: 'inactive' });
    try {
      expect((await json(link)).status).toBe(404);
    } finally {
      await t.db.knex('mandanten').where({ mandant: 'THGTEST' }).update({ status: 'active' });
    }
  });
});

describe("DEMO's display", () => {
  it('is published under the demo link and equals the computation over the seeded rows; today, month and year are not zero', async () => {
    const res = await json(DEMO_LINK);
    expect(res.status).toBe(200);
    expect(res.body.mandant).toBe('Demo Energiehandel GmbH');
    const hand = await vonHand('DEMO');
    expect({ heute: res.body.heute, monat: res.body.monat, jahr: res.body.jahr }).toEqual(hand);
    // The seed's delivery of today is the worked example.
    expect(Number(hand.heute)).toBeGreaterThanOrEqual(27.753);
    expect(Number(hand.monat)).toBeGreaterThanOrEqual(Number(hand.heute));
    // The seed's deliveries reach back three months: before them this year holds more than this month, except
    // in January, when this year so far is this month so far.
    if (monatAb === jahrAb) expect(hand.jahr).toBe(hand.monat);
    else expect(Number(hand.jahr)).toBeGreaterThan(Number(hand.monat));
    expect(res.body.aequivalente.map((a: { anzahl: number }) => a.anzahl)).toEqual(
      ['21', '107', '12', '99.5'].map((kg) => Math.round((Number(res.body.jahr) * 1000) / Number(kg))),
    );
    expect(await tokenOf('NORD')).toBeNull();
  });

  it('counts the open Bilanz\'s lines once allocated, and nothing twice once it is closed', async () => {
    const auth = await as('TADMIN', 'Tadmin12345');
    const offen = await t.db.knex('bilanzen').where({ mandant: 'DEMO', status: 'offen' }).first('id');
    const verteilt = await request(t.app).post(`/api/bilanzen/${offen.id}/verteilung`).set(auth).send({});
    expect(verteilt.status, verteilt.text).toBe(200);
    const zeilen = await t.db.knex('bilanz_zeilen').where({ mandant: 'DEMO', bilanz_id: offen.id }).count({ n: '*' }).first();
    expect(Number(zeilen!.n), 'the open Bilanz has lines to count').toBeGreaterThan(0);
    const vorher = await json(DEMO_LINK);
    const hand = await vonHand('DEMO');
    expect({ heute: vorher.body.heute, monat: vorher.body.monat, jahr: vorher.body.jahr }).toEqual(hand);

    const geschlossen = await request(t.app).post(`/api/bilanzen/${offen.id}/abschluss`).set(auth).send({});
    expect(geschlossen.status, geschlossen.text).toBe(201);
    const nachher = await json(DEMO_LINK);
    expect({ heute: nachher.body.heute, monat: nachher.body.monat, jahr: nachher.body.jahr }).toEqual(await vonHand('DEMO'));
    // The lines became POCs: the same saving (a POC in the certificate's other unit may differ in the last kilogram).
    expect(Math.abs(Number(nachher.body.jahr) - Number(vorher.body.jahr))).toBeLessThanOrEqual(0.002);
  });

  it('never shows another tenant\'s figures, nor any delivery, partner, location, product or user', async () => {
    const nord = await as('ADMIN', 'Admin12345', 'NORD');
    const published = await request(t.app).post('/api/thg-anzeige').set(nord).send({});
    expect(published.status).toBe(201);
    const nordJson = (await json(published.body.data.token)).body;
    const demoJson = (await json(DEMO_LINK)).body;
    expect(nordJson.mandant).toBe('Nordsee Mineralöl AG');
    expect(nordJson.jahr).not.toBe(demoJson.jahr);
    expect({ heute: nordJson.heute, monat: nordJson.monat, jahr: nordJson.jahr }).toEqual(await vonHand('NORD'));

    const demoSeiten = [await seite(DEMO_LINK), await seite(DEMO_LINK, '?vollbild=1'), await seite(DEMO_LINK, '', 'en')];
    const nordSeite = await seite(published.body.data.token);
    const format = (x: string) => new Intl.NumberFormat('de-DE', { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(Number(x));
    expect(kacheln(nordSeite.text).map(([, v]) => v)).toEqual([nordJson.heute, nordJson.monat, nordJson.jahr].map(format));
    for (const page of demoSeiten) {
      expect(page.text).not.toContain('Nordsee');
      if (Number(nordJson.jahr) > 0) expect(page.text).not.toContain(`>${format(nordJson.jahr)}<`);
    }
    expect(nordSeite.text).not.toContain('Demo Energiehandel');

    // Nothing of the records behind the figures: no numbers of deliveries, proofs or certificates, no names.
    const namen = async (sql: string) => (await t.db.knex.raw(sql)).rows.map((r: { x: string }) => r.x) as string[];
    const verboten = [
      ...(await namen(`select nr as x from ablieferungen where mandant = 'DEMO' union select nr from nachweisbescheinigungen where mandant = 'DEMO'
        union select nr from nachweise where mandant = 'DEMO'`)),
      ...(await namen(`select name as x from tauschpartner where mandant = 'DEMO' union select name from standorte where mandant = 'DEMO'
        union select name from produkte where mandant = 'DEMO'`)),
      ...(await namen(`select vorname || ' ' || nachname as x from benutzer union select login from benutzer`)),
    ];
    expect(verboten.length).toBeGreaterThan(100);
    for (const text of [...demoSeiten.map((p) => p.text), JSON.stringify(demoJson)]) {
      const gefunden = verboten.filter((v) => text.includes(v));
      expect(gefunden).toEqual([]);
    }
  });

  it('needs no sign-in, sets no cookie, loads no script, and may be cached for a minute; the large-screen mode reloads every 5 minutes', async () => {
    for (const [path, refresh] of [[`/de/thg-anzeige/${DEMO_LINK}`, false], [`/de/thg-anzeige/${DEMO_LINK}?vollbild=1`, true], ['/de/thg-anzeige', false], [`/api/thg-anzeige/${DEMO_LINK}`, false]] as const) {
      const res = await request(t.app).get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('public, max-age=60');
      expect(setCookies(res), path).toEqual([]);
      if (path.startsWith('/api')) continue;
      expect(res.headers.vary, path).toMatch(/Cookie/);
      expect(res.text, path).not.toMatch(/<script/);
      expect(res.text, path).not.toContain('name="_csrf"');
      expect(res.text.includes('<meta http-equiv="refresh" content="300">'), path).toBe(refresh);
    }
    // Signed in, the page is the same: nothing of the visitor in it, no cookie renewed.
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const signedIn = await agent.get(`/de/thg-anzeige/${DEMO_LINK}`);
    expect(signedIn.status).toBe(200);
    expect(setCookies(signedIn)).toEqual([]);
    expect(signedIn.text).not.toContain('Teichmann');
    expect(kacheln(signedIn.text)).toEqual(kacheln((await seite(DEMO_LINK)).text));
    // The large-screen mode has no header; its way back ends the reload.
    const vollbild = await seite(DEMO_LINK, '?vollbild=1&thema=dunkel');
    expect(vollbild.text).toContain('<body class="public thg-seite thg-vollbild">');
    expect(vollbild.text).toContain('data-theme="dark"');
    expect(vollbild.text).not.toContain('class="app-header"');
    expect(vollbild.text).toContain(`<a href="/de/thg-anzeige/${DEMO_LINK}?thema=dunkel">Automatische Aktualisierung beenden</a>`);
  });

  it('the bare path explains the display and how to publish one, with no tenant\'s data', async () => {
    const res = await request(t.app).get('/de/thg-anzeige');
    expect(res.text).toContain('<h1>Öffentliche THG-Anzeige</h1>');
    expect(res.text).toContain('„Öffentliche THG-Anzeige“');
    expect(res.text).not.toContain('Demo Energiehandel');
    expect(res.text).not.toContain('data-zeitraum');
    expect((await request(t.app).get('/en/thg-anzeige')).text).toContain('How to publish a display');
  });
});

describe('the publication page of the tenant administrators', () => {
  let tadmin: Agent;
  let tadminId: number;
  beforeAll(async () => {
    tadmin = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    tadminId = (await t.db.knex('benutzer').where({ login: 'TADMIN' }).first('id')).id;
  });
  afterAll(async () => {
    await t.db.knex('mandanten').where({ mandant: 'DEMO' }).update({ thg_anzeige_token: DEMO_LINK });
  });

  it('shows the link, the large-screen link and the figures; renews, revokes and publishes again, each with its audit entry', async () => {
    const page = await tadmin.get('/de/benutzer/thg-anzeige');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Öffentliche THG-Anzeige</h1>');
    expect(page.text).toMatch(/Veröffentlicht seit \d{2}\.\d{2}\.\d{4}/);
    expect(page.text).toMatch(new RegExp(`<input id="thg-link" name="link" type="text" value="http://127\\.0\\.0\\.1:\\d+/de/thg-anzeige/${DEMO_LINK}"[^>]*readonly`));
    expect(page.text).toContain(`/de/thg-anzeige/${DEMO_LINK}?vollbild=1`);
    expect(kacheln(page.text).map(([k]) => k)).toEqual(['heute', 'monat', 'jahr']);
    expect(page.text).toContain('Der bisherige Link funktioniert danach sofort nicht mehr');
    expect(page.text).toContain('href="/de/benutzer/thg-anzeige" aria-current="page"');

    // Replacing the link asks first; that step and cancelling (the link back to the page) change nothing.
    const askedRotate = await tadmin.post('/de/benutzer/thg-anzeige/link').type('form').send({ _csrf: csrfFrom(page.text), erwartet: 'veroeffentlicht' });
    expect(askedRotate.status).toBe(200);
    expect(askedRotate.text).toContain('Neuen Link für die THG-Anzeige erzeugen?');
    expect(askedRotate.text).toContain('Der bisherige Link der THG-Anzeige von');
    expect(askedRotate.text).toContain('name="erwartet" value="veroeffentlicht"');
    expect(askedRotate.text).toContain('name="bestaetigt" value="ja"');
    expect(askedRotate.text).toMatch(/<a class="btn btn-ghost" href="\/de\/benutzer\/thg-anzeige">/);
    expect(await tokenOf('DEMO')).toBe(DEMO_LINK);
    expect((await tadmin.get('/de/benutzer/thg-anzeige')).status).toBe(200);
    expect(await tokenOf('DEMO')).toBe(DEMO_LINK);
    expect((await json(DEMO_LINK)).status).toBe(200);
    const rotated = await tadmin.post('/de/benutzer/thg-anzeige/link').type('form').send({ _csrf: csrfFrom(askedRotate.text), erwartet: 'veroeffentlicht', bestaetigt: 'ja' });
    expect(rotated.status).toBe(302);
    expect(rotated.headers.location).toBe('/de/benutzer/thg-anzeige');
    const neu = await tokenOf('DEMO');
    expect(neu).not.toBe(DEMO_LINK);
    expect((await json(DEMO_LINK)).status).toBe(404);
    expect((await json(neu!)).status).toBe(200);
    const after = await tadmin.get('/de/benutzer/thg-anzeige');
    expect(after.text).toContain('Die THG-Anzeige hat einen neuen Link; der alte funktioniert nicht mehr.');
    expect(after.text).toContain(`/de/thg-anzeige/${neu}`);

    const askedRevoke = await tadmin.post('/de/benutzer/thg-anzeige/widerruf').type('form').send({ _csrf: csrfFrom(after.text) });
    expect(askedRevoke.status).toBe(200);
    expect(askedRevoke.text).toContain('Veröffentlichung der THG-Anzeige widerrufen?');
    expect(askedRevoke.text).toContain('name="bestaetigt" value="ja"');
    expect(await tokenOf('DEMO')).toBe(neu);
    expect((await tadmin.get('/de/benutzer/thg-anzeige')).status).toBe(200);
    expect((await json(neu!)).status).toBe(200);
    const revoked = await tadmin.post('/de/benutzer/thg-anzeige/widerruf').type('form').send({ _csrf: csrfFrom(askedRevoke.text), bestaetigt: 'ja' });
    expect(revoked.status).toBe(302);
    expect(await tokenOf('DEMO')).toBeNull();
    expect((await json(neu!)).status).toBe(404);
    const unpublished = await tadmin.get('/de/benutzer/thg-anzeige');
    expect(unpublished.text).toContain('Nicht veröffentlicht');
    expect(unpublished.text).toContain('Die Veröffentlichung der THG-Anzeige wurde widerrufen.');
    expect(unpublished.text).toContain('name="erwartet" value="unveroeffentlicht"');

    const published = await tadmin.post('/de/benutzer/thg-anzeige/link').type('form').send({ _csrf: csrfFrom(unpublished.text), erwartet: 'unveroeffentlicht' });
    expect(published.status).toBe(302);
    const wieder = await tokenOf('DEMO');
    expect(wieder).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await tadmin.get('/de/benutzer/thg-anzeige')).text).toContain('Die THG-Anzeige ist veröffentlicht.');

    const eintraege = await auditOf('DEMO');
    expect(eintraege.map((e) => [e.kind, e.mandant, e.benutzer_id])).toEqual([
      ['admin.thg_anzeige.rotate', 'DEMO', tadminId], ['admin.thg_anzeige.revoke', 'DEMO', tadminId], ['admin.thg_anzeige.publish', 'DEMO', tadminId],
    ]);
    expect(eintraege[1]).toMatchObject({ before: { veroeffentlicht: true }, after: { veroeffentlicht: false, seit: null } });
    // The secret stays out of the log.
    expect(JSON.stringify(eintraege)).not.toContain(wieder);
    expect(JSON.stringify(eintraege)).not.toContain(neu);
  });

  it('a stale form (published meanwhile) changes nothing and says so', async () => {
    const link = await tokenOf('DEMO');
    const page = await tadmin.get('/de/benutzer/thg-anzeige');
    const before = (await auditOf('DEMO')).length;
    const stale = await tadmin.post('/de/benutzer/thg-anzeige/link').type('form').send({ _csrf: csrfFrom(page.text), erwartet: 'unveroeffentlicht' });
    expect(stale.status).toBe(302);
    expect(await tokenOf('DEMO')).toBe(link);
    expect((await auditOf('DEMO')).length).toBe(before);
    expect((await tadmin.get('/de/benutzer/thg-anzeige')).text).toContain('Die Anzeige wurde inzwischen schon veröffentlicht; es wurde kein weiterer Link erzeugt.');
  });

  it('the API gives the publication to tenant administrators only', async () => {
    const res = await request(t.app).get('/api/thg-anzeige').set(await as('TADMIN', 'Tadmin12345'));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ veroeffentlicht: true, token: await tokenOf('DEMO') });
  });

  it('USER does not see the page or the sidebar entry, and every change is refused', async () => {
    const link = await tokenOf('DEMO');
    const before = (await auditOf('DEMO')).length;
    const user = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const page = await user.get('/de/benutzer/thg-anzeige');
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe('/de/benutzer/dashboard');
    const dashboard = await user.get('/de/benutzer/dashboard');
    expect(dashboard.text).not.toContain('href="/de/benutzer/thg-anzeige"');
    expect((await tadmin.get('/de/benutzer/dashboard')).text).toContain('href="/de/benutzer/thg-anzeige"');
    for (const path of ['link', 'widerruf']) {
      const res = await user.post(`/de/benutzer/thg-anzeige/${path}`).type('form').send({ _csrf: csrfFrom(dashboard.text) });
      expect(res.status, path).toBe(302);
    }
    const auth = await as('USER', 'User12345');
    expect((await request(t.app).get('/api/thg-anzeige').set(auth)).status).toBe(403);
    expect((await request(t.app).post('/api/thg-anzeige').set(auth).send({})).status).toBe(403);
    expect((await request(t.app).delete('/api/thg-anzeige').set(auth)).status).toBe(403);
    expect(await tokenOf('DEMO')).toBe(link);
    expect((await auditOf('DEMO')).length).toBe(before);
  });
});

describe('the equivalents\' factors are dated settings', () => {
  it('a newer factor added on the legal-values page changes the equivalents from its date on, not before', async () => {
    const admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const link = (await tokenOf('DEMO'))!;
    const vorher = (await json(link)).body;
    const jahr = Number(vorher.jahr);
    const form = await admin.get('/de/benutzer/gesetzeswerte');
    expect(form.text).toContain('Äquivalente der THG-Anzeige');
    const morgen = new Date(Date.parse(`${heute}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    // From tomorrow: not yet today.
    const spaeter = await admin.post('/de/benutzer/gesetzeswerte').type('form')
      .send({ _csrf: csrfFrom(form.text), art: 'aequivalent', einheit: 'auto_100km', gueltigAb: morgen, wert: '10', kommentar: 'Ab morgen (Test)' });
    expect(spaeter.status, spaeter.text).toBe(302);
    expect((await json(link)).body.aequivalente).toEqual(vorher.aequivalente);
    // From today: at once.
    const jetzt = await admin.post('/de/benutzer/gesetzeswerte').type('form')
      .send({ _csrf: csrfFrom(form.text), art: 'aequivalent', einheit: 'auto_100km', gueltigAb: heute, wert: '15,4', kommentar: 'UBA, je Person (Test)' });
    expect(jetzt.status, jetzt.text).toBe(302);
    const nachher = (await json(link)).body;
    expect(nachher.jahr).toBe(vorher.jahr);
    expect(nachher.aequivalente[0]).toEqual({ einheit: 'auto_100km', anzahl: Math.round((jahr * 1000) / 15.4), kgCo2e: '15.4', quelle: 'UBA, je Person (Test)' });
    expect(nachher.aequivalente.slice(1)).toEqual(vorher.aequivalente.slice(1));
    expect((await seite(link)).text).toContain('Quelle: UBA, je Person (Test)');
  });
});
