// The reports through HTTP against the real database: a Mengenbilanz and the deliveries per partner computed by
// hand over a location built here (so nothing depends on the demo data's story), the same rows and sums in
// CSV, XLSX and PDF (read back with exceljs and pdf.js), the PDF's title page, locations outside the user's
// (403, no rows), another tenant's numbers (unknown) and data (never shown), every bad input naming its
// parameter in both languages, the catalogue, and the generator page remembering the last parameters.
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTenant } from '../../db/rls.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { extractPdfText } from '../../testing/pdf-text.js';
import { signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

type Row = Record<string, unknown>;
let t: TestApp;
let admin: Record<string, string>;
let user: Record<string, string>;
let leiter: Record<string, string>;
const PASSWORT = 'Reports12345';
const S = 'RPT1';
const VON = '2025-03-01';
const BIS = '2025-03-31';

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });
const api = () => request(t.app);

async function post(path: string, body: Row) {
  const res = await api().post(`/api${path}`).set(admin).send(body);
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.body.data as Row;
}
const ein = (nr: string, datum: string, menge: string, einheit: 'L' | 'kg', partnerNr: string) =>
  post('/einlieferungen', { nr, entladedatum: datum, entladeneMenge: menge, unitOfMeasure: einheit, partnerNr, standortNr: S, produktNr: 'P013', status: 'completed' });
const aus = (nr: string, datum: string, menge: string, partnerNr: string) =>
  post('/ablieferungen', { nr, lieferdatum: datum, menge, uomMenge: 'L', partnerNr, standortNr: S, produktNr: 'P013' });
const bestand = (datum: string, volumen: string) => post('/bestaende', { datum, standortNr: S, produktNr: 'P013', volumen, fuellstand: '50' });

beforeAll(async () => {
  t = await createTestApp();
  admin = await as('TADMIN', 'Tadmin12345');
  user = await as('USER', 'User12345');
  await createUserWithRoles(t.db.knex, 'RLEITER', PASSWORT, [{ typ: 18, standortNr: '1001' }]);
  leiter = await as('RLEITER', PASSWORT);
  // A location of its own with biodiesel B100 (P013, bio content 100 %, 0.892 kg/L) and one month to balance.
  await post('/standorte', { nr: S, name: 'Reporttanklager Test', plz: '20457', stadt: 'Hamburg', land: 'Deutschland' });
  await bestand('2025-02-01', '7000'); // older than the opening stock: not used
  await bestand('2025-02-28', '10000'); // opening stock: the latest on or before the day before VON
  await bestand('2025-03-15', '11000'); // within the period: not used
  await bestand('2025-03-31', '12950'); // closing stock recorded: the latest on or before BIS
  await bestand('2025-04-02', '99'); // after the period: not used
  await ein('RPE-1', '2025-03-03', '5000', 'L', 'TP001');
  await ein('RPE-2', '2025-03-10', '892', 'kg', 'TP001'); // 892 kg / 0.892 kg/L = 1,000 L
  await ein('RPE-3', '2025-03-20', '2000', 'L', 'TP002'); // cancelled below: left out
  await ein('RPE-4', '2025-04-01', '4000', 'L', 'TP001'); // after the period
  await aus('RPA-1', '2025-03-25', '3000', 'TP015');
  await aus('RPA-2', '2025-02-28', '500', 'TP015'); // before the period
  await t.db.knex.transaction(async (trx) => {
    await setTenant(trx, 'DEMO');
    await trx('einlieferungen').where({ mandant: 'DEMO', nr: 'RPE-3' }).update({ storniert: true });
  });
});
afterAll(() => t.close());

