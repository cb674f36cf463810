// The certificate statement, the THG-Bericht and the Quotenbericht against the real database: certificates,
// splits, deliveries and assignments made through the API, then each report through the reports API (JSON, CSV,
// XLSX, PDF) and through its run() with a real tenant scope (what the API calls, for what the API cannot set up:
// a scope of chosen locations, another language). The worked example of domain-notes.md (10,000 L FAME, E 10 → 330,000 MJ,
// 27.753 t), a hand-computed statement, the quota of 2024 from the law values; another tenant's data and
// locations outside the user's never appear.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { TFunction } from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantScope, type StandortScope } from '../../../db/scope.js';
import { createI18n } from '../../../http/i18n.js';
import { createTestApp, type TestApp } from '../../../testing/app.js';
import { zertifikatEingabe } from '../../../testing/factories.js';
import { extractPdfText } from '../../../testing/pdf-text.js';
import { createUserWithRoles } from '../../../testing/users.js';
import type { ReportContext, ReportDefinition, ReportParameter } from '../definition.js';
import { nachweisKontoauszugReport, tagInDeutschland, tagesbeginn } from './nachweis-kontoauszug.js';
import { quotenberichtReport, wochen } from './quotenbericht.js';
import { thgBerichtReport } from './thg-bericht.js';

let t: TestApp;
let admin: Record<string, string>;
let nord: Record<string, string>;
let tDe: TFunction;
let tEn: TFunction;
let berichte: Record<string, string>;
let nurBremen: Record<string, string>;

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

beforeAll(async () => {
  t = await createTestApp();
  admin = await as('TADMIN', 'Tadmin12345');
  nord = await as('ADMIN', 'Admin12345', 'NORD');
  const i18n = await createI18n();
  tDe = i18n.getFixedT('de');
  tEn = i18n.getFixedT('en');
  // Reports (18) everywhere, and at Hannover (1002) only.
  await createUserWithRoles(t.db.knex, 'RBERICHT', 'Berichte12345', [{ typ: 18, standortNr: null }]);
  await createUserWithRoles(t.db.knex, 'RHANNOVER', 'Berichte12345', [{ typ: 18, standortNr: '1002' }]);
  berichte = await as('RBERICHT', 'Berichte12345');
  nurBremen = await as('RHANNOVER', 'Berichte12345');
});

const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    res.on('end', () => done(null, Buffer.concat(parts)));
  });
const csvRows = (text: string) => parse(text.replace(/^\uFEFF/, ''), { delimiter: ';', relax_column_count: true }) as string[][];
const api = (id: string, query: Record<string, string>, auth = berichte) => request(t.app).get(`/api/reports/${id}`).query(query).set(auth);

/** The report as JSON, CSV, XLSX and PDF (German): each file's rows of text, to compare with the JSON's. */
async function alleFormate(id: string, query: Record<string, string>) {
  const json = await api(id, query);
  expect(json.status, JSON.stringify(json.body)).toBe(200);
  const csv = await api(id, { ...query, format: 'csv' }).set('Accept-Language', 'de');
  expect(csv.status).toBe(200);
  const xlsx = await binary(api(id, { ...query, format: 'xlsx' }).set('Accept-Language', 'de'));
  expect(xlsx.status).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsx.body as unknown as ArrayBuffer);
  const sheet: unknown[][] = [];
  book.worksheets[0].eachRow((row) => sheet.push((row.values as unknown[]).slice(1)));
  const pdf = await binary(api(id, { ...query, format: 'pdf' }).set('Accept-Language', 'de'));
  expect(pdf.status).toBe(200);
  return { json: json.body, csv: csvRows(csv.text), xlsx: sheet, pdf: (await extractPdfText(pdf.body as Buffer)).join('\n') };
}
afterAll(() => t.close());

