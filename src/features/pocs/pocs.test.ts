// The POCs page and API through HTTP against the real database. The POCs are written here as a closing Bilanz
// will write them (closed Bilanzen, and Nachweisbescheinigungen with `bilanz_id` for real deliveries and
// certificates made through the API); a manual proof of the same delivery and certificate is no POC.
//
// DEMO (PA "Tankhof Ost GmbH", PB "Raffinerie Süd GmbH", two partners of this test):
//   Bilanz 901 at S.a, P016 (closed):  POC-1 A1/PA/N1 2,000 L (10 days ago), POC-2 A3/PB/N1 1,000 kg (20 days ago),
//                                       POC-4 A1/PA/N1 300 L, cancelled (10 days ago)
//   Bilanz 902 at S.b, P013 (closed):  POC-3 A2/PB/N2 500 L (40 days ago)
//   manual proof NB-M (A1, N1, 700 L, no Bilanz): never listed
// NORD: Bilanz 901 too, with POC-NORD: never shown in DEMO.
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantScope } from '../../db/scope.js';
import { summe } from '../../domain/units.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { buildStandort, buildTauschpartner, zertifikatEingabe } from '../../testing/factories.js';
import { extractPdfText } from '../../testing/pdf-text.js';
import { signIn, type Agent } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
type Auth = Record<string, string>;
let admin: Auth;
let leser: Auth;
let leser1002: Auth;
let leser1003: Auth;
let ohne: Auth;
let nord: Auth;
let agent: Agent;

const PASSWORT = 'Pocs12345678';
const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

const vor = (tage: number) => new Date(Date.now() - tage * 86_400_000).toISOString().slice(0, 10);
/** A day as the page shows it (the default date format). */
const tag = (iso: string) => iso.split('-').reverse().join('.');

const N = { n1: 'T-POC-N1', n2: 'T-POC-N2', nord: 'T-POC-NN' };
const A = { a1: 'T-POC-A1', a2: 'T-POC-A2', a3: 'T-POC-A3', nord: 'T-POC-AN' };
const POC = { p1: 'T-POC-1', p2: 'T-POC-2', p3: 'T-POC-3', p4: 'T-POC-4', nord: 'T-POC-NORD', manuell: 'T-NB-M' };
const P = { a: '', b: '' };
/** Locations of this test's own (the demo data has POCs at its locations): a and b hold POCs, c none. */
const S = { a: '', b: '', c: '' };
// A period long past: the demo data's Bilanzen (this and the last quarter) may stand at the same location and product.
const ZEITRAUM = { von: '2020-01-01', bis: '2020-03-31' };

const zertifikat = (nr: string, over: Record<string, unknown> = {}) =>
  zertifikatEingabe({ nr, standortNr: S.a, ausstellungsdatum: vor(2), zeitraumVon: vor(60), zeitraumBis: vor(2), lieferungVon: vor(50), lieferungBis: vor(40), ...over });
const ablieferung = (nr: string, partnerNr: string, over: Record<string, unknown> = {}) =>
  ({ nr, lieferdatum: vor(10), menge: '10000', uomMenge: 'L', partnerNr, standortNr: S.a, produktNr: 'P016', status: 'completed', ...over });