const mengenbilanz = (query: string, auth = user) => api().get(`/api/reports/mengenbilanz?${query}`).set(auth);
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('the catalogue', () => {
  it('lists each report with its name, question, parameters, required ones and formats', async () => {
    const res = await api().get('/api/reports').set(user);
    expect(res.status).toBe(200);
    const mb = res.body.data.find((r: Row) => r.id === 'mengenbilanz');
    expect(mb).toEqual({
      id: 'mengenbilanz', name: 'Mengenbilanz', frage: expect.stringContaining('Bestände'),
      parameter: ['startDate', 'endDate', 'partner', 'standort', 'produkt'], pflicht: ['startDate', 'endDate'], formate: ['json', 'csv', 'xlsx', 'pdf'],
    });
    expect(res.body.data.map((r: Row) => r.id)).toContain('lieferungen-je-partner');
    const en = await api().get('/api/reports').set(user).set('Accept-Language', 'en');
    expect(en.body.data.find((r: Row) => r.id === 'mengenbilanz').name).toBe('Quantity balance');
  });

  it('needs the report right (18): a reader of products gets 403', async () => {
    const leser = await as('LESER', 'Leser12345');
    expect((await api().get('/api/reports').set(leser)).status).toBe(403);
    expect((await mengenbilanz(`startDate=${VON}&endDate=${BIS}`, leser)).status).toBe(403);
  });

  it('an unknown report is 404', async () => {
    const res = await api().get('/api/reports/gibt-es-nicht?startDate=2025-01-01&endDate=2025-01-31').set(user);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Diesen Bericht gibt es nicht.');
  });
});

