// The movement-data import through HTTP against the real database: import codes (saved per tenant and type,
// versioned), preview and commit of deliveries with the same rules as a delivery entered by hand, re-imports,
// locked deliveries, faulty files and codes, XLSX, permissions per type, tenants, and the pages without script.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zertifikatEingabe } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { createUserWithRoles } from '../../testing/users.js';
import { multipartForm, postMultipart, signIn } from '../../testing/session.js';
import { defaultCode, exampleCsv } from './defaults.js';

let t: TestApp;
const PASSWORD = 'Import12345';

const createUser = (login: string, rollen: { typ: number; standortNr: string | null }[]) => createUserWithRoles(t.db.knex, login, PASSWORD, rollen);

beforeAll(async () => {
  t = await createTestApp();
  await createUser('EINGANG', [{ typ: 19, standortNr: null }]); // inbound import only
  await createUser('AUSGANG', [{ typ: 20, standortNr: null }]); // outbound import only
  await createUser('HAMBURGIMPORT', [{ typ: 19, standortNr: '1001' }]); // inbound import at 1001 only
  await createUser('ZERTIFIKATE', [{ typ: 22, standortNr: null }]); // sidebar role only: the page, no import
});
afterAll(() => t.close());

const tokens = new Map<string, string>();
async function auth(login = 'TADMIN', password = 'Tadmin12345', mandant = 'DEMO') {
  const key = `${login}|${mandant}`;
  if (!tokens.has(key)) tokens.set(key, (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token);
  return { Authorization: tokens.get(key)!, 'X-Mandant': mandant };
}
const as = (login: string) => auth(login, PASSWORD);

const CODE_DE = defaultCode('einlieferungen', 'de', ['Test']);
const example = () => Buffer.from(exampleCsv('einlieferungen'));
const csv = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`);
const HEADER = 'Lieferschein;Entladedatum;Lieferant;Standort;Produkt;Menge;Einheit;Bioanteil %;Vertrag;Incoterm;Fahrzeug;Bemerkung';

async function previewApi(file: Buffer, fields: Record<string, string> = {}, headers?: Record<string, string>, name = 'lieferungen.csv') {
  let req = request(t.app).post('/api/import/preview').set(headers ?? (await auth()));
  for (const [k, v] of Object.entries({ typ: 'einlieferungen', ...fields })) req = req.field(k, v);
  return req.attach('file', file, name);
}
const commitApi = async (token: string, headers?: Record<string, string>) => request(t.app).post('/api/import/commit').set(headers ?? (await auth())).send({ token });

const delivery = (nr: string, table = 'einlieferungen') => t.db.knex(table).where({ mandant: 'DEMO', nr }).first();
const versions = (nr: string, table = 'einlieferungen') => t.db.knex(`${table}_versionen`).where({ mandant: 'DEMO', nr }).orderBy('version');
const count = async (table: string, like: string) => Number((await t.db.knex(table).where({ mandant: 'DEMO' }).andWhere('nr', 'like', like).count<{ c: string }[]>({ c: '*' }).first())!.c);
const masterVersion = async (table: string, nr: string) => Number((await t.db.knex(table).where({ mandant: 'DEMO', nr }).first('version')).version);

describe('importing deliveries with an import code', () => {
  it('stores a good file as the preview showed it: exact decimals, units, dates, references with versions, not entered by hand', async () => {
    const res = await previewApi(example());
    expect(res.status, res.text).toBe(200);
    const data = res.body.data;
    expect(data.counts).toEqual({ create: 5, update: 0, unchanged: 0, refused: 0 });
    expect(data.typ).toBe('einlieferungen');
    // The first rows as they would be stored.
    expect(data.rows[1]).toMatchObject({
      row: 3, nr: 'EL-2025-0002', status: 'create',
      values: { entladedatum: '2025-11-04', entladeneMenge: '24000.5', unitOfMeasure: 'L', partnerNr: 'TP007', produktNr: 'P013', produktgruppe: 'biodiesel', manuelleEingabe: false, status: 'open' },
    });
    expect(await count('einlieferungen', 'EL-2025-%')).toBe(0); // a preview stores nothing

    const done = await commitApi(data.token);
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.counts).toEqual({ create: 5, update: 0, unchanged: 0, refused: 0 });
    const first = await delivery('EL-2025-0001');
    expect(first).toMatchObject({ datum: '2025-11-03', einheit: 'L', status: 'open', manuelle_eingabe: false, storniert: false, partner_nr: 'TP001', standort_nr: '1001', produkt_nr: 'P001', produktgruppe: 'diesel', contract_number: 'V-2025-117', incoterm: 'DAP', vehicle_name: 'HH-TK 412' });
    expect(Number(first.menge)).toBe(31500);
    expect(first.partner_version).toBe(await masterVersion('tauschpartner', 'TP001'));
    expect(first.produkt_version).toBe(await masterVersion('produkte', 'P001'));
    expect(first.standort_version).toBe(await masterVersion('standorte', '1001'));
    const kg = await delivery('EL-2025-0003');
    expect([kg.einheit, Number(kg.menge), kg.produktgruppe]).toEqual(['kg', 18250, 'hvo']);
    expect(Number((await delivery('EL-2025-0005')).menge)).toBe(12800.25);
    // An empty bio content takes the product's, as a delivery entered by hand does.
    expect(Number((await delivery('EL-2025-0004')).biogehalt)).toBe(10);
    expect((await versions('EL-2025-0001')).map((v) => v.version)).toEqual([1]);
    // Every write audited: the import and each delivery.
    expect(await t.db.knex('audit_log').where({ kind: 'bewegungsdaten.import', mandant: 'DEMO', entity_id: data.token }).first()).toBeTruthy();
    expect(Number((await t.db.knex('audit_log').where({ kind: 'bewegungsdaten.einlieferungen.create', mandant: 'DEMO' }).count<{ c: string }[]>({ c: '*' }).first())!.c)).toBe(5);
    // The result stays readable, and a second commit is refused.
    expect((await request(t.app).get(`/api/import/${data.token}`).set(await auth())).body.data.result).toEqual({ create: 5, update: 0, unchanged: 0, refused: 0 });
    expect((await commitApi(data.token)).status).toBe(409);
  });

  it('changes nothing when the same file comes again (no duplicates, all unchanged)', async () => {
    const res = await previewApi(example());
    expect(res.body.data.counts).toEqual({ create: 0, update: 0, unchanged: 5, refused: 0 });
    expect((await commitApi(res.body.data.token)).body.data.counts).toEqual({ create: 0, update: 0, unchanged: 5, refused: 0 });
    expect(await count('einlieferungen', 'EL-2025-%')).toBe(5);
    expect((await versions('EL-2025-0002')).map((v) => v.version)).toEqual([1]);
  });

  it('saves a changed row as a new version with what changed', async () => {
    const changed = exampleCsv('einlieferungen').replace('24.000,5;Liter;100;V-2025-118', '24.100;Liter;100;V-2025-118b');
    const res = await previewApi(Buffer.from(changed));
    expect(res.body.data.counts).toEqual({ create: 0, update: 1, unchanged: 4, refused: 0 });
    expect(res.body.data.rows[1].changes).toEqual([
      { field: 'entladeneMenge', column: 'Menge', before: '24000.500', after: '24100' },
      { field: 'contractNumber', column: 'Vertrag', before: 'V-2025-118', after: 'V-2025-118b' },
    ]);
    expect((await commitApi(res.body.data.token)).body.data.counts).toEqual({ create: 0, update: 1, unchanged: 4, refused: 0 });
    const history = await versions('EL-2025-0002');
    expect(history.map((v) => v.version)).toEqual([1, 2]);
    const changes = typeof history[1].changes === 'string' ? JSON.parse(history[1].changes) : history[1].changes;
    expect(changes.map((c: { field: string }) => c.field)).toEqual(['entladeneMenge', 'contractNumber']);
    expect((await delivery('EL-2025-0002')).manuelle_eingabe).toBe(false);
  });

  it('refuses a change to a completed or locked delivery in the preview and commits nothing; unchanged it passes', async () => {
    await t.db.knex('einlieferungen').where({ mandant: 'DEMO', nr: 'EL-2025-0003' }).update({ status: 'completed' });
    await t.db.knex('einlieferungen').where({ mandant: 'DEMO', nr: 'EL-2025-0004' }).update({ status: 'locked' });
    const unchanged = await previewApi(example());
    expect(unchanged.body.data.counts).toEqual({ create: 0, update: 1, unchanged: 4, refused: 0 }); // row 3 is back at 24.000,5
    const file = exampleCsv('einlieferungen').replace('18.250;Kilogramm', '18.300;Kilogramm').replace('EL-2025-0005', 'EL-2025-0006');
    const res = await previewApi(Buffer.from(file));
    expect(res.body.data.counts).toMatchObject({ create: 1, refused: 1 });
    expect(res.body.data.errors).toEqual([{ row: 4, column: null, message: 'Diese Lieferung ist abgeschlossen und kann nicht mehr bearbeitet werden.' }]);
    expect((await commitApi(res.body.data.token)).status).toBe(400);
    expect(Number((await delivery('EL-2025-0003')).menge)).toBe(18250);
    expect(await delivery('EL-2025-0006')).toBeUndefined();
  });

  it('keeps an outbound delivery holding certificates as they were checked against: its bio quantity not below what is covered', async () => {
    const admin = await auth();
    const zert = await request(t.app).post('/api/nachweise').set(admin).send(zertifikatEingabe({ nr: 'IMP-N-1' }));
    expect(zert.status, JSON.stringify(zert.body)).toBe(201);
    // Diesel B7, 10,000 L: 700 L bio, 600 L of them covered.
    const header = 'Belegnummer;Lieferdatum;Kunde;Standort;Produkt;Menge;Einheit;Bioanteil %;Vertrag;Incoterm;Fahrzeug;Bemerkung';
    const first = await previewApi(csv([header, 'IMP-AL-1;20.11.2026;TP001;1001;P001;10.000;Liter;7;;;;']), { typ: 'ablieferungen' });
    expect((await commitApi(first.body.data.token)).status).toBe(200);
    expect((await request(t.app).post('/api/ablieferungen/IMP-AL-1/nachweise').set(admin).send({ nachweisNr: 'IMP-N-1', volumen: '600' })).status).toBe(201);

    const kleiner = await previewApi(csv([header, 'IMP-AL-1;20.11.2026;TP001;1001;P001;8.000;Liter;7;;;;']), { typ: 'ablieferungen' });
    expect(kleiner.body.data.counts).toMatchObject({ refused: 1 });
    expect(kleiner.body.data.errors[0].message).toBe('Der Ablieferung sind Nachweise über 600 L zugeordnet: Ihre Bio-Menge kann nicht darunter sinken. Entfernen Sie zuerst Nachweise.');
    const woanders = await previewApi(csv([header, 'IMP-AL-1;20.11.2026;TP001;1002;P001;10.000;Liter;7;;;;']), { typ: 'ablieferungen' });
    expect(woanders.body.data.counts).toMatchObject({ refused: 1 });
    expect(Number((await delivery('IMP-AL-1', 'ablieferungen')).menge)).toBe(10000);
    // What leaves the covered bio quantity alone passes.
    const bemerkung = await previewApi(csv([header, 'IMP-AL-1;20.11.2026;TP001;1001;P001;9.000;Liter;7;;;;nachgemessen']), { typ: 'ablieferungen' });
    expect(bemerkung.body.data.counts).toMatchObject({ update: 1, refused: 0 });
    expect((await commitApi(bemerkung.body.data.token)).status).toBe(200);
    expect(Number((await delivery('IMP-AL-1', 'ablieferungen')).menge)).toBe(9000);
  });

  it('names row, column and field of every faulty value, and stores nothing', async () => {
    await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr: 'TP030' }).update({ status: 'inaktiv' });
    const code = `${CODE_DE}produktgruppe = Spalte "Gruppe"\n`;
    const file = csv([
      `${HEADER};Gruppe`,
      'EF-1;31.02.2025;TP001;1001;P001;1.000;Liter;7;;;;;diesel', // 2: no such day
      'EF-2;03.11.2025;TPX;1001;P001;1.000;Liter;7;;;;;', // 3: unknown partner
      'EF-3;03.11.2025;TP001;1001;P007;1.000;Liter;;;;;;', // 4: inactive product
      'EF-4;03.11.2025;TP001;1001;P001;-5;Liter;;;;;;', // 5: quantity not above 0
      'EF-5;03.11.2025;TP001;1001;P001;1.000;Liter;150;;;;;', // 6: bio content above 100
      'EF-6;03.11.2025;TP001;1001;P001;1.000;Gallonen;;;;;;', // 7: unit not in the table
      'EF-7;03/11/2025;TP001;1001;P001;12.5;Liter;;;XYZ;;;', // 8: date format, decimal comma, incoterm
      'EF-8;03.11.2025;TP001;1001;P001;1.000;Liter;;;;;;benzin', // 9: group is not the product's
      'EF-9;03.11.1999;TP030;9999;P001;1.000;Liter;;;;;;', // 10: too early, inactive partner, unknown location
      'EF-1;03.11.2025;TP001;1001;P001;1.000;Liter;;;;;;', // 11: number twice
    ]);
    const res = await previewApi(file, { code });
    expect(res.status, res.text).toBe(200);
    const errors = res.body.data.errors;
    expect(errors).toEqual([
      { row: 2, column: 'Entladedatum', field: 'entladedatum', message: 'Kein gültiges Datum (z. B. 31.12.2025 oder 2025-12-31)' },
      { row: 3, column: 'Lieferant', field: 'partnerNr', message: 'Unbekannter Partner „TPX“' },
      { row: 4, column: 'Produkt', field: 'produktNr', message: '„P007“ ist deaktiviert und kann nicht neu zugeordnet werden' },
      { row: 5, column: 'Menge', field: 'entladeneMenge', message: 'Erlaubt sind Werte von 0,001 bis 5.000.000.000.000' },
      { row: 6, column: 'Bioanteil %', field: 'biogehalt', message: 'Erlaubt sind Werte von 0 bis 100' },
      { row: 7, column: 'Einheit', field: 'unitOfMeasure', message: '„Gallonen“ steht nicht in der Zuordnung (liter, kilogramm)' },
      { row: 8, column: 'Entladedatum', field: 'entladedatum', message: '„03/11/2025“ passt nicht zum Datumsformat TT.MM.JJJJ' },
      { row: 8, column: 'Menge', field: 'entladeneMenge', message: '„12.5“ ist keine Zahl mit Dezimalkomma (z. B. 1.234,5)' },
      { row: 8, column: 'Incoterm', field: 'incoterm', message: 'Ungültiger Wert' },
      { row: 9, column: 'Gruppe', field: 'produktgruppe', message: 'Das Produkt P001 gehört zur Gruppe diesel' },
      { row: 10, column: 'Entladedatum', field: 'entladedatum', message: expect.stringMatching(/^Das Datum muss zwischen 2000-01-01 und \d{4}-\d{2}-\d{2} liegen$/) },
      { row: 11, column: 'Lieferschein', field: 'nr', message: 'Die Nummer EF-1 steht schon in Zeile 2.' },
    ]);
    expect(res.body.data.counts).toMatchObject({ create: 0, refused: 10 });
    // Row 10's date is refused on its own; partner and location are checked once the row's values are valid.
    const again = await previewApi(csv([HEADER, 'EF-9;03.11.2025;TP030;9999;P001;1.000;Liter;;;;;']));
    expect(again.body.data.errors.map((e: { field: string; message: string }) => [e.field, e.message])).toEqual([
      ['partnerNr', '„TP030“ ist deaktiviert und kann nicht neu zugeordnet werden'],
      ['standortNr', 'Unbekannter Standort „9999“'],
    ]);
    expect((await commitApi(res.body.data.token)).status).toBe(400);
    expect(await count('einlieferungen', 'EF-%')).toBe(0);
    // English, when the request asks for it.
    const en = await previewApi(csv([HEADER, 'EF-1;03.11.2025;TP001;1001;P001;1.000;Gallons;;;;;']), {}, { ...(await auth()), 'Accept-Language': 'en' });
    expect(en.body.data.errors).toEqual([{ row: 2, column: 'Einheit', field: 'unitOfMeasure', message: '“Gallons” is not in the assignments (liter, kilogramm)' }]);
  });

  it('names the columns a code reads that the file lacks, in one error, and stages nothing', async () => {
    const before = Number((await t.db.knex('import_staging').count<{ c: string }[]>({ c: '*' }).first())!.c);
    const res = await previewApi(csv(['Lieferschein;Datum;Lieferant;Standort;Produkt', 'X;03.11.2025;TP001;1001;P001']));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'IMPORT_COLUMNS', message: 'Die Datei hat nicht alle Spalten, die der Import-Code nennt. Es fehlen: „Entladedatum“, „Menge“, „Einheit“, „Bioanteil %“, „Vertrag“, „Incoterm“, „Fahrzeug“, „Bemerkung“.' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['Entladedatum', 'Menge', 'Einheit', 'Bioanteil %', 'Vertrag', 'Incoterm', 'Fahrzeug', 'Bemerkung']);
    expect(Number((await t.db.knex('import_staging').count<{ c: string }[]>({ c: '*' }).first())!.c)).toBe(before);
  });

  it('refuses a faulty code with every line named, and malformed files with a clear message; never a 500', async () => {
    const code = await previewApi(example(), { code: 'nr = Spalte "Lieferschein"\nmengee = Spalte "Menge" | dezimalkomma\n' });
    expect(code.status).toBe(400);
    expect(code.body.code).toBe('IMPORT_CODE');
    expect(code.body.errors[0]).toEqual({ field: 'code', message: 'Zeile 2: Unbekanntes Feld „mengee“. Meinten Sie „entladeneMenge“?' });
    expect(code.body.errors.slice(1).map((e: { message: string }) => e.message)).toContain('Zeile 2: Das Pflichtfeld entladedatum fehlt im Import-Code.');

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]);
    const cases: [Buffer, number, unknown][] = [
      [png, 400, 'Die Datei ist weder eine CSV- noch eine XLSX-Datei.'],
      [Buffer.alloc(0), 400, 'Die Datei ist leer.'],
      [csv([HEADER]), 400, 'Die Datei enthält nur die Überschriftenzeile, aber keine Daten.'],
      [Buffer.from(`${HEADER}\r\n"EL-1;03.11.2025\r\n`), 400, expect.stringMatching(/^Die CSV-Datei lässt sich ab Zeile \d nicht lesen\. Bitte prüfen Sie dort die Anführungszeichen\.$/)],
      [Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]), 400, 'Die XLSX-Datei lässt sich nicht lesen. Bitte speichern Sie sie erneut als .xlsx oder als CSV.'],
      [Buffer.alloc(10 * 1024 * 1024 + 1, 0x41), 413, 'Die Datei ist größer als 10 MB.'],
    ];
    for (const [file, status, message] of cases) {
      const res = await previewApi(file);
      expect(res.status, String(message)).toBe(status);
      expect(res.body).toMatchObject({ success: false, message });
    }
    expect((await request(t.app).post('/api/import/preview').set(await auth()).field('typ', 'einlieferungen')).body.message).toBe('Bitte wählen Sie eine Datei aus.');
    expect((await previewApi(example(), { typ: 'bestaende' })).status).toBe(400);
    expect((await request(t.app).post('/api/import/commit').set(await auth()).send({ token: 'kein-token' })).status).toBe(400);
    expect((await request(t.app).get('/api/import/00000000-0000-4000-8000-000000000000').set(await auth())).status).toBe(404);
  });

  it('reads XLSX: numbers and dates as the spreadsheet holds them, text through the code', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Ablieferungen');
    ws.addRow(HEADER.replace('Lieferschein', 'Belegnummer').replace('Entladedatum', 'Lieferdatum').replace('Lieferant', 'Kunde').split(';'));
    ws.addRow(['AX-1', new Date(Date.UTC(2025, 10, 3)), 'TP020', 1001, 'P001', 8000.5, 'Liter', 7, 'K-1', 'DAP', '', '']);
    ws.addRow(['AX-2', '04.11.2025', 'TP011', '1002', 'P009', '1.250,75', 'Kilogramm', '', '', '', '', 'als Text']);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await previewApi(file, { typ: 'ablieferungen' }, undefined, 'ablieferungen.xlsx');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.errors).toEqual([]);
    expect(res.body.data.counts).toEqual({ create: 2, update: 0, unchanged: 0, refused: 0 });
    await commitApi(res.body.data.token);
    const a = await delivery('AX-1', 'ablieferungen');
    expect([a.datum, Number(a.menge), a.einheit, a.standort_nr, a.manuelle_eingabe]).toEqual(['2025-11-03', 8000.5, 'L', '1001', false]);
    const b = await delivery('AX-2', 'ablieferungen');
    expect([b.datum, Number(b.menge), b.einheit, b.kommentar]).toEqual(['2025-11-04', 1250.75, 'kg', 'als Text']);
  });
});