async function created(res: request.Response, what: string) {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A proof row as a closing Bilanz writes it: the certificate's characteristics, the delivery, the Bilanz. */
const bescheinigung = (nr: string, over: Record<string, unknown>) => ({
  nr, lieferdatum: vor(10), volumen: '1000', volumen_verbleibend: '1000', einheit: 'L', standort_nr: S.a, produkt_nr: 'P016',
  produktgruppe: 'biodiesel', thg_emission: '10', nnw_anteil: '100', nnw_energie: '33000', rohstoff: 'altspeiseoel', anbauland: 'DE',
  zertifizierungssystem: 'ISCC EU', nnw_produkt_nr: 'P013', storniert: false, ...over,
});
const bilanz = (id: number, standort_nr: string, produkt_nr: string) => ({
  id, standort_nr, produkt_nr, zeitraum_von: ZEITRAUM.von, zeitraum_bis: ZEITRAUM.bis, status: 'geschlossen', geschlossen_am: new Date(),
});

beforeAll(async () => {
  t = await createTestApp();
  const demo = new TenantScope(t.db.knex, 'DEMO');
  for (const k of ['a', 'b', 'c'] as const) S[k] = (await buildStandort(demo)).nr;
  // POCLESER reads POCs at this test's locations; POC1002 and POC1003 at one location each (b, c); OHNEPOC reads
  // Bilanzen but not POCs.
  await createUserWithRoles(t.db.knex, 'POCLESER', PASSWORT, [{ typ: 25, standortNr: S.a }, { typ: 25, standortNr: S.b }, { typ: 25, standortNr: S.c }]);
  await createUserWithRoles(t.db.knex, 'POC1002', PASSWORT, [{ typ: 25, standortNr: S.b }]);
  await createUserWithRoles(t.db.knex, 'POC1003', PASSWORT, [{ typ: 25, standortNr: S.c }]);
  await createUserWithRoles(t.db.knex, 'OHNEPOC', PASSWORT, [{ typ: 23, standortNr: null }, { typ: 11, standortNr: null }]);
  [admin, leser, leser1002, leser1003, ohne, nord] = await Promise.all([
    as('TADMIN', 'Tadmin12345'), as('POCLESER', PASSWORT), as('POC1002', PASSWORT), as('POC1003', PASSWORT), as('OHNEPOC', PASSWORT), as('ADMIN', 'Admin12345', 'NORD'),
  ]);
  agent = await signIn(t.app, 'POCLESER', PASSWORT);

  P.a = (await buildTauschpartner(demo, { name: 'Tankhof Ost GmbH' })).nr;
  P.b = (await buildTauschpartner(demo, { name: 'Raffinerie Süd GmbH' })).nr;
  const post = (path: string, body: Record<string, unknown>, auth = admin) => request(t.app).post(path).set(auth).send(body);
  await created(await post('/api/nachweise', zertifikat(N.n1)), N.n1);
  await created(await post('/api/nachweise', zertifikat(N.n2, { standortNr: S.b })), N.n2);
  await created(await post('/api/ablieferungen', ablieferung(A.a1, P.a)), A.a1);
  await created(await post('/api/ablieferungen', ablieferung(A.a3, P.b, { lieferdatum: vor(20) })), A.a3);
  await created(await post('/api/ablieferungen', ablieferung(A.a2, P.b, { lieferdatum: vor(40), standortNr: S.b, produktNr: 'P013' })), A.a2);
  await demo.transaction(async (tx) => {
    await tx.insert('bilanzen', [bilanz(901, S.a, 'P016'), bilanz(902, S.b, 'P013')]);
    await tx.insert('nachweisbescheinigungen', [
      bescheinigung(POC.p1, { bilanz_id: 901, ablieferung_nr: A.a1, nachweis_nr: N.n1, volumen: '2000', volumen_verbleibend: '2000', nnw_energie: '66000' }),
      bescheinigung(POC.p2, { bilanz_id: 901, ablieferung_nr: A.a3, nachweis_nr: N.n1, lieferdatum: vor(20), einheit: 'kg', anbauland: 'FR' }),
      bescheinigung(POC.p3, { bilanz_id: 902, ablieferung_nr: A.a2, nachweis_nr: N.n2, lieferdatum: vor(40), volumen: '500', volumen_verbleibend: '500', standort_nr: S.b, produkt_nr: 'P013', thg_emission: '12.5' }),
      bescheinigung(POC.p4, { bilanz_id: 901, ablieferung_nr: A.a1, nachweis_nr: N.n1, volumen: '300', volumen_verbleibend: '300', storniert: true }),
      // A manual assignment of the same delivery and certificate: a proof, but no POC.
      bescheinigung(POC.manuell, { bilanz_id: null, ablieferung_nr: A.a1, nachweis_nr: N.n1, volumen: '700', volumen_verbleibend: '700' }),
    ]);
  });

  // NORD's POC, of a Bilanz with the same number as DEMO's.
  await created(await post('/api/nachweise', zertifikat(N.nord, { standortNr: '2001' }), nord), N.nord);
  await created(await post('/api/ablieferungen', ablieferung(A.nord, 'TP001', { standortNr: '2001' }), nord), A.nord);
  await new TenantScope(t.db.knex, 'NORD').transaction(async (tx) => {
    await tx.insert('bilanzen', bilanz(901, '2001', 'P016'));
    await tx.insert('nachweisbescheinigungen', bescheinigung(POC.nord, { bilanz_id: 901, ablieferung_nr: A.nord, nachweis_nr: N.nord, standort_nr: '2001' }));
  });
}, 120_000);
afterAll(() => t?.close());

const api = (query = '', auth: Auth = leser) => request(t.app).get(`/api/pocs${query ? `?${query}` : ''}`).set(auth);
const nrs = async (query = '', auth: Auth = leser) => {
  const res = await api(query, auth);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { nr: string }[]).map((r) => r.nr);
};
/** The litres of the live POCs: 2,000 L + 1,000 kg of biodiesel + 500 L. */
const LITER = summe([{ menge: '2000', einheit: 'L', gruppe: 'biodiesel' }, { menge: '1000', einheit: 'kg', gruppe: 'biodiesel' }, { menge: '500', einheit: 'L', gruppe: 'biodiesel' }], 'L');