describe('Mengenbilanz, computed by hand', () => {
  it('opening 10,000 + in 6,000 − out 3,000 = 13,000 L computed; recorded 12,950 L; difference −50 L', async () => {
    // In: 5,000 L + 892 kg FAME (= 1,000 L) = 6,000 L in 2 deliveries; 2,000 L cancelled (left out, counted);
    // 4,000 L on 1 April is after the period. Out: 3,000 L; the 500 L of 28 February are before it.
    const res = await mengenbilanz(`startDate=${VON}&endDate=${BIS}&standort=${S}`, admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      {
        standortNr: S, standort: 'Reporttanklager Test', produktNr: 'P013', produkt: expect.any(String),
        anfangsDatum: '2025-02-28', anfangsbestand: '10000.000', zugaengeAnzahl: 2, zugang: '6000.000', abgaengeAnzahl: 1, abgang: '3000.000',
        stornierteAnzahl: 1, endbestandBerechnet: '13000.000', endDatum: '2025-03-31', endbestandErfasst: '12950.000', differenz: '-50.000',
      },
    ]);
    expect(res.body.summen).toMatchObject({ anfangsbestand: '10000.000', zugang: '6000.000', abgang: '3000.000', endbestandBerechnet: '13000.000', endbestandErfasst: '12950.000', differenz: '-50.000', stornierteAnzahl: '1' });
    expect(res.body).toMatchObject({ total: 1, page: 1, parameter: { startDate: VON, endDate: BIS, standort: S, partner: null, produkt: null } });
    expect(res.body.erlaeuterungen.join('\n')).toContain('Endbestand rechnerisch = Anfangsbestand + Zugang − Abgang');
    expect(res.body.erlaeuterungen.join('\n')).toContain('28.02.2025');
  });

  it('a partner narrows the deliveries, not the stocks, and says so', async () => {
    const res = await mengenbilanz(`startDate=${VON}&endDate=${BIS}&standort=${S}&partner=TP015`, admin);
    expect(res.body.data[0]).toMatchObject({ zugang: '0.000', abgang: '3000.000', anfangsbestand: '10000.000', endbestandBerechnet: '7000.000' });
    expect(res.body.erlaeuterungen.join('\n')).toContain('Eingeschränkt auf einen Partner');
  });

  it('the demo data shows a difference: the measured shortfall of the fullest tank', async () => {
    const heute = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    const res = await mengenbilanz(`startDate=${start}&endDate=${heute}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data.some((r: Row) => r.differenz === '-1250.000')).toBe(true);
  });
});

describe('Lieferungen je Partner, computed by hand', () => {
  it('counts and quantities in and out per partner, bio = quantity × 100 %, cancelled left out', async () => {
    const res = await api().get(`/api/reports/lieferungen-je-partner?startDate=${VON}&endDate=${BIS}&standort=${S}`).set(admin);
    expect(res.status, res.text).toBe(200);
    const rows = Object.fromEntries(res.body.data.map((r: Row) => [r.partnerNr, r]));
    expect(Object.keys(rows).sort()).toEqual(['TP001', 'TP015']); // TP002's only delivery was cancelled
    expect(rows.TP001).toMatchObject({ anzahlEin: 2, mengeEin: '6000.000', bioEin: '6000.000', anzahlAus: 0, mengeAus: '0.000' });
    expect(rows.TP015).toMatchObject({ anzahlEin: 0, anzahlAus: 1, mengeAus: '3000.000', bioAus: '3000.000' });
    expect(res.body.summen).toEqual({ anzahlEin: '2', anzahlAus: '1', mengeEin: '6000.000', bioEin: '6000.000', mengeAus: '3000.000', bioAus: '3000.000' });
  });
});

describe('files', () => {
  const query = `startDate=${VON}&endDate=${BIS}&standort=${S}`;

  it('CSV, XLSX and PDF hold the same rows, sums and explanations', async () => {
    const csv = await mengenbilanz(`${query}&format=csv`, admin);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="mengenbilanz_${VON}_${BIS}.csv"`);
    const lines = csv.text.replace(/^\uFEFF/, '').split('\r\n').map((l) => l.split(';'));
    const header = lines[0];
    const row = lines[1];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('Standort')).toBe('Reporttanklager Test');
    expect(cell('Anfangsbestand')).toBe('10.000,000 L');
    expect(cell('Zugang')).toBe('6.000,000 L');
    expect(cell('Endbestand rechnerisch')).toBe('13.000,000 L');
    // The CSV writer neutralises every row cell that starts with a minus (a spreadsheet would run it): negative
    // values carry an apostrophe there, as in every list export (the sums it writes as numbers); the XLSX keeps
    // them numbers.
    expect(cell('Differenz')).toBe("'-50,000 L");
    expect(csv.text).toContain('Differenz gesamt;-50,000');
    expect(csv.text).toContain('Stornierte Lieferungen zählen nicht: 1 im Zeitraum ausgelassen.');

    const xlsx = await mengenbilanz(`${query}&format=xlsx`, admin).buffer(true).parse(binary);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const xHeader = (ws.getRow(1).values as unknown[]).slice(1);
    const xRow = (ws.getRow(2).values as unknown[]).slice(1);
    expect(xRow[xHeader.indexOf('Anfangsbestand')]).toBe(10000);
    expect(xRow[xHeader.indexOf('Differenz')]).toBe(-50);
    const all: unknown[][] = [];
    ws.eachRow((r) => all.push((r.values as unknown[]).slice(1)));
    expect(all).toContainEqual(['Differenz gesamt', -50]);
    expect(all.flat()).toContain('Stornierte Lieferungen zählen nicht: 1 im Zeitraum ausgelassen.');

    const pdf = await mengenbilanz(`${query}&format=pdf`, admin).buffer(true).parse(binary);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const pages = await extractPdfText(pdf.body as Buffer);
    const text = pages.join('\n');
    expect(text).toContain('10.000,000 L');
    expect(text).toContain('13.000,000 L');
    expect(text).toContain('-50,000 L');
    expect(text).toContain('Differenz gesamt');
    expect(text).toContain('Stornierte Lieferungen zählen nicht: 1 im Zeitraum ausgelassen.');
  });

  it('the PDF starts with a title page: tenant, period, parameters, when and by whom; page numbers on every page', async () => {
    const pdf = await mengenbilanz(`${query}&format=pdf`, admin).buffer(true).parse(binary);
    const pages = await extractPdfText(pdf.body as Buffer);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const titel = pages[0];
    for (const text of ['Mengenbilanz', 'Mandant', 'Demo Energiehandel GmbH (DEMO)', 'Zeitraum', '01.03.2025 – 31.03.2025', 'Standort', `${S} Reporttanklager Test`, 'Partner', 'Alle', 'Erstellt am', 'Erstellt von', 'Thomas Teichmann (TADMIN)']) {
      expect(titel).toContain(text);
    }
    pages.forEach((page, i) => expect(page).toContain(`Seite ${i + 1}`));
    // In English per Accept-Language.
    const en = await mengenbilanz(`${query}&format=pdf`, admin).set('Accept-Language', 'en').buffer(true).parse(binary);
    const enPages = await extractPdfText(en.body as Buffer);
    expect(enPages[0]).toContain('Generated by');
    expect(enPages[0]).toContain('Quantity balance');
    expect(enPages[1]).toContain('Page 2');
  });
});

