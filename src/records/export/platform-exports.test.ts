// The exports of the lists over platform tables (users, tenants, the audit log): the same formats as every
// record list, with the same visibility as the list itself, on the page and the API.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { extractPdfText } from '../../testing/pdf-text.js';
import { signIn } from '../../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    res.on('end', () => done(null, Buffer.concat(parts)));
  });
const csvRows = (text: string) => (parse(text.replace(/^\uFEFF/, ''), { delimiter: ';', relax_column_count: true }) as string[][]);

describe('exports of the platform lists', () => {
  it("a tenant administrator's user export (XLSX) holds exactly the users the list shows him", async () => {
    const auth = { Authorization: await token('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
    const listed = (await request(t.app).get('/api/benutzer?pageSize=500').set(auth)).body;
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/benutzer/administration');
    expect(page.text).toContain('href="/de/benutzer/administration?format=xlsx"');
    const file = await binary(agent.get('/de/benutzer/administration?format=xlsx'));
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="benutzer.xlsx"');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.body as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header[0]).toBe('Login');
    const logins: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(1).value) logins.push(String(row.getCell(1).value));
    });
    expect(logins.sort()).toEqual(listed.data.map((u: { login: string }) => u.login).sort());
  });

  it('support exports the audit log of its tenants as CSV through the API, as many entries as the list counts', async () => {
    const auth = { Authorization: await token('SUPPORT', 'Support12345'), 'X-Mandant': 'DEMO' };
    const listed = (await request(t.app).get('/api/logmeldungen?pageSize=500').set(auth)).body;
    const csv = await request(t.app).get('/api/logmeldungen?format=csv').set(auth);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = csvRows(csv.text);
    expect(listed.total).toBeGreaterThan(0);
    expect(rows.length - 1).toBe(listed.total);
  });

  it('the tenant list as PDF for a system administrator; an unknown format is refused on page and API', async () => {
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const pdf = await binary(agent.get('/de/benutzer/mandanten?format=pdf'));
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await extractPdfText(pdf.body as Buffer)).join('\n');
    expect(text).toContain('DEMO');
    expect(text).toContain('NORD');
    const refused = await agent.get('/de/benutzer/mandanten?format=docx');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Unbekanntes Exportformat. Möglich sind: csv, xlsx, pdf.');
    const auth = { Authorization: await token('ADMIN', 'Admin12345'), 'X-Mandant': 'DEMO' };
    const api = await request(t.app).get('/api/mandanten?format=docx').set(auth);
    expect(api.status).toBe(400);
    expect(api.body.errors).toEqual([{ field: 'format', message: 'Unbekanntes Exportformat. Möglich sind: csv, xlsx, pdf.' }]);
  });
});