describe('the POC list (API)', () => {
  it('lists the POCs of closed Bilanzen, newest delivery first, with their fields; a manual proof is none', async () => {
    const res = await api();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 1, pageSize: 10 });
    // Newest first; two of the same day in number order, descending.
    expect(res.body.data.map((r: { nr: string }) => r.nr)).toEqual([POC.p4, POC.p1, POC.p2, POC.p3]);
    expect(res.body.data[1]).toEqual({
      nr: POC.p1, lieferdatum: vor(10), ablieferungNr: A.a1, partnerNr: P.a, partnerName: 'Tankhof Ost GmbH',
      standortNr: S.a, standortName: expect.any(String), produktNr: 'P016', produktName: expect.any(String), produktgruppe: 'biodiesel',
      nachweisNr: N.n1, volumen: '2000.000', einheit: 'L', thgEmission: '10.00', nnwEnergie: '66000.0000',
      rohstoff: 'altspeiseoel', anbauland: 'DE', zertifizierungssystem: 'ISCC EU',
      bilanzId: 901, zeitraumVon: ZEITRAUM.von, zeitraumBis: ZEITRAUM.bis, storniert: false,
    });
    expect(res.body.data[0]).toMatchObject({ nr: POC.p4, storniert: true });
    expect(res.body.data[3]).toMatchObject({ nr: POC.p3, partnerName: 'Raffinerie Süd GmbH', standortNr: S.b, produktNr: 'P013', bilanzId: 902, thgEmission: '12.50' });
    expect(res.body.data.map((r: { nr: string }) => r.nr)).not.toContain(POC.manuell);
    // The sum in litres: kilograms converted with biodiesel's density, the cancelled POC left out.
    expect(Number(res.body.totals.summeLiter)).toBeCloseTo(Number(LITER), 3);
    expect(LITER).toBe('3621.076');
  });

  it('searches POC, delivery and certificate numbers', async () => {
    expect(await nrs(`q=${POC.p2}`)).toEqual([POC.p2]);
    expect(await nrs(`q=${A.a1}`)).toEqual([POC.p4, POC.p1]);
    expect(await nrs(`q=${N.n2}`)).toEqual([POC.p3]);
  });

  it('filters by period, location, product, partner and Bilanz, and sums what the filters show', async () => {
    expect(await nrs(`von=${vor(15)}`)).toEqual([POC.p4, POC.p1]);
    expect(await nrs(`bis=${vor(15)}`)).toEqual([POC.p2, POC.p3]);
    expect(await nrs(`von=${vor(25)}&bis=${vor(15)}`)).toEqual([POC.p2]);
    expect(await nrs(`standortNr=${S.b}`)).toEqual([POC.p3]);
    expect(await nrs('produktNr=P016')).toEqual([POC.p4, POC.p1, POC.p2]);
    expect(await nrs(`partnerNr=${P.a}`)).toEqual([POC.p4, POC.p1]);
    expect(await nrs(`partner=${P.b}`)).toEqual([POC.p2, POC.p3]);
    expect(await nrs('bilanzId=902')).toEqual([POC.p3]);
    // The Bilanz's number exactly: 90 is no part of 901.
    expect(await nrs('bilanzId=90')).toEqual([]);
    const partner = await api(`partnerNr=${P.a}`);
    expect(partner.body.total).toBe(2);
    expect(partner.body.totals).toEqual({ summeLiter: '2000.000' });
  });

  it('refuses an unknown parameter and a Bilanz that is no number, in German', async () => {
    const unknown = await api('bilanz=901');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ message: 'Bitte überprüfen Sie Ihre Eingabe', errors: [{ field: 'bilanz', message: 'Unbekannter Parameter „bilanz“.' }] });
    expect(unknown.body.data).toBeUndefined();
    const bad = await api('bilanzId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'bilanzId', message: 'Bitte geben Sie die Nummer einer Bilanz ein (eine ganze Zahl).' }]);
  });
});