describe('locations and tenants', () => {
  it("a location outside the user's locations is 403 with no rows", async () => {
    for (const format of ['json', 'csv']) {
      const res = await mengenbilanz(`startDate=${VON}&endDate=${BIS}&standort=1002&format=${format}`, leiter);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', message: 'Für diesen Standort haben Sie keine Berechtigung: der Bericht wurde nicht erstellt.' });
      expect(res.body.data).toBeUndefined();
    }
  });

  it("without a location the report covers only the user's locations", async () => {
    const heute = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
    const res = await mengenbilanz(`startDate=${start}&endDate=${heute}`, leiter);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(new Set(res.body.data.map((r: Row) => r.standortNr))).toEqual(new Set(['1001']));
    const partner = await api().get(`/api/reports/lieferungen-je-partner?startDate=${start}&endDate=${heute}`).set(leiter);
    const alle = await api().get(`/api/reports/lieferungen-je-partner?startDate=${start}&endDate=${heute}&standort=1001`).set(admin);
    expect(partner.body.summen).toEqual(alle.body.summen);
  });

  it("another tenant's location, partner or product is unknown, and its data never appears", async () => {
    const nord = await as('ADMIN', 'Admin12345', 'NORD');
    const res = await mengenbilanz(`startDate=${VON}&endDate=${BIS}&standort=${S}`, nord);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'standort', message: `Der Standort „${S}“ ist unbekannt.` }]);
    const alle = await mengenbilanz(`startDate=${VON}&endDate=${BIS}`, nord);
    expect(alle.status).toBe(200);
    expect(alle.body.data.map((r: Row) => r.standortNr)).not.toContain(S);
    const partner = await api().get(`/api/reports/lieferungen-je-partner?startDate=${VON}&endDate=${BIS}&standort=${S}`).set(nord);
    expect(partner.status).toBe(400);
  });
});

describe('bad input: a clear error naming the parameter, no report', () => {
  const cases: [string, string, { field: string; de: string; en: string }[]][] = [
    ['missing required parameters', 'standort=1001', [
      { field: 'startDate', de: 'Pflichtfeld: bitte ausfüllen.', en: 'Required field: please fill in.' },
      { field: 'endDate', de: 'Pflichtfeld: bitte ausfüllen.', en: 'Required field: please fill in.' },
    ]],
    ['an end date before the start', 'startDate=2025-03-10&endDate=2025-03-01', [{ field: 'endDate', de: 'Das Enddatum liegt vor dem Startdatum.', en: 'The end date is before the start date.' }]],
    ['a period over 5 years', 'startDate=2020-01-01&endDate=2025-01-01', [{ field: 'endDate', de: 'Der Zeitraum von Startdatum bis Enddatum ist länger als 5 Jahre.', en: 'The period from start date to end date is longer than 5 years.' }]],
    ['a date that does not exist', 'startDate=2025-02-30&endDate=2025-03-01', [{ field: 'startDate', de: 'Das Startdatum ist kein gültiges Datum (JJJJ-MM-TT).', en: 'The start date is not a valid date (YYYY-MM-DD).' }]],
    ['an unknown partner', `startDate=${VON}&endDate=${BIS}&partner=TP999`, [{ field: 'partner', de: 'Der Partner „TP999“ ist unbekannt.', en: 'The partner “TP999” is unknown.' }]],
    ['an unknown location', `startDate=${VON}&endDate=${BIS}&standort=9999`, [{ field: 'standort', de: 'Der Standort „9999“ ist unbekannt.', en: 'The location “9999” is unknown.' }]],
    ['an unknown product', `startDate=${VON}&endDate=${BIS}&produkt=P999`, [{ field: 'produkt', de: 'Das Produkt „P999“ ist unbekannt.', en: 'The product “P999” is unknown.' }]],
    ['an unknown format', `startDate=${VON}&endDate=${BIS}&format=docx`, [{ field: 'format', de: 'Das Format ist unbekannt: möglich sind json, csv, xlsx, pdf.', en: 'The format is unknown: possible are json, csv, xlsx, pdf.' }]],
    ['a repeated parameter', `startDate=${VON}&endDate=${BIS}&standort=1001&standort=1002`, [{ field: 'standort', de: 'Der Parameter „standort“ darf nur einmal angegeben werden.', en: 'The parameter “standort” may be given only once.' }]],
  ];

  it.each(cases)('%s', async (_label, query, expected) => {
    for (const lang of ['de', 'en'] as const) {
      const res = await mengenbilanz(query, user).set('Accept-Language', lang);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
      expect(res.body.errors).toEqual(expected.map((e) => ({ field: e.field, message: e[lang] })));
      expect(res.body.data).toBeUndefined();
    }
  });

  it("missing required parameters: the spec's message lists them", async () => {
    const de = await mengenbilanz('', user);
    expect(de.body.message).toBe('Bitte füllen Sie die Pflichtfelder aus: Startdatum, Enddatum');
    const en = await mengenbilanz('endDate=2025-01-01', user).set('Accept-Language', 'en');
    expect(en.body.message).toBe('Please fill in the required fields: Start date');
  });

  it('five years less a day is fine', async () => {
    expect((await mengenbilanz('startDate=2020-01-01&endDate=2024-12-31&standort=RPT1', admin)).status).toBe(200);
  });
});

