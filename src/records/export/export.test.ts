// The list exports through the real app and a real database: every format holds the rows and sums the list
// shows with the same filter (page and API alike), an unknown format is a 400 naming the parameter, a
// location-limited user gets only their rows in every format, and a failure midway never leaves a file that
// looks whole.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { extractPdfText } from '../../testing/pdf-text.js';
import { signIn, type Agent } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';
import { csvSafe } from './csv.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // LAGER reads movement data at location 1001 only.
  await createUserWithRoles(t.db.knex, 'LAGER', 'Geheim12345', [1, 3, 5, 9, 11, 13].map((typ) => ({ typ, standortNr: '1001' })));
});
afterAll(() => t.close());

const PAGE = '/de/bewegungsdaten/einlieferungen';
const API = '/api/einlieferungen';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string) => ({ Authorization: await token(login, password), 'X-Mandant': 'DEMO' });

/** A response body as bytes, whatever its type. */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    res.on('end', () => done(null, Buffer.concat(parts)));
  });

/** A CSV export as its rows (header first) and its sums (after the empty line). */
function csvOf(text: string, delimiter = ';') {
  const lines = parse(text.replace(/^\uFEFF/, ''), { delimiter, relax_column_count: true, skip_empty_lines: false }) as string[][];
  const gap = lines.findIndex((l) => l.length === 1 && l[0] === '');
  return { rows: gap < 0 ? lines : lines.slice(0, gap), totals: gap < 0 ? [] : lines.slice(gap + 1) };
}

/** An XLSX export as text the way the CSV shows it (numbers by their format's digits, dates as dd.mm.yyyy). */
async function xlsxOf(buf: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buf as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  const text = (cell: ExcelJS.Cell) => {
    const v = cell.value;
    if (v == null) return '';
    if (typeof v === 'number') {
      const digits = /\.(0+)/.exec(cell.numFmt ?? '')?.[1].length ?? 0;
      return v.toLocaleString('de-DE', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    }
    if (v instanceof Date) return `${String(v.getUTCDate()).padStart(2, '0')}.${String(v.getUTCMonth() + 1).padStart(2, '0')}.${v.getUTCFullYear()}`;
    return csvSafe(String(v));
  };
  const lines: string[][] = [];
  const width = sheet.getRow(1).cellCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells = Array.from({ length: row.cellCount }, (_, i) => text(row.getCell(i + 1)));
    lines.push(cells.length ? cells : ['']);
  });
  const gap = lines.findIndex((l) => l.every((c) => c === ''));
  return {
    sheet,
    rows: (gap < 0 ? lines : lines.slice(0, gap)).map((l) => Array.from({ length: width }, (_, i) => l[i] ?? '')),
    totals: gap < 0 ? [] : lines.slice(gap + 1),
  };
}

/** The numbers the JSON list shows for a query, in its order (the oracle for every format). */
async function listed(auth: Record<string, string>, query: string): Promise<string[]> {
  const res = await request(t.app).get(`${API}?${query}&pageSize=500`).set(auth);
  expect(res.status).toBe(200);
  expect(res.body.total).toBeLessThanOrEqual(500);
  return res.body.data.map((d: { nr: string }) => d.nr);
}

const word = (nr: string) => new RegExp(`(^|\\s)${nr.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}(\\s|$)`);