describe('import codes', () => {
  const body = (name: string, code = CODE_DE) => ({ typ: 'einlieferungen', name, code });

  it('are saved per tenant and type, listed, used by id or name, and refused when faulty', async () => {
    const created = await request(t.app).post('/api/import/mappings').set(await auth()).send(body('ERP Nord'));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ typ: 'einlieferungen', name: 'ERP Nord', version: 1 });
    const list = await request(t.app).get('/api/import/mappings?typ=einlieferungen').set(await auth());
    expect(list.body).toMatchObject({ total: 1, data: [{ name: 'ERP Nord' }] });
    expect((await request(t.app).post('/api/import/mappings').set(await auth()).send(body('ERP Nord'))).status).toBe(409);
    expect((await request(t.app).post('/api/import/mappings').set(await auth()).send({ ...body('ERP Nord'), typ: 'ablieferungen', code: defaultCode('ablieferungen', 'de', []) })).status).toBe(201);
    const faulty = await request(t.app).post('/api/import/mappings').set(await auth()).send(body('Kaputt', 'nr = Spalte "A"\nentladedatum = Spalte "B" | datum XX'));
    expect(faulty.status).toBe(400);
    expect(faulty.body.errors[0]).toEqual({ field: 'code', message: 'Zeile 2: Ungültiges Datumsformat „XX“. Verwenden Sie TT, MM und JJJJ (oder JJ), z. B. TT.MM.JJJJ oder JJJJ-MM-TT.' });
    expect((await request(t.app).post('/api/import/mappings').set(await auth()).send({ typ: 'einlieferungen', name: '', code: 'x'.repeat(30_000) })).body.errors.map((e: { field: string }) => e.field)).toEqual(['name', 'code']);
    // By id and by name.
    expect((await previewApi(example(), { codeId: String(created.body.data.id) })).body.data.counts.unchanged).toBe(4);
    expect((await previewApi(example(), { name: 'ERP Nord' })).status).toBe(200);
    expect((await previewApi(example(), { name: 'Gibt es nicht' })).status).toBe(404);
  });

  it('refuse a save based on an old version (409) and change nothing', async () => {
    const { body: made } = await request(t.app).post('/api/import/mappings').set(await auth()).send(body('Versioniert'));
    const id = made.data.id;
    const first = await request(t.app).put(`/api/import/mappings/${id}`).set(await auth()).send({ name: 'Versioniert', code: `# geändert\n${CODE_DE}`, version: 1 });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.version).toBe(2);
    const stale = await request(t.app).put(`/api/import/mappings/${id}`).set(await auth()).send({ name: 'Versioniert', code: CODE_DE, version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, code: 'VERSION_CONFLICT' });
    const now = await request(t.app).get(`/api/import/mappings/${id}`).set(await auth());
    expect(now.body.data).toMatchObject({ version: 2, code: `# geändert\n${CODE_DE}` });
    expect((await request(t.app).put(`/api/import/mappings/${id}`).set(await auth()).send({ name: 'Versioniert', code: CODE_DE })).status).toBe(400);
    expect((await request(t.app).delete(`/api/import/mappings/${id}?version=1`).set(await auth())).status).toBe(409);
    expect((await request(t.app).delete(`/api/import/mappings/${id}?version=2`).set(await auth())).status).toBe(200);
    expect((await request(t.app).get(`/api/import/mappings/${id}`).set(await auth())).status).toBe(404);
    expect(await t.db.knex('audit_log').where({ kind: 'bewegungsdaten.importcode.update', entity_id: String(id) }).first()).toBeTruthy();
  });

  it("of another tenant are not found (404), and nothing of them changes", async () => {
    const nord = await request(t.app).post('/api/import/mappings').set(await auth('ADMIN', 'Admin12345', 'NORD')).send(body('Nord-Code'));
    expect(nord.status, nord.text).toBe(201);
    const id = nord.body.data.id;
    const before = await t.db.knex('import_mappings').where({ mandant: 'NORD', id }).first();
    const demo = await auth('ADMIN', 'Admin12345', 'DEMO');
    expect((await request(t.app).get(`/api/import/mappings/${id}`).set(demo)).status).toBe(404);
    expect((await request(t.app).put(`/api/import/mappings/${id}`).set(demo).send({ name: 'Übernommen', code: CODE_DE, version: 1 })).status).toBe(404);
    expect((await request(t.app).delete(`/api/import/mappings/${id}`).set(demo)).status).toBe(404);
    expect((await previewApi(example(), { codeId: String(id) }, demo)).status).toBe(404);
    expect((await request(t.app).get('/api/import/mappings').set(demo)).body.data.map((c: { name: string }) => c.name)).not.toContain('Nord-Code');
    expect(await t.db.knex('import_mappings').where({ mandant: 'NORD', id }).first()).toEqual(before);
    expect((await request(t.app).get('/api/import/mappings/abc').set(demo)).status).toBe(404);
  });
});