describe('the pages', () => {
  it('the catalogue shows each report with its question, parameters (required marked), formats and a link to the generator', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const res = await agent.get('/de/reports/liste');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h2>Mengenbilanz</h2>');
    expect(res.text).toContain('Lieferungen je Partner');
    expect(res.text).toContain('Startdatum <span class="badge badge-neutral">Pflicht</span>');
    expect(res.text).toContain('Bildschirm, CSV, Excel (XLSX), PDF');
    expect(res.text).toContain('href="/de/reports/auswertungen?bericht=lieferungen-je-partner"');
  });

  it('the generator shows the result with sums, explanations and downloads, and remembers the parameters', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const frisch = await agent.get('/de/reports/auswertungen');
    expect(frisch.status).toBe(200);
    expect(frisch.text).not.toContain('value="2025-03-01"');
    const q = `bericht=lieferungen-je-partner&startDate=${VON}&endDate=${BIS}&partner=&standort=1001&produkt=`;
    const res = await agent.get(`/de/reports/auswertungen?erzeugen=1&${q}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Menge ein gesamt');
    expect(res.text).toContain('Bio-Menge = Menge × Biogehalt %');
    expect(res.text).toMatch(/href="\/de\/reports\/auswertungen\?[^"]*format=pdf"/);
    // Opened again without parameters: the last ones are filled in.
    const wieder = await agent.get('/de/reports/auswertungen');
    expect(wieder.text).toMatch(/<option value="lieferungen-je-partner"\s+selected>/);
    expect(wieder.text).toContain('value="2025-03-01"');
    expect(wieder.text).toMatch(/<option value="1001"\s+selected>/);
    // Per user: another user of the tenant starts empty.
    const anderer = await signIn(t.app, 'RLEITER', PASSWORT, 'DEMO');
    expect((await anderer.get('/de/reports/auswertungen')).text).not.toContain('value="2025-03-01"');
    // A download link answers the file, in the language of the path.
    const datei = await agent.get(`/en/reports/auswertungen?erzeugen=1&${q}&format=csv`);
    expect(datei.status).toBe(200);
    expect(datei.text).toContain('Quantity in total');
  });

  it('refusals show at their fields and in a summary; missing fields with the spec message', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const res = await agent.get('/de/reports/auswertungen?erzeugen=1&bericht=mengenbilanz&startDate=&endDate=');
    expect(res.status).toBe(400);
    expect(res.text).toContain('Bitte füllen Sie die Pflichtfelder aus: Startdatum, Enddatum');
    expect(res.text).toContain('<a href="#f-startDate">Startdatum</a>');
    const falsch = await agent.get('/de/reports/auswertungen?erzeugen=1&bericht=mengenbilanz&startDate=2025-03-10&endDate=2025-03-01');
    expect(falsch.status).toBe(400);
    expect(falsch.text).toContain('Das Enddatum liegt vor dem Startdatum.');
    expect(falsch.text).not.toContain('report-ergebnis');
  });

  it("a location outside the user's is 403 on the page, with no rows", async () => {
    const agent = await signIn(t.app, 'RLEITER', PASSWORT, 'DEMO');
    const res = await agent.get(`/de/reports/auswertungen?erzeugen=1&bericht=mengenbilanz&startDate=${VON}&endDate=${BIS}&standort=1002`);
    expect(res.status).toBe(403);
    expect(res.text).toContain('Für diesen Standort haben Sie keine Berechtigung');
    expect(res.text).not.toContain('report-ergebnis');
    // The location select offers only the user's own.
    expect(res.text).toMatch(/<option value="1001"/);
    expect(res.text).not.toMatch(/<option value="1002"/);
  });
});
