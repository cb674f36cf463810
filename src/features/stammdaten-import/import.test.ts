import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { createUserWithRoles } from '../../testing/users.js';
import { csrfFrom, multipartForm, postMultipart, signIn, type Agent } from '../../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A user who may edit products only (and so may open the import), and one whose location right covers 1001 only.
  await createUser('PRODUKTE', [{ typ: 2, standortNr: null }]);
  await createUser('HAMBURG', [{ typ: 3, standortNr: null }, { typ: 4, standortNr: '1001' }]);
});
afterAll(() => t.close());

const PASSWORD = 'Import12345';

const createUser = (login: string, rollen: { typ: number; standortNr: string | null }[]) => createUserWithRoles(t.db.knex, login, PASSWORD, rollen);

const tokens = new Map<string, string>();
async function auth(login = 'TADMIN', password = 'Tadmin12345', mandant = 'DEMO') {
  if (!tokens.has(login)) tokens.set(login, (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token);
  return { Authorization: tokens.get(login)!, 'X-Mandant': mandant };
}

const csv = (lines: string[], sep = ';') => Buffer.from(lines.map((l) => l.replace(/\|/g, sep)).join('\r\n') + '\r\n');

async function previewApi(file: Buffer, name = 'import.csv', entity = 'standorte', headers?: Record<string, string>) {
  return request(t.app).post(`/api/stammdaten-import/${entity}/preview`).set(headers ?? (await auth())).attach('file', file, name);
}

async function commitApi(token: string, entity = 'standorte', headers?: Record<string, string>) {
  return request(t.app).post(`/api/stammdaten-import/${entity}/commit`).set(headers ?? (await auth())).send({ token });
}

const count = async (table: string, where: Record<string, unknown> = {}) =>
  Number((await t.db.knex(table).where({ mandant: 'DEMO', ...where }).count<{ c: string }[]>({ c: '*' }).first())!.c);

/** The upload form as a browser posts it: to its action (no token in it), the CSRF token its first field. */
async function uploadForm(agent: Agent, lang = 'de') {
  const page = await agent.get(`/${lang}/stammdaten/import`);
  expect(page.status).toBe(200);
  return multipartForm(page.text);
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#34;|&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ');

describe('Stammdaten-Import', () => {
  it('shows every error of a faulty file in words (row, column, message) and commits nothing', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const file = csv([
      'Nummer|Name|PLZ|Ort',
      '5001|Tanklager Kiel|24103|Kiel',
      `5002|Depot Lübeck|${'9'.repeat(25)}|Lübeck`,
      '5003||23552|Lübeck',
      '5001|Doppelt|24103|Kiel',
      'a b|Falsche Nummer||',
    ]);
    const versionsBefore = await count('standorte_versionen');
    const up = await postMultipart(agent, await uploadForm(agent)).field('entity', 'standorte').attach('file', file, 'fehler.csv');
    expect(up.status).toBe(302);
    const preview = await agent.get(up.headers.location);
    const words = text(preview.text);
    expect(words).toContain('Zeile 3, Spalte „PLZ“: Zu lang');
    expect(words).toContain('Zeile 4, Spalte „Name“: Pflichtfeld');
    expect(words).toContain('Zeile 5, Spalte „Nummer“: Die Nummer 5001 steht schon in Zeile 2.');
    expect(words).toContain('Zeile 6, Spalte „Nummer“: Nur Buchstaben, Ziffern, Punkt, Binde- und Unterstrich');
    expect(words).toContain('4 Zeilen sind fehlerhaft. Es wird nichts gespeichert.');
    // No confirmation form, and the server refuses a confirmation posted anyway.
    expect(preview.text).not.toContain(`action="${up.headers.location}"`);
    const forced = await agent.post(up.headers.location).type('form').send({ _csrf: csrfFrom(preview.text) });
    expect(forced.headers.location).toBe(up.headers.location);
    expect(text((await agent.get(up.headers.location)).text)).toContain('Der Import enthält fehlerhafte Zeilen und kann nicht gespeichert werden.');
    expect(await count('standorte', { nr: '5001' })).toBe(0);
    expect(await count('standorte_versionen')).toBe(versionsBefore);

    // The API says the same, and refuses the commit.
    const api = await previewApi(file);
    expect(api.status).toBe(200);
    expect(api.body.data.counts).toEqual({ create: 1, update: 0, unchanged: 0, refused: 4 });
    expect(api.body.data.errors).toContainEqual({ row: 3, column: 'PLZ', message: 'Zu lang' });
    expect(api.body.data.errors).toContainEqual({ row: 4, column: 'Name', message: 'Pflichtfeld' });
    const commit = await commitApi(api.body.data.token);
    expect(commit.status).toBe(400);
    expect(commit.body.code).toBe('IMPORT_REFUSED');
    expect(await count('standorte', { nr: '5001' })).toBe(0);
  });

  it('creates and updates a good file in one go with new versions; the same file again changes nothing', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const file = csv([
      'Nummer|Name|Straße|Hausnummer|PLZ|Ort|Kennzeichen|Quotenverpflichtet',
      '6001|Tanklager Rostock|Seehafen|3|18147|Rostock|HRO|ja',
      '6002|Depot Stralsund|||18439|Stralsund||nein',
      '1002|Depot Hannover-Linden Süd|Hafenstraße|8|30453|Hannover||ja',
      '1003|Tankstelle Bremen-Vegesack|Weserstraße|141|28757|Bremen|HB|nein',
    ]);
    const versions1003 = await count('standorte_versionen', { nr: '1003' });
    const up = await postMultipart(agent, await uploadForm(agent)).field('entity', 'standorte').attach('file', file, 'standorte.csv');
    const preview = await agent.get(up.headers.location);
    const words = text(preview.text);
    expect(words).toContain('Name: Depot Hannover-Linden → Depot Hannover-Linden Süd');
    expect(words).toContain('Kennzeichen: H → (leer)');
    expect(words).toMatch(/Neu 2 Neue Version 1 Unverändert 1 Abgelehnt 0/);
    expect(await count('standorte', { nr: '6001' })).toBe(0); // nothing stored by the preview

    const confirmed = await agent.post(up.headers.location).type('form').send({ _csrf: csrfFrom(preview.text) });
    expect(confirmed.headers.location).toBe(up.headers.location);
    const result = text((await agent.get(up.headers.location)).text);
    expect(result).toContain('Der Import ist gespeichert.');
    expect(result).toContain('2 angelegt, 1 mit neuer Version, 1 unverändert, 0 abgelehnt.');

    const rostock = await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '6001' }).first();
    expect(rostock).toMatchObject({ name: 'Tanklager Rostock', strasse: 'Seehafen', haus_nr: '3', code: 'HRO', quota: true, version: 1 });
    const hannover = await t.db.knex('standorte_versionen').where({ mandant: 'DEMO', nr: '1002' }).orderBy('version', 'desc').first();
    expect(hannover.version).toBe((await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '1002' }).first('version')).version);
    expect(hannover.version).toBeGreaterThan(1);
    const changes = typeof hannover.changes === 'string' ? JSON.parse(hannover.changes) : hannover.changes;
    expect(changes).toEqual([
      { field: 'name', before: 'Depot Hannover-Linden', after: 'Depot Hannover-Linden Süd' },
      { field: 'code', before: 'H', after: null },
    ]);
    expect(await count('standorte_versionen', { nr: '1003' })).toBe(versions1003); // unchanged: left alone
    const entry = await t.db.knex('audit_log').where({ kind: 'stammdaten.import', mandant: 'DEMO' }).orderBy('id', 'desc').first();
    const after = typeof entry.after === 'string' ? JSON.parse(entry.after) : entry.after;
    expect(after).toMatchObject({ create: 2, update: 1, unchanged: 1, refused: 0 });

    // A second confirmation of the same import is refused; the same file again changes nothing.
    const again = await agent.post(up.headers.location).type('form').send({ _csrf: csrfFrom(preview.text) });
    expect(again.headers.location).toBe(up.headers.location);
    const versions = await count('standorte_versionen');
    const second = await previewApi(file);
    expect(second.body.data.counts).toEqual({ create: 0, update: 0, unchanged: 4, refused: 0 });
    const commit = await commitApi(second.body.data.token);
    expect(commit.body.data.counts).toEqual({ create: 0, update: 0, unchanged: 4, refused: 0 });
    expect(await count('standorte_versionen')).toBe(versions);
    expect((await commitApi(second.body.data.token)).status).toBe(409);
  });

  it('refuses wrong headers, an empty file, a file that is no spreadsheet and a file over 10 MB, and stages nothing', async () => {
    const staged = await count('import_staging');
    const headers = await previewApi(csv(['Nummer|Nme|Farbe', '7001|X|rot']));
    expect(headers.status).toBe(400);
    expect(headers.body.message).toBe('Die Spaltenüberschriften passen nicht zu Standorte.');
    expect(headers.body.errors).toEqual([
      { field: 'Nme', message: 'unbekannte Spalte' },
      { field: 'Farbe', message: 'unbekannte Spalte' },
      { field: 'Name', message: 'Pflichtspalte fehlt' },
    ]);
    const empty = await previewApi(Buffer.alloc(0));
    expect([empty.status, empty.body.message]).toEqual([400, 'Die Datei ist leer.']);
    const bomOnly = await previewApi(Buffer.from('\ufeff\r\n'));
    expect(bomOnly.body.message).toBe('Die Datei ist leer.');
    const headerOnly = await previewApi(csv(['Nummer|Name']));
    expect(headerOnly.body.message).toBe('Die Datei enthält nur die Überschriftenzeile, aber keine Daten.');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from('IHDR')]);
    const notCsv = await previewApi(png, 'bild.csv');
    expect([notCsv.status, notCsv.body.message]).toEqual([400, 'Die Datei ist weder eine CSV- noch eine XLSX-Datei.']);
    const brokenXlsx = await previewApi(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]), 'kaputt.xlsx');
    expect(brokenXlsx.body.message).toBe('Die XLSX-Datei lässt sich nicht lesen. Bitte speichern Sie sie erneut als .xlsx oder als CSV.');
    const quotes = await previewApi(csv(['Nummer|Name', '7002|"offen', '7003|x"y"z']));
    expect(quotes.status).toBe(400);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'a');
    const tooBig = await previewApi(big, 'gross.csv');
    expect([tooBig.status, tooBig.body.message]).toEqual([413, 'Die Datei ist größer als 10 MB.']);
    const noFile = await request(t.app).post('/api/stammdaten-import/standorte/preview').set(await auth()).field('x', '1');
    expect([noFile.status, noFile.body.message]).toEqual([400, 'Bitte wählen Sie eine Datei aus.']);
    expect(await count('import_staging')).toBe(staged);

    // The page names the wrong columns and what it expects, and keeps the user on the upload form.
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await postMultipart(agent, await uploadForm(agent)).field('entity', 'standorte').attach('file', csv(['Nr|Nme', '1|x']), 'falsch.csv');
    expect(page.status).toBe(400);
    const words = text(page.text);
    expect(words).toContain('„Nme“: unbekannte Spalte');
    expect(words).toContain('„Name“: Pflichtspalte fehlt');
    expect(words).toContain('Erwartete Spalten: Nummer, Name, Kennzeichen, Straße');
    const large = await postMultipart(agent, await uploadForm(agent)).field('entity', 'standorte').attach('file', big, 'gross.csv');
    expect(large.status).toBe(413);
    expect(text(large.text)).toContain('Die Datei ist größer als 10 MB.');
    const english = await postMultipart(agent, await uploadForm(agent, 'en')).field('entity', 'standorte').attach('file', csv(['Number|Nme', '1|x']), 'wrong.csv');
    expect(text(english.text)).toContain('The column headers do not match Locations. “Nme”: unknown column');
    const none = await postMultipart(agent, await uploadForm(agent)).field('entity', 'standorte');
    expect(text(none.text)).toContain('Bitte wählen Sie eine Datei aus.');
    expect(await count('import_staging')).toBe(staged);
  });

  it('reads CSV as spreadsheets write it: comma or semicolon, BOM, Windows-1252, quotes, field names as headers', async () => {
    const comma = await previewApi(Buffer.from('\ufeffnr,NAME,haus nr,Stadt\r\n7101,"Lager ""Nord"", Halle 2",7a,Husum\r\n'));
    expect(comma.body.data.counts.create).toBe(1);
    expect((await commitApi(comma.body.data.token)).status).toBe(200);
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '7101' }).first('name', 'haus_nr', 'stadt')).toEqual({ name: 'Lager "Nord", Halle 2', haus_nr: '7a', stadt: 'Husum' });
    const latin = Buffer.concat([Buffer.from('Nummer;Name;Ort\n7102;'), Buffer.from([0x44, 0xfc, 0x6e, 0x65]), Buffer.from(';L'), Buffer.from([0xfc]), Buffer.from('beck\n')]);
    const res = await previewApi(latin);
    await commitApi(res.body.data.token);
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '7102' }).first('name', 'stadt')).toEqual({ name: 'Düne', stadt: 'Lübeck' });
  });

  it('lets only users with the entity\'s edit right import it; an unknown entity is 404', async () => {
    const produkte = await auth('PRODUKTE', PASSWORD);
    expect((await previewApi(csv(['Nummer|Name', '8001|x']), 'a.csv', 'standorte', produkte)).status).toBe(403);
    expect((await request(t.app).get('/api/stammdaten-import/standorte/template').set(produkte)).status).toBe(403);
    expect((await request(t.app).get('/api/stammdaten-import/produkte/template').set(produkte)).status).toBe(200);
    expect((await request(t.app).get('/api/stammdaten-import/gibtsnicht/template').set(produkte)).status).toBe(404);
    const user = await auth('USER', 'User12345');
    expect((await previewApi(csv(['Nummer|Name', '8001|x']), 'a.csv', 'standorte', user)).status).toBe(403);
    expect(await count('standorte', { nr: '8001' })).toBe(0);

    const agent = await signIn(t.app, 'PRODUKTE', PASSWORD);
    const page = await agent.get('/de/stammdaten/import');
    expect(page.text).toContain('value="produkte"');
    expect(page.text).not.toContain('value="standorte"');
    const post = await postMultipart(agent, await uploadForm(agent)).field('entity', 'standorte').attach('file', csv(['Nummer|Name', '8001|x']), 'a.csv');
    expect(post.headers.location).toBe('/de/stammdaten/import');
    expect(await count('standorte', { nr: '8001' })).toBe(0);
    const leser = await signIn(t.app, 'LESER', 'Leser12345');
    expect((await leser.get('/de/stammdaten/import')).headers.location).toBe('/de/benutzer/dashboard');
  });

  it('refuses rows of locations outside a limited user\'s right', async () => {
    const hamburg = await auth('HAMBURG', PASSWORD);
    const res = await previewApi(csv(['Nummer|Name', '1001|Tanklager Hamburg-Waltershof Nord', '1002|Depot Hannover', '1099|Neu']), 'a.csv', 'standorte', hamburg);
    expect(res.body.data.counts).toEqual({ create: 0, update: 1, unchanged: 0, refused: 2 });
    expect(res.body.data.errors).toEqual([
      { row: 3, column: 'Nummer', message: 'Für diesen Standort haben Sie keine Berechtigung.' },
      { row: 4, column: 'Nummer', message: 'Für diesen Standort haben Sie keine Berechtigung.' },
    ]);
    expect((await commitApi(res.body.data.token, 'standorte', hamburg)).status).toBe(400);
    expect((await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '1002' }).first('name')).name).not.toBe('Depot Hannover');
    const own = await previewApi(csv(['Nummer|Name', '1001|Tanklager Hamburg-Waltershof Nord']), 'a.csv', 'standorte', hamburg);
    expect((await commitApi(own.body.data.token, 'standorte', hamburg)).body.data.counts.update).toBe(1);
  });

  it('takes German and English decimals and choices by value or label (Produkte)', async () => {
    const file = csv([
      'Nummer|Name|Produktgruppe|Biogehalt (%)|Heizwert (LCV)|Einheit des Heizwerts',
      'P-10|B7 Diesel|diesel|6,5|35,9|MJ/L',
      'P-11|FAME|Biodiesel (FAME)|100|37.2|MJ/kg',
      'P-12|E10|benzin|1.234,5||MJ/L',
      'P-13|HVO|HVO|zwölf||MJ/L',
    ]);
    const res = await previewApi(file, 'produkte.csv', 'produkte');
    expect(res.body.data.errors).toEqual([
      { row: 4, column: 'Biogehalt (%)', message: 'Erlaubt sind Werte von 0 bis 100' },
      { row: 5, column: 'Biogehalt (%)', message: 'Keine gültige Zahl (z. B. 12,5 oder 12.5)' },
    ]);
    const good = await previewApi(csv(file.toString().trim().split('\r\n').slice(0, 3)), 'produkte.csv', 'produkte');
    expect((await commitApi(good.body.data.token, 'produkte')).body.data.counts.create).toBe(2);
    const rows = await t.db.knex('produkte').where({ mandant: 'DEMO' }).whereIn('nr', ['P-10', 'P-11']).orderBy('nr').select('nr', 'produktgruppe', 'biogehalt', 'lcv', 'lcv_einheit');
    expect(rows.map((r) => [r.nr, r.produktgruppe, Number(r.biogehalt), Number(r.lcv), r.lcv_einheit])).toEqual([
      ['P-10', 'diesel', 6.5, 35.9, 'MJ/L'],
      ['P-11', 'biodiesel', 100, 37.2, 'MJ/kg'],
    ]);
    // The English template speaks English with commas; field names work as headers too.
    const en = await request(t.app).get('/api/stammdaten-import/produkte/template').set({ ...(await auth()), 'Accept-Language': 'en' });
    expect(en.text.startsWith('\ufeffNumber,Name,Product group,')).toBe(true);
    const english = await previewApi(Buffer.from('nr,name,produktgruppe,biogehalt,lcv,lcvEinheit\r\nP-20,B7,Diesel,"1,234.5",35.9,MJ/L\r\nP-21,B7,Diesel,6.5,"35,9",MJ/L\r\n'), 'en.csv', 'produkte');
    expect(english.body.data.errors).toEqual([{ row: 2, column: 'biogehalt', message: 'Erlaubt sind Werte von 0 bis 100' }]);
    expect(english.body.data.counts).toEqual({ create: 1, update: 0, unchanged: 0, refused: 1 });
  });

  it('reads the first worksheet of an XLSX file, numbers and formulas by their values', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Standorte');
    sheet.addRow(['Nummer', 'Name', 'PLZ', 'Quotenverpflichtet']);
    sheet.addRow([9001, 'Tanklager Emden', 26723, true]);
    sheet.addRow(['9002', { richText: [{ text: 'Depot ' }, { text: 'Leer', font: { bold: true } }] }, { formula: '26780+9', result: 26789 }, 'x']);
    sheet.addRow([]);
    sheet.addRow(['9003', '', '', '']);
    const res = await previewApi(Buffer.from(await workbook.xlsx.writeBuffer()), 'standorte.xlsx');
    expect(res.body.data.counts).toEqual({ create: 2, update: 0, unchanged: 0, refused: 1 });
    expect(res.body.data.errors).toEqual([{ row: 5, column: 'Name', message: 'Pflichtfeld' }]);
    const fixed = new ExcelJS.Workbook();
    fixed.addWorksheet('A').addRows([['Nummer', 'Name', 'PLZ', 'Quotenverpflichtet'], [9001, 'Tanklager Emden', 26723, true], ['9002', 'Depot Leer', { formula: '26780+9', result: 26789 }, 'x']]);
    const ok = await previewApi(Buffer.from(await fixed.xlsx.writeBuffer()), 'standorte.xlsx');
    await commitApi(ok.body.data.token);
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO' }).whereIn('nr', ['9001', '9002']).orderBy('nr').select('nr', 'plz', 'quota')).toEqual([
      { nr: '9001', plz: '26723', quota: true },
      { nr: '9002', plz: '26789', quota: true },
    ]);
  });

  it('stores formula-like text as text; the list export neutralises it', async () => {
    const res = await previewApi(csv(['Nummer|Name|Ort', '9101|=SUM(A1)|+49 Hamburg']));
    await commitApi(res.body.data.token);
    expect(await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '9101' }).first('name', 'stadt')).toEqual({ name: '=SUM(A1)', stadt: '+49 Hamburg' });
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const exported = await agent.get('/de/stammdaten/standorte?q=9101&format=csv');
    expect(exported.text).toContain("9101;'=SUM(A1);;'+49 Hamburg");
  });

  it('finds an import only for its owner, in its tenant, for an hour', async () => {
    const res = await previewApi(csv(['Nummer|Name', '9201|Eins']));
    const token = res.body.data.token;
    expect((await commitApi(token, 'standorte', await auth('ADMIN', 'Admin12345', 'NORD'))).status).toBe(404);
    expect((await commitApi(token, 'standorte', await auth('ADMIN', 'Admin12345', 'DEMO'))).status).toBe(404);
    expect((await commitApi(token, 'produkte')).status).toBe(404);
    expect((await commitApi('kein-token')).status).toBe(400);
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    expect((await agent.get(`/de/stammdaten/import/${token}`)).status).toBe(404);
    expect((await agent.get('/de/stammdaten/import/kein-token')).status).toBe(404);
    await t.db.knex('import_staging').where({ id: token }).update({ created_at: t.db.knex.raw("now() - interval '61 minutes'") });
    expect((await commitApi(token)).status).toBe(404);
    expect(await count('standorte', { nr: '9201' })).toBe(0);
  });

  it('imports the example files of docs/ without an error', async () => {
    for (const entity of ['standorte', 'produkte']) {
      const res = await previewApi(readFileSync(new URL(`../../../docs/import-beispiel-${entity}.csv`, import.meta.url)), `${entity}.csv`, entity);
      expect(res.body.data.errors).toEqual([]);
      expect(res.body.data.counts.create).toBeGreaterThan(2);
    }
  });

  it('imports 50,000 locations in chunks while other requests are still answered', async () => {
    const lines = ['Nummer;Name;PLZ;Ort;Quotenverpflichtet'];
    for (let i = 0; i < 50_000; i++) lines.push(`M${String(i).padStart(6, '0')};Standort ${i};${String(10000 + (i % 89999))};Ort ${i % 500};${i % 2 ? 'ja' : 'nein'}`);
    const file = Buffer.from(lines.join('\n'));
    const headers = await auth();

    // Health checks every 50 ms while the preview runs: they must be answered during it, not only after it.
    async function whileRunning<T>(work: Promise<T>) {
      let done = false;
      const answered: number[] = [];
      const poll = (async () => {
        while (!done) {
          const started = Date.now();
          const res = await request(t.app).get('/healthz');
          if (!done && res.status === 200) answered.push(Date.now() - started);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const result = await work.finally(() => { done = true; });
      await poll;
      return { result, answered };
    }

    const started = Date.now();
    const { result: preview, answered } = await whileRunning(previewApi(file, 'gross.csv', 'standorte', headers));
    const previewMs = Date.now() - started;
    expect(preview.status).toBe(200);
    expect(preview.body.data.counts).toEqual({ create: 50_000, update: 0, unchanged: 0, refused: 0 });
    expect(preview.body.data.rows).toHaveLength(200);
    expect(answered.length).toBeGreaterThan(3);

    // The commit is one transaction: on PGlite (one connection) health checks wait for it, on PostgreSQL they
    // take another connection. Either way the event loop stays free between batches.
    const commitStarted = Date.now();
    const { result: commit, answered: duringCommit } = await whileRunning(commitApi(preview.body.data.token, 'standorte', headers));
    const commitMs = Date.now() - commitStarted;
    expect(commit.body.data.counts).toEqual({ create: 50_000, update: 0, unchanged: 0, refused: 0 });
    expect(await count('standorte', {})).toBeGreaterThanOrEqual(50_000);
    expect(await count('standorte_versionen', { version: 1 })).toBeGreaterThanOrEqual(50_000);
    console.info(`50,000 rows: preview ${previewMs} ms (health checks answered: ${answered.length}, slowest ${Math.max(...answered)} ms), commit ${commitMs} ms (health checks answered during it: ${duringCommit.length})`);
  }, 120_000);
});