/** Calendar months of a period, clipped to it (what the framework hands a report as ctx.monate). */
function monate(von: string, bis: string): { von: string; bis: string }[] {
  const out: { von: string; bis: string }[] = [];
  let [y, m] = von.split('-').map(Number);
  for (;;) {
    const first = `${y}-${String(m).padStart(2, '0')}-01`;
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    if (first > bis) break;
    out.push({ von: first < von ? von : first, bis: last > bis ? bis : last });
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
  return out;
}

const pausen: number[] = [];
async function run<R>(report: ReportDefinition<R>, params: Partial<ReportParameter>, opts: { mandant?: string; standorte?: StandortScope; lang?: 'de' | 'en' } = {}) {
  const p: ReportParameter = { startDate: null, endDate: null, partner: null, standort: null, produkt: null, ...params };
  const lang = opts.lang ?? 'de';
  const ctx: ReportContext = {
    scope: new TenantScope(t.db.knex, opts.mandant ?? 'DEMO', opts.standorte ?? 'all'),
    params: p,
    heute: tagInDeutschland(new Date()),
    lang,
    t: (key, options) => (lang === 'de' ? tDe : tEn)(key, options) as string,
    monate: p.startDate && p.endDate ? monate(p.startDate, p.endDate) : [],
    pause: async (done) => {
      pausen.push(done);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return report.run(ctx);
}

let seq = 0;
async function zertifikat(auth: Record<string, string>, over: Record<string, unknown> = {}): Promise<string> {
  const nr = `RB-N-${++seq}`;
  const res = await request(t.app).post('/api/nachweise').set(auth).send(zertifikatEingabe({ nr, lieferantZertifikatNr: 'EU-ISCC-Cert-DE100-0001', ...over }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return nr;
}
async function lieferung(auth: Record<string, string>, over: Record<string, unknown> = {}): Promise<string> {
  const nr = `RB-A-${++seq}`;
  const res = await request(t.app).post('/api/ablieferungen').set(auth).send({
    nr, lieferdatum: '2024-05-10', menge: '10000', uomMenge: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P013', ...over,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.nr;
}
async function zuordnen(auth: Record<string, string>, a: string, nachweisNr: string, volumen: string) {
  const res = await request(t.app).post(`/api/ablieferungen/${a}/nachweise`).set(auth).send({ nachweisNr, volumen });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.nachweisbescheinigungNr as string;
}
async function teilen(auth: Record<string, string>, nr: string, mengen: string[]): Promise<string[]> {
  const res = await request(t.app).post(`/api/nachweise/${nr}/teilung`).set(auth).send({ teile: mengen.map((menge) => ({ menge })) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.map((p: { nr: string }) => p.nr);
}

const MAI_2024 = { startDate: '2024-05-01', endDate: '2024-05-31' };

describe('THG-Bericht and Quotenbericht: the worked example', () => {
  let a: string;
  beforeAll(async () => {
    // 10,000 L FAME (P013, 33 MJ/L) with E = 10 at Hamburg (1001, quota-obligated), delivered out in May 2024 and
    // covered by the certificate; the same in NORD, which DEMO's reports must never count.
    const n = await zertifikat(admin);
    a = await lieferung(admin);
    await zuordnen(admin, a, n, '10000');
    const nn = await zertifikat(nord, { standortNr: '2001' });
    const an = await lieferung(nord, { standortNr: '2001', partnerNr: (await t.db.knex('tauschpartner').where({ mandant: 'NORD' }).first('nr')).nr });
    await zuordnen(nord, an, nn, '10000');
  });

  it('THG-Bericht: 330,000 MJ, 3.3 t emitted, 27.753 t saved, 89.36 %, with the formula and the law values', async () => {
    const r = await run(thgBerichtReport, MAI_2024);
    expect(r.rows).toEqual([{
      monat: '2024-05', monatText: 'Mai 2024', produktgruppe: 'biodiesel', gruppe: 'Biodiesel (FAME)',
      energieMJ: '330000.000', emissionenT: '3.300', einsparungT: '27.753', einsparungProzent: '89.36',
    }]);
    expect(r.sums).toEqual({ energieMJ: '330000.000', emissionenT: '3.300', einsparungT: '27.753', einsparungProzent: '89.36' });
    const lines = r.erlaeuterungen!.map((e) => tDe(e.key, e.params));
    expect(lines).toContain('THG-Minderung (t CO2-Äq.) = Energie × (Basiswert − E) / 1.000.000.');
    expect(lines).toContain('Basiswert 94,1 g CO2-Äq./MJ, gültig ab 01.01.2015 (§ 37a BImSchG, 38. BImSchV: Basiswert der THG-Quote).');
    expect(lines.some((l) => l.startsWith('Fossiler Vergleichswert EF 94 g CO2-Äq./MJ, gültig ab 01.01.2015'))).toBe(true);
    for (const e of r.erlaeuterungen!) expect(tEn(e.key, e.params)).not.toBe(e.key);
    expect((await run(thgBerichtReport, MAI_2024, { lang: 'en' })).rows[0]).toMatchObject({ monatText: 'May 2024', gruppe: 'Biodiesel (FAME)' });
  });

  it('THG-Bericht honours location, partner and product; a location outside the user\'s gives no rows', async () => {
    expect((await run(thgBerichtReport, { ...MAI_2024, standort: '1001', partner: 'TP001', produkt: 'P013' })).sums.einsparungT).toBe('27.753');
    expect((await run(thgBerichtReport, { ...MAI_2024, standort: '1002' })).rows).toEqual([]);
    expect((await run(thgBerichtReport, { ...MAI_2024, partner: 'TP002' })).rows).toEqual([]);
    expect((await run(thgBerichtReport, { ...MAI_2024, produkt: 'P001' })).rows).toEqual([]);
    expect((await run(thgBerichtReport, MAI_2024, { standorte: ['1002', '1003'] })).rows).toEqual([]);
    expect((await run(thgBerichtReport, MAI_2024, { standorte: ['1001'] })).sums.einsparungT).toBe('27.753');
  });

  it('another tenant: NORD sees its own 27.753 t, never DEMO\'s (and DEMO never NORD\'s: one row above, not two)', async () => {
    const r = await run(thgBerichtReport, MAI_2024, { mandant: 'NORD' });
    expect(r.sums.einsparungT).toBe('27.753');
  });

  it('Quotenbericht 2024 at 9.25 %: 31.053 t reference, 2.872 t owed, 27.753 t achieved, surplus 24.881 t', async () => {
    const r = await run(quotenberichtReport, { startDate: '2024-01-01', endDate: '2024-12-31' });
    // 330,000 MJ × 94.1 / 10⁶ = 31.0530 t; × 9.25 % = 2.8724025 t; 27.753 / 2.8724025 = 966.19 %.
    expect(r.rows).toEqual([{
      jahr: 2024, von: '2024-01-01', bis: '2024-12-31', quote: '9.25',
      energieMJ: '330000.000', bioEnergieMJ: '330000.000', referenzT: '31.053', pflichtT: '2.872', einsparungT: '27.753', erfuellungProzent: '966.19', saldoT: '24.881',
    }]);
    const lines = r.erlaeuterungen!.map((e) => tDe(e.key, e.params));
    expect(lines).toContain('Quote 2024: 9,25 %, gültig ab 01.01.2015 (§ 37a Abs. 4 BImSchG).');
    expect(lines).toContain('Verpflichtung (t CO2-Äq.) = Quote / 100 × Referenzwert.');
    expect(pausen.length).toBeGreaterThan(0);
  });

  it('Quotenbericht counts quota-obligated locations only: a delivery from a location without the quota changes nothing', async () => {
    // Bremen-Vegesack (1003) is not quota-obligated.
    const nicht = await lieferung(admin, { standortNr: '1003', lieferdatum: '2024-06-03' });
    const n = await zertifikat(admin, { standortNr: '1003' });
    await zuordnen(admin, nicht, n, '10000');
    const r = await run(quotenberichtReport, { startDate: '2024-01-01', endDate: '2024-12-31' });
    expect(r.rows[0]).toMatchObject({ energieMJ: '330000.000', einsparungT: '27.753' });
    // The THG-Bericht counts every location: June has the second delivery.
    expect((await run(thgBerichtReport, { startDate: '2024-06-01', endDate: '2024-06-30' })).sums.einsparungT).toBe('27.753');
    // A year without a quota in the law values (2031) is reported without an obligation.
    const ohne = await run(quotenberichtReport, { startDate: '2031-01-01', endDate: '2031-03-31' });
    expect(ohne.rows[0]).toMatchObject({ jahr: 2031, quote: null, pflichtT: null, erfuellungProzent: null });
    expect(ohne.erlaeuterungen!.map((e) => tDe(e.key, e.params))).toContain('Für 2031 ist keine Quote hinterlegt: keine Verpflichtung berechnet.');
  });
});

describe('through the reports API', () => {
  it('the catalogue lists the three reports with their question, parameters and formats', async () => {
    const res = await request(t.app).get('/api/reports').set(berichte);
    const ids = res.body.data.map((r: { id: string }) => r.id);
    expect(ids).toEqual(['mengenbilanz', 'nachweis-kontoauszug', 'thg-bericht', 'quotenbericht', 'lieferungen-je-partner']);
    expect(res.body.data[2]).toMatchObject({ id: 'thg-bericht', name: 'THG-Bericht', parameter: ['startDate', 'endDate', 'standort', 'partner', 'produkt'], pflicht: ['startDate', 'endDate'], formate: ['json', 'csv', 'xlsx', 'pdf'] });
    expect(res.body.data[1].frage).toMatch(/Nachweis/);
  });

  it('THG-Bericht of May 2024: the worked example in JSON, CSV, XLSX and PDF alike, with the law values', async () => {
    const f = await alleFormate('thg-bericht', MAI_2024);
    expect(f.json.data).toEqual([expect.objectContaining({ monat: '2024-05', energieMJ: '330000.000', emissionenT: '3.300', einsparungT: '27.753', einsparungProzent: '89.36' })]);
    expect(f.json.summen).toMatchObject({ einsparungT: '27.753' });
    expect(f.json.erlaeuterungen).toContain('Basiswert 94,1 g CO2-Äq./MJ, gültig ab 01.01.2015 (§ 37a BImSchG, 38. BImSchV: Basiswert der THG-Quote).');
    expect(f.csv[0].slice(0, 6)).toEqual(['Monat', 'Produktgruppe', 'Energie (MJ)', 'Emissionen (t CO2-Äq.)', 'THG-Minderung (t CO2-Äq.)', 'Einsparung (%)']);
    const csvZeile = f.csv.find((r) => r[0] === 'Mai 2024')!;
    expect(csvZeile.slice(0, 6)).toEqual(['Mai 2024', 'Biodiesel (FAME)', '330.000', '3,300', '27,753', '89,36']);
    expect(f.csv.flat().join(' ')).toContain('THG-Minderung (t CO2-Äq.) = Energie × (Basiswert − E) / 1.000.000.');
    const xlsxZeile = f.xlsx.find((r) => r[0] === 'Mai 2024')!;
    expect(xlsxZeile.slice(0, 6)).toEqual(['Mai 2024', 'Biodiesel (FAME)', 330000, 3.3, 27.753, 89.36]);
    for (const text of ['Mai 2024', 'Biodiesel (FAME)', '330.000', '27,753', '89,36', 'Basiswert 94,1', 'THG-Minderung (t CO2-Äq.) = Energie × (Basiswert - E) / 1.000.000.']) expect(f.pdf).toContain(text);
    // Every character of the texts is one the PDF's standard fonts can show (nothing printed as "?").
    expect(f.pdf.split('\n').filter((l) => l.includes('?') && !l.includes('Wie viel'))).toEqual([]);
  });

  it('Quotenbericht 2024 and the statement hold the same rows in every format', async () => {
    const q = await alleFormate('quotenbericht', { startDate: '2024-01-01', endDate: '2024-12-31', standort: '1001' });
    expect(q.json.data).toEqual([expect.objectContaining({ jahr: 2024, quote: '9.25', pflichtT: '2.872', einsparungT: '27.753', erfuellungProzent: '966.19', saldoT: '24.881' })]);
    expect(q.xlsx.find((r) => r[0] === 2024 || r[0] === '2024')).toEqual(expect.arrayContaining([330000, 31.053, 9.25, 2.872, 27.753, 966.19, 24.881]));
    expect(q.csv.find((r) => r[0] === '2024')).toEqual(expect.arrayContaining(['9,25', '2,872', '27,753', '966,19', '24,881']));
    expect(q.pdf).toContain('Quote 2024: 9,25 %');
    expect(q.pdf.split('\n').filter((l) => l.includes('?') && !l.includes('Erfüllen die'))).toEqual([]);
    for (const text of ['2,872', '27,753', '966,19', '24,881']) expect(q.pdf).toContain(text);

    const heute = tagInDeutschland(new Date());
    const k = await alleFormate('nachweis-kontoauszug', { startDate: `${heute.slice(0, 8)}01`, endDate: heute, standort: '1002', produkt: 'P013' });
    expect(k.json.total).toBeGreaterThan(0);
    const nrs = k.json.data.map((r: { nr: string }) => r.nr);
    expect(k.csv.slice(1).map((r) => r[0]).filter((nr) => nrs.includes(nr))).toEqual(nrs);
    expect(k.xlsx.slice(1).map((r) => String(r[0])).filter((nr) => nrs.includes(nr))).toEqual(nrs);
    for (const nr of nrs) expect(k.pdf).toContain(nr);
  });

  it('a location outside the user\'s locations is a 403 with no rows; without it, the user sees only Hannover', async () => {
    const verboten = await api('thg-bericht', { ...MAI_2024, standort: '1001' }, nurBremen);
    expect(verboten.status).toBe(403);
    expect(verboten.body.data).toBeUndefined();
    const erlaubt = await api('thg-bericht', MAI_2024, nurBremen);
    expect(erlaubt.status).toBe(200);
    expect(erlaubt.body.data).toEqual([]);
    expect((await api('quotenbericht', { startDate: '2024-01-01', endDate: '2024-12-31', standort: '1001' }, nurBremen)).status).toBe(403);
    expect((await api('nachweis-kontoauszug', { startDate: '2024-01-01', endDate: '2024-12-31', standort: '1001' }, nurBremen)).status).toBe(403);
  });

  it('another tenant: its location is an unknown parameter (400 naming it), and its figures never mix with ours', async () => {
    const res = await api('thg-bericht', { ...MAI_2024, standort: '2001' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: 'standort' });
    const nordAuth = nord;
    const nordRes = await api('thg-bericht', MAI_2024, nordAuth);
    expect(nordRes.status).toBe(200);
    expect(nordRes.body.summen.einsparungT).toBe('27.753');
  });

  it('missing dates: the spec\'s message listing the missing fields; no report', async () => {
    const res = await api('quotenbericht', {});
    expect(res.status).toBe(400);
    expect(res.body.errors.map((f: { field: string }) => f.field).sort()).toEqual(['endDate', 'startDate']);
    expect(res.body.message).toMatch(/Startdatum/);
  });
});

describe('Nachweis-Kontoauszug: a hand-computed statement', () => {
  it('opening 10,000 L; split 4,000 + 1,000; 2,000 to a delivery; the part gives 1,000 to it; balances as stored', async () => {
    // The certificate was issued on 2 March 2026; everything else is booked today.
    const n = await zertifikat(admin, { standortNr: '1002' });
    const [t1, t2] = await teilen(admin, n, ['4000', '1000']);
    const a = await lieferung(admin, { standortNr: '1002', lieferdatum: '2026-11-20', menge: '3000' });
    await zuordnen(admin, a, n, '2000');
    await zuordnen(admin, a, t1, '1000');
    const heute = tagInDeutschland(new Date());
    const params = { startDate: `${heute.slice(0, 8)}01`, endDate: heute, standort: '1002', produkt: 'P013' };
    const r = await run(nachweisKontoauszugReport, params);
    const zeile = (nr: string) => r.rows.find((z) => z.nr === nr);
    expect(zeile(n)).toEqual({
      nr: n, stammNr: null, zugangAm: '2026-03-02', standortNr: '1002', produktNr: 'P013', einheit: 'L',
      anfangsbestand: '10000.000', zugang: '0.000', geteilt: '5000.000', teile: `${t1}, ${t2}`, zugeordnet: '2000.000', zuordnungen: a, endbestand: '3000.000',
    });
    expect(zeile(t1)).toMatchObject({ stammNr: n, zugangAm: heute, anfangsbestand: '0.000', zugang: '4000.000', geteilt: '0.000', zugeordnet: '1000.000', zuordnungen: a, endbestand: '3000.000' });
    expect(zeile(t2)).toMatchObject({ stammNr: n, zugang: '1000.000', zugeordnet: '0.000', endbestand: '1000.000' });
    // The closing balance is the stored rest of every listed certificate.
    const rests = await t.db.knex('nachweise').where({ mandant: 'DEMO' }).whereIn('nr', r.rows.map((z) => z.nr)).select('nr', 'menge_verbleibend');
    for (const row of rests) expect(zeile(row.nr)!.endbestand, row.nr).toBe(String(row.menge_verbleibend));
    // Sums are litres over all rows: opening + received − split − assigned = closing.
    const s = r.sums as Record<string, string>;
    expect(Number(s.anfangsbestand) + Number(s.zugang) - Number(s.geteilt) - Number(s.zugeordnet)).toBeCloseTo(Number(s.endbestand), 3);

    // The month before: received on 2 March, nothing moved yet (every movement is booked today).
    const frueher = await run(nachweisKontoauszugReport, { startDate: '2026-03-01', endDate: '2026-03-31', standort: '1002', produkt: 'P013' });
    expect(frueher.rows.find((z) => z.nr === n)).toMatchObject({ anfangsbestand: '0.000', zugang: '10000.000', geteilt: '0.000', zugeordnet: '0.000', endbestand: '10000.000' });
    expect(frueher.rows.find((z) => z.nr === t1)).toBeUndefined();

    // Outside the user's locations, or another tenant: not listed.
    expect((await run(nachweisKontoauszugReport, params, { standorte: ['1001'] })).rows).toEqual([]);
    const nordRows = (await run(nachweisKontoauszugReport, { startDate: '2020-01-01', endDate: heute }, { mandant: 'NORD' })).rows.map((z) => z.nr);
    expect(nordRows).not.toContain(n);
    expect(nordRows.length).toBeGreaterThan(0);
  });

  it('a cancelled proof gives its quantity back and is no movement', async () => {
    const n = await zertifikat(admin, { standortNr: '1002' });
    const a = await lieferung(admin, { standortNr: '1002', lieferdatum: '2026-11-20', menge: '500' });
    await zuordnen(admin, a, n, '500');
    expect((await request(t.app).delete(`/api/ablieferungen/${a}/nachweise/${n}`).set(admin)).status).toBeLessThan(300);
    const heute = tagInDeutschland(new Date());
    const r = await run(nachweisKontoauszugReport, { startDate: `${heute.slice(0, 8)}01`, endDate: heute, standort: '1002' });
    // Nothing moved in the period: the certificate holds its 10,000 L from before.
    expect(r.rows.find((z) => z.nr === n)).toMatchObject({ anfangsbestand: '10000.000', zugeordnet: '0.000', zuordnungen: '', endbestand: '10000.000' });
  });

  it('a day in Germany begins at 23:00 or 22:00 UTC', () => {
    expect(tagesbeginn('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(tagesbeginn('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(tagInDeutschland('2026-07-14T22:30:00Z')).toBe('2026-07-15');
  });

  it('the Quotenbericht reads a month in slices of at most eight days, clipped to the period', () => {
    expect(wochen({ von: '2026-02-01', bis: '2026-02-28' })).toEqual([
      { von: '2026-02-01', bis: '2026-02-08' }, { von: '2026-02-09', bis: '2026-02-16' }, { von: '2026-02-17', bis: '2026-02-24' }, { von: '2026-02-25', bis: '2026-02-28' },
    ]);
    expect(wochen({ von: '2026-03-10', bis: '2026-03-18' })).toEqual([{ von: '2026-03-10', bis: '2026-03-16' }, { von: '2026-03-17', bis: '2026-03-18' }]);
  });
});