describe('list exports', () => {
  let agent: Agent;
  beforeAll(async () => {
    agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
  });

  it('XLSX holds the same rows, in the same order, and the same sums as the CSV of the same filter', async () => {
    // More rows than the XLSX reads at a time (100), fewer than the CSV does (500): order across chunks.
    const query = 'status=completed&sort=entladedatum:asc';
    const csvRes = await agent.get(`${PAGE}?${query}&format=csv`);
    const xlsxRes = await binary(agent.get(`${PAGE}?${query}&format=xlsx`));
    expect(xlsxRes.status).toBe(200);
    expect(xlsxRes.headers['content-type']).toBe(XLSX);
    expect(xlsxRes.headers['content-disposition']).toBe('attachment; filename="einlieferungen.xlsx"');
    const csv = csvOf(csvRes.text);
    const xlsx = await xlsxOf(xlsxRes.body as Buffer);
    expect(csv.rows.length).toBeGreaterThan(101);
    expect(xlsx.rows).toEqual(csv.rows);
    expect(xlsx.totals).toEqual(csv.totals);
    expect(csv.totals.map((l) => l[0])).toEqual(['Summe ohne Stornierte in Liter', 'Summe ohne Stornierte in Kilogramm']);
    // The same rows the list shows, in its order.
    expect(csv.rows.slice(1).map((r) => r[0])).toEqual(await listed(await as('TADMIN', 'Tadmin12345'), query));

    // Values are values: dates are dates, numbers numbers with a number format; the header is bold and frozen.
    const { sheet } = xlsx;
    const header = csv.rows[0];
    const cell = (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1);
    expect(cell('Entladedatum').value).toBeInstanceOf(Date);
    expect(cell('Entladedatum').numFmt).toBe('dd.mm.yyyy');
    expect(typeof cell('Entladene Menge').value).toBe('number');
    expect(cell('Entladene Menge').numFmt).toBe('#,##0.000');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('PDF holds the filtered rows and their sums, and no row the filter leaves out', async () => {
    const query = 'standortNr=1001&status=completed';
    const res = await binary(agent.get(`${PAGE}?${query}&format=pdf`));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="einlieferungen.pdf"');
    const body = res.body as Buffer;
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = await extractPdfText(body);
    const text = pages.join('\n');
    expect(pages[0]).toContain('Einlieferungen');
    const location = (await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '1001' }).first('name')).name as string;
    expect(pages[0]).toContain(`Filter: Standort: 1001 · ${location}; Status: Abgeschlossen`);
    expect(pages[0]).toContain('sortiert nach Entladedatum, absteigend');
    const expected = await listed(await as('TADMIN', 'Tadmin12345'), query);
    expect(expected.length).toBeGreaterThan(5);
    for (const nr of expected) expect(text).toMatch(word(nr));
    const elsewhere = await t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).whereNot('standort_nr', '1001').first('nr');
    const open = await t.db.knex('einlieferungen').where({ mandant: 'DEMO', standort_nr: '1001' }).whereNot('status', 'completed').first('nr');
    expect(text).not.toMatch(word(elsewhere.nr));
    expect(text).not.toMatch(word(open.nr));
    // The sums the CSV has, under the table.
    const csv = csvOf((await agent.get(`${PAGE}?${query}&format=csv`)).text);
    for (const [label, value] of csv.totals) expect(pages.at(-1)).toMatch(new RegExp(`${label}\\s+${value.replace(/\./g, '\\.')}`));
    expect(pages.at(-1)).toContain(`Seite ${pages.length}`);
  });

  it('offers the three exports on the page, each keeping the filter and order', async () => {
    const page = await agent.get(`${PAGE}?standortNr=1001&sort=nr:asc`);
    expect(page.status).toBe(200);
    for (const [format, label] of [['csv', 'CSV'], ['xlsx', 'Excel'], ['pdf', 'PDF']]) {
      expect(page.text).toContain(`href="${PAGE}?standortNr=1001&amp;sort=nr%3Aasc&amp;format=${format}" download>${label}</a>`);
    }
    expect(page.text).toMatch(/role="group" aria-labelledby="list-export"><span id="list-export"[^>]*>.*Exportieren<\/span>/);
  });

  it('answers an unknown format on the page with the list and an inline error (400), never a 500', async () => {
    const res = await agent.get(`${PAGE}?standortNr=1001&format=docx`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('Unbekanntes Exportformat. Möglich sind: csv, xlsx, pdf.');
    expect(res.text).toContain('<table');
    const english = await agent.get('/en/bewegungsdaten/einlieferungen?format=');
    expect(english.status).toBe(400);
    expect(english.text).toContain('Unknown export format. Possible: csv, xlsx, pdf.');
  });

  it('streams every format from the list API too; an unknown format is a 400 naming `format`', async () => {
    const auth = await as('TADMIN', 'Tadmin12345');
    const query = 'standortNr=1001&sort=nr:asc';
    const expected = await listed(auth, query);

    const xlsx = await binary(request(t.app).get(`${API}?${query}&format=xlsx`).set(auth));
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-type']).toBe(XLSX);
    expect(xlsx.headers['content-disposition']).toBe('attachment; filename="einlieferungen.xlsx"');
    expect((await xlsxOf(xlsx.body as Buffer)).rows.slice(1).map((r) => r[0])).toEqual(expected);

    const pdf = await binary(request(t.app).get(`${API}?${query}&format=pdf`).set(auth));
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await extractPdfText(pdf.body as Buffer)).join('\n');
    for (const nr of expected) expect(text).toMatch(word(nr));

    // In the language of Accept-Language.
    const csv = await request(t.app).get(`${API}?${query}&format=csv`).set({ ...auth, 'Accept-Language': 'en' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csvOf(csv.text, ',').rows[0][0]).toBe('Number');

    for (const bad of ['docx', 'CSV', '']) {
      const res = await request(t.app).get(`${API}?format=${bad}`).set(auth);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'BAD_REQUEST', errors: [{ field: 'format', message: 'Unbekanntes Exportformat. Möglich sind: csv, xlsx, pdf.' }] });
    }
    const twice = await request(t.app).get(`${API}?format=csv&format=pdf`).set(auth);
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([expect.objectContaining({ field: 'format' })]);
    // Without a format, JSON as before.
    expect((await request(t.app).get(`${API}?${query}`).set(auth)).body.data.map((d: { nr: string }) => d.nr)).toEqual(expected.slice(0, 10));
  });

  it('gives a location-limited user only the rows of their locations, in every format', async () => {
    const lager = await signIn(t.app, 'LAGER', 'Geheim12345');
    const mine = await listed(await as('LAGER', 'Geheim12345'), 'sort=nr:asc');
    const inDb = await t.db.knex('einlieferungen').where({ mandant: 'DEMO', standort_nr: '1001' }).orderBy('nr').pluck('nr');
    expect(mine).toEqual(inDb);
    const elsewhere = await t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).whereNot('standort_nr', '1001').pluck('nr');

    const csv = csvOf((await lager.get(`${PAGE}?sort=nr:asc&format=csv`)).text);
    const standort = csv.rows[0].indexOf('Standort-Nr.');
    expect(standort).toBeGreaterThan(0);
    expect(csv.rows.slice(1).map((r) => r[0])).toEqual(mine);
    expect(new Set(csv.rows.slice(1).map((r) => r[standort]))).toEqual(new Set(['1001']));

    const xlsx = await xlsxOf((await binary(lager.get(`${PAGE}?sort=nr:asc&format=xlsx`))).body as Buffer);
    expect(xlsx.rows).toEqual(csv.rows);
    expect(xlsx.totals).toEqual(csv.totals);

    const text = (await extractPdfText((await binary(lager.get(`${PAGE}?sort=nr:asc&format=pdf`))).body as Buffer)).join('\n');
    for (const nr of mine) expect(text).toMatch(word(nr));
    for (const nr of elsewhere.slice(0, 50)) expect(text).not.toMatch(word(nr));

    // The API the same way.
    const api = await binary(request(t.app).get(`${API}?sort=nr:asc&format=xlsx`).set(await as('LAGER', 'Geheim12345')));
    expect((await xlsxOf(api.body as Buffer)).rows).toEqual(csv.rows);
  });

  it.each(['csv', 'xlsx', 'pdf'])('%s that fails after its first bytes is cut off, never delivered as a file that looks whole', async (format) => {
    // The rows' names come from the partners' versions: without the right to read them, the first chunk fails
    // after the file has begun.
    await t.db.knex.raw('revoke select on tauschpartner_versionen from portal_app');
    try {
      const res = await binary(agent.get(`${PAGE}?format=${format}`)).then(
        (r) => ({ complete: true, detail: `${r.status} ${(r.body as Buffer).length} bytes` }),
        (err: Error & { code?: string }) => ({ complete: false, detail: String(err.code ?? err.message) }),
      );
      expect(res.complete, res.detail).toBe(false);
    } finally {
      await t.db.knex.raw('grant select on tauschpartner_versionen to portal_app');
    }
    const ok = await binary(agent.get(`${PAGE}?format=${format}`));
    expect(ok.status).toBe(200);
  });
});