describe('remembered counts', () => {
  it('counts again when a delivery gets another partner: the partner filter reads the deliveries', async () => {
    const partner = async () => (await api(`partnerNr=${P.a}`)).body as { total: number; data: { nr: string }[] };
    expect((await partner()).total).toBe(2);
    const demo = new TenantScope(t.db.knex, 'DEMO');
    const umhaengen = (nr: string) => demo.transaction((tx) => tx.table('ablieferungen').where({ nr: A.a3 }).update({ partner_nr: nr }));
    await umhaengen(P.a);
    try {
      const after = await partner();
      expect(after.data.map((r) => r.nr)).toEqual([POC.p4, POC.p1, POC.p2]);
      expect(after.total).toBe(3);
    } finally {
      await umhaengen(P.b);
    }
    expect((await partner()).total).toBe(2);
  });
});

describe('the POC page', () => {
  it('shows the POCs with links to the proof, the delivery, the certificate and the Bilanz, and the sum', async () => {
    const res = await agent.get('/de/bewegungsdaten/pocs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>POCs</h1>');
    expect(res.text).toContain('die abgeschlossene Bilanzen für Ablieferungen ausgestellt haben');
    expect(res.text).not.toContain('Diese Seite ist in Vorbereitung');
    for (const href of [
      `/de/bewegungsdaten/nachweisbescheinigungen/${POC.p1}`, `/de/bewegungsdaten/ablieferungen/${A.a1}`, `/de/bewegungsdaten/nachweise/${N.n1}`,
      '/de/bewegungsdaten/bilanzen/901', '/de/bewegungsdaten/bilanzen/902', `/de/bewegungsdaten/ablieferungen/${A.a2}`,
    ]) expect(res.text, href).toContain(`href="${href}"`);
    expect(res.text).toContain('Tankhof Ost GmbH');
    expect(res.text).toContain('Raffinerie Süd GmbH');
    expect(res.text).toContain('2.000 L');
    expect(res.text).toContain('1.000 kg');
    expect(res.text).toContain('12,50');
    // What fits beside the sidebar; the Bilanz's period, location and product are in the exports.
    const headers = [...res.text.matchAll(/<th scope="col"[^>]*>\s*(?:<a[^>]*>)?([^<]+)/g)].map((m) => m[1].trim());
    expect(headers).toEqual(['POC-Nr.', 'Lieferdatum', 'Ablieferung', 'Partner', 'Zertifikat', 'Volumen', 'E (g/MJ)', 'Bilanz', 'Status']);
    expect(res.text).toMatch(/<span class="badge badge-error">Storniert<\/span>/);
    expect(res.text).toMatch(/<span class="badge badge-success">Ausgestellt<\/span>/);
    expect(res.text).toMatch(/<dt>Summe ohne Stornierte in Liter<\/dt><dd>3\.621<\/dd>/);
    expect(res.text).not.toContain(POC.manuell);
    expect(res.text).not.toContain(POC.nord);
    // Filters: location, product and partner offer the tenant's records.
    expect(res.text).toMatch(new RegExp(`<option value="${P.a}"[^>]*>${P.a} · Tankhof Ost GmbH</option>`));
    expect(res.text).toMatch(/name="bilanzId"/);
  });

  it('narrows the rows by the filters', async () => {
    const res = await agent.get(`/de/bewegungsdaten/pocs?partnerNr=${P.b}&von=${vor(25)}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`href="/de/bewegungsdaten/nachweisbescheinigungen/${POC.p2}"`);
    for (const other of [POC.p1, POC.p3, POC.p4]) expect(res.text, other).not.toContain(`/nachweisbescheinigungen/${other}"`);
    expect(res.text).toMatch(/<dt>Summe ohne Stornierte in Liter<\/dt><dd>1\.121<\/dd>/);
    const product = await agent.get(`/de/bewegungsdaten/pocs?produktNr=P013&standortNr=${S.b}`);
    expect(product.text).toContain(`/nachweisbescheinigungen/${POC.p3}"`);
    expect(product.text).not.toContain(`/nachweisbescheinigungen/${POC.p1}"`);
  });

  it('speaks English', async () => {
    const res = await agent.get('/en/bewegungsdaten/pocs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('the proofs that closed balances issued for outbound deliveries');
    expect(res.text).toMatch(/<span class="badge badge-success">Issued<\/span>/);
    expect(res.text).toContain('2,000 L');
    expect(res.text).toContain('href="/en/bewegungsdaten/bilanzen/901"');
  });

  it('says how POCs come about when there are none, and refuses an unknown parameter inline', async () => {
    const empty = await signIn(t.app, 'POC1003', PASSWORT);
    const res = await empty.get('/de/bewegungsdaten/pocs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Noch keine POCs: Sie entstehen, wenn eine Bilanz oder eine ihrer Positionen abgeschlossen wird.');
    expect(res.text).not.toContain('T-POC-');
    const refused = await agent.get('/de/bewegungsdaten/pocs?gibtsnicht=1');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Unbekannter Parameter „gibtsnicht“.');
    expect(refused.text).not.toContain(`/nachweisbescheinigungen/${POC.p1}"`);
    // A filtered list without rows does not say that: there are POCs, just none that match.
    const none = await agent.get('/de/bewegungsdaten/pocs?bilanzId=999');
    expect(none.text).toContain('Keine Einträge passen zu Ihren Filtern.');
    expect(none.text).not.toContain('Noch keine POCs');
  });
});

describe('exports', () => {
  it('CSV has the page rows with partner number and name and the certificate\'s characteristics, and the sum', async () => {
    const res = await agent.get(`/de/bewegungsdaten/pocs?bilanzId=901&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="pocs.csv"');
    const lines = parse(res.text.replace(/^\uFEFF/, ''), { delimiter: ';', relax_column_count: true }) as string[][];
    const [header, ...rest] = lines;
    expect(header).toEqual([
      'POC-Nr.', 'Lieferdatum', 'Ablieferung', 'Partner-Nr.', 'Partnername', 'Standort-Nr.', 'Standortname', 'Produkt-Nr.', 'Produktname',
      'Zertifikat', 'Volumen', 'Einheit', 'E (g CO₂-Äq/MJ)', 'Bilanz', 'Bilanz von', 'Bilanz bis', 'Produktgruppe', 'Rohstoff', 'Anbauland',
      'Zertifizierungssystem', 'Energie (MJ)', 'Storniert',
    ]);
    const row = (nr: string) => Object.fromEntries(header.map((h, i) => [h, rest.find((r) => r[0] === nr)![i]]));
    expect(row(POC.p1)).toMatchObject({
      'Lieferdatum': tag(vor(10)), 'Ablieferung': A.a1, 'Partner-Nr.': P.a, 'Partnername': 'Tankhof Ost GmbH', 'Standort-Nr.': S.a, 'Produkt-Nr.': 'P016',
      'Zertifikat': N.n1, 'Volumen': '2.000,000', 'Einheit': 'L', 'E (g CO₂-Äq/MJ)': '10,00', 'Bilanz': '901', 'Bilanz von': tag(ZEITRAUM.von),
      'Bilanz bis': tag(ZEITRAUM.bis), 'Produktgruppe': 'Biodiesel (FAME)', 'Rohstoff': 'altspeiseoel', 'Anbauland': 'DE', 'Zertifizierungssystem': 'ISCC EU',
      'Energie (MJ)': '66.000', 'Storniert': 'Nein',
    });
    expect(row(POC.p2)).toMatchObject({ 'Volumen': '1.000,000', 'Einheit': 'kg', 'Partnername': 'Raffinerie Süd GmbH', 'Anbauland': 'FR' });
    expect(row(POC.p4)).toMatchObject({ 'Storniert': 'Ja' });
    // Bilanz 901's rows only, then the sum after an empty line (without the cancelled POC).
    expect(rest.filter((r) => r[0].startsWith('T-')).map((r) => r[0])).toEqual([POC.p4, POC.p1, POC.p2]);
    expect(rest.at(-1)).toEqual(['Summe ohne Stornierte in Liter', '3.121']);
  });

  it('Excel and PDF come from the same list', async () => {
    const xlsx = await agent.get('/de/bewegungsdaten/pocs?format=xlsx').buffer(true);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const pdf = await request(t.app).get(`/api/pocs?standortNr=${S.b}&format=pdf`).set(leser).buffer(true)
      .parse((res, done) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => done(null, Buffer.concat(parts)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await extractPdfText(pdf.body as Buffer)).join('\n');
    expect(text).toContain('POCs');
    expect(text).toContain(POC.p3);
    expect(text).not.toContain(POC.p1);
  });
});

describe('tenants, locations and rights', () => {
  it("never shows another tenant's POC, even of a Bilanz with the same number", async () => {
    expect(await nrs('bilanzId=901')).toEqual([POC.p4, POC.p1, POC.p2]);
    expect(await nrs(`q=${POC.nord}`)).toEqual([]);
    expect(await nrs('q=T-POC', admin)).toEqual([POC.p4, POC.p1, POC.p2, POC.p3]);
    // NORD sees its own one only.
    expect(await nrs('q=T-POC', nord)).toEqual([POC.nord]);
  });

  it('limits the rows to the locations of the right', async () => {
    expect(await nrs('', leser1002)).toEqual([POC.p3]);
    const elsewhere = await api('', leser1003);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body).toMatchObject({ data: [], total: 0, totals: { summeLiter: '0' } });
    // A location the user may not read is no choice of the filter.
    expect((await api(`standortNr=${S.a}`, leser1002)).status).toBe(400);
  });

  it('sends a user without right 25 to the dashboard (page) and refuses the API (403)', async () => {
    const page = await (await signIn(t.app, 'OHNEPOC', PASSWORT)).get('/de/bewegungsdaten/pocs');
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe('/de/benutzer/dashboard');
    const res = await api('', ohne);
    expect(res.status).toBe(403);
    expect(res.body.data).toBeUndefined();
    const csv = await api('format=csv', ohne);
    expect(csv.status).toBe(403);
    expect(csv.text).not.toContain('T-POC-');
  });
});