describe('permissions', () => {
  it('inbound needs 19 and outbound 20; without either the API answers 403 and the page sends to the dashboard', async () => {
    const inbound = await as('EINGANG');
    expect((await previewApi(example(), {}, inbound)).status).toBe(200);
    expect((await previewApi(example(), { typ: 'ablieferungen' }, inbound)).status).toBe(403);
    expect((await request(t.app).post('/api/import/mappings').set(inbound).send({ typ: 'ablieferungen', name: 'x', code: defaultCode('ablieferungen', 'de', []) })).status).toBe(403);
    expect((await request(t.app).get('/api/import/vorlage/ablieferungen').set(inbound)).status).toBe(403);
    expect((await request(t.app).get('/api/import/vorlage/einlieferungen').set(inbound)).text).toBe(exampleCsv('einlieferungen'));
    // Lists only the codes of the types the user may import.
    expect((await request(t.app).get('/api/import/mappings').set(inbound)).body.data.every((c: { typ: string }) => c.typ === 'einlieferungen')).toBe(true);
    const outbound = await as('AUSGANG');
    expect((await previewApi(example(), {}, outbound)).status).toBe(403);
    const ablieferung = await previewApi(Buffer.from(exampleCsv('ablieferungen')), { typ: 'ablieferungen' }, outbound);
    expect(ablieferung.status, ablieferung.text).toBe(200);
    expect(ablieferung.body.data.counts.create).toBe(3);
    // A staged inbound import cannot be committed by an outbound-only user.
    const staged = (await previewApi(Buffer.from(exampleCsv('einlieferungen').replace(/EL-2025/g, 'EP-2025')), {}, inbound)).body.data.token;
    expect((await commitApi(staged, outbound)).status).toBe(404); // someone else's staging
    for (const login of ['USER', 'LESER']) {
      const headers = await auth(login, `${login[0]}${login.slice(1).toLowerCase()}12345`);
      expect((await previewApi(example(), {}, headers)).status, login).toBe(403);
      expect((await request(t.app).get('/api/import/mappings').set(headers)).status, login).toBe(403);
    }
    expect((await request(t.app).get('/api/import/mappings').set(await as('ZERTIFIKATE'))).status).toBe(403);
  });

  it('a location-limited right imports at its locations only', async () => {
    const res = await previewApi(csv([HEADER, 'EH-1;03.11.2025;TP001;1001;P001;1.000;Liter;;;;;', 'EH-2;03.11.2025;TP001;1002;P001;1.000;Liter;;;;;']), {}, await as('HAMBURGIMPORT'));
    expect(res.body.data.counts).toMatchObject({ create: 1, refused: 1 });
    expect(res.body.data.errors).toEqual([{ row: 3, column: 'Standort', field: 'standortNr', message: 'Für diesen Standort haben Sie keine Berechtigung.' }]);
  });

  it('the page offers only the permitted types, and the sidebar shows the entry to those who may open it', async () => {
    const inbound = await signIn(t.app, 'EINGANG', PASSWORD);
    const page = await inbound.get('/de/bewegungsdaten/import');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Import-Code: Einlieferungen');
    expect(page.text).not.toContain('?typ=ablieferungen');
    expect((await inbound.get('/de/bewegungsdaten/import?typ=ablieferungen')).text).toContain('Import-Code: Einlieferungen');
    expect((await inbound.get('/de/bewegungsdaten/import/vorlage/ablieferungen')).status).toBe(403);
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const both = (await admin.get('/de/bewegungsdaten/import')).text;
    expect(both).toContain('?typ=einlieferungen');
    expect(both).toContain('?typ=ablieferungen');
    const user = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const res = await user.get('/de/bewegungsdaten/import');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/de/benutzer/dashboard');
    expect((await user.get('/de/benutzer/dashboard')).text).not.toContain('href="/de/bewegungsdaten/import"');
    // ZertifikatWrite (22) alone: the spec's sidebar shows the entry, and the page says what they may do (import
    // certificates elsewhere) instead of bouncing; importing deliveries stays refused.
    const zertifikate = await signIn(t.app, 'ZERTIFIKATE', PASSWORD, 'DEMO');
    expect((await zertifikate.get('/de/benutzer/dashboard')).text).toContain('href="/de/bewegungsdaten/import"');
    const page22 = await zertifikate.get('/de/bewegungsdaten/import');
    expect(page22.status).toBe(200);
    expect(page22.text).toContain('href="/de/bewegungsdaten/nachweise/import"');
    expect(page22.text).not.toContain('?typ=einlieferungen');
    expect((await zertifikate.get('/de/bewegungsdaten/import/vorlage/einlieferungen')).headers.location).toBe('/de/benutzer/dashboard');
    expect((await inbound.get('/de/benutzer/dashboard')).text).toContain('href="/de/bewegungsdaten/import"');
  });
});

describe('the pages without script', () => {
  const csrfOf = (html: string) => html.match(/name="_csrf" value="([^"]+)"/)![1];

  it('upload with the code as typed, see the rows as they would be stored, confirm, see the result', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/bewegungsdaten/import?typ=ablieferungen');
    expect(page.text).toContain('uomMenge');
    const file = Buffer.from(exampleCsv('ablieferungen').replace(/AL-2025/g, 'AP-2025'));
    const posted = await postMultipart(agent, multipartForm(page.text)).field('typ', 'ablieferungen').field('code', defaultCode('ablieferungen', 'de', [])).attach('file', file, 'ablieferungen.csv');
    expect(posted.status, posted.text.slice(0, 500)).toBe(302);
    const preview = await agent.get(posted.headers.location);
    expect(preview.text).toContain('Import Ablieferungen: Vorschau');
    expect(preview.text).toContain('AP-2025-0002');
    expect(preview.text).toContain('12.500,5'); // as stored, shown in German
    expect(preview.text).toContain('TP011 (Version');
    const confirmed = await agent.post(posted.headers.location).type('form').send({ _csrf: csrfOf(preview.text) });
    expect(confirmed.status).toBe(302);
    const result = await agent.get(posted.headers.location);
    expect(result.text).toContain('Der Import ist gespeichert.');
    expect(await count('ablieferungen', 'AP-2025-%')).toBe(3);
  });

  it('shows code errors by line and missing columns on the upload page (400), and saves a code through the form', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/bewegungsdaten/import');
    const faulty = await postMultipart(agent, multipartForm(page.text)).field('typ', 'einlieferungen').field('code', 'nr = Spalte "Lieferschein"\nentladedatum = Spalte "Datum" | datum TT.QQ').attach('file', example(), 'x.csv');
    expect(faulty.status).toBe(400);
    expect(faulty.text).toContain('Der Import-Code enthält Fehler.');
    expect(faulty.text).toContain('Zeile 2: Ungültiges Datumsformat „TT.QQ“');
    expect(faulty.text).toContain('entladedatum = Spalte &#34;Datum&#34; | datum TT.QQ'); // the text as typed stays
    const columns = await postMultipart(agent, multipartForm(page.text)).field('typ', 'einlieferungen').field('code', CODE_DE).attach('file', csv(['Lieferschein;Datum', 'A;1']), 'x.csv');
    expect(columns.status).toBe(400);
    expect(columns.text).toContain('Es fehlen: „Entladedatum“');
    expect(columns.text).toContain('Spalten der Datei: „Lieferschein“, „Datum“');

    const saved = await agent.post('/de/bewegungsdaten/import/codes').type('form').send({ _csrf: csrfOf(page.text), typ: 'einlieferungen', name: 'Aus dem Formular', code: CODE_DE });
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toMatch(/^\/de\/bewegungsdaten\/import\?typ=einlieferungen&code=\d+$/);
    const opened = await agent.get(saved.headers.location);
    expect(opened.text).toContain('value="Aus dem Formular"');
    const id = saved.headers.location.split('code=')[1];
    const stale = await agent.post('/de/bewegungsdaten/import/codes').type('form').send({ _csrf: csrfOf(opened.text), typ: 'einlieferungen', codeId: id, version: '7', name: 'Aus dem Formular', code: CODE_DE });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('Der Import-Code wurde inzwischen von jemand anderem gespeichert.');
    const taken = await agent.post('/de/bewegungsdaten/import/codes').type('form').send({ _csrf: csrfOf(opened.text), typ: 'einlieferungen', name: 'Aus dem Formular', code: CODE_DE });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('Einen Import-Code mit diesem Namen gibt es für Einlieferungen schon.');
    // Deleting asks first, naming the code; that step deletes nothing.
    const asked = await agent.post(`/de/bewegungsdaten/import/codes/${id}/delete`).type('form').send({ _csrf: csrfOf(opened.text), typ: 'einlieferungen', version: '1' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Importcode „Aus dem Formular“ löschen?');
    expect(asked.text).toContain(`href="/de/bewegungsdaten/import?typ=einlieferungen&amp;code=${id}"`);
    expect((await agent.get(saved.headers.location)).status).toBe(200);
    const deleted = await agent.post(`/de/bewegungsdaten/import/codes/${id}/delete`).type('form').send({ _csrf: csrfOf(asked.text), typ: 'einlieferungen', version: '1', bestaetigt: 'ja' });
    expect(deleted.status).toBe(302);
    expect((await agent.get(saved.headers.location)).status).toBe(404);
  });

  it('the example files in docs/ are the ones the page offers', () => {
    for (const typ of ['einlieferungen', 'ablieferungen'] as const) {
      expect(readFileSync(new URL(`../../../docs/import-beispiel-${typ}.csv`, import.meta.url), 'utf8')).toBe(exampleCsv(typ));
    }
  });
});
