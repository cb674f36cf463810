// The certificate import through the real app and database: template, preview with row errors and warnings,
// all or nothing, the same figures as a certificate entered through the API, locations and rights.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, multipartForm, postMultipart, signIn, type Agent } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
const PASSWORD = 'Zertifikat12345';

beforeAll(async () => {
  t = await createTestApp();
  // Certificates: one user who may edit them everywhere, one at Hamburg (1001) only, one who may only read them.
  await createUserWithRoles(t.db.knex, 'ZIMPORT', PASSWORD, [{ typ: 22, standortNr: null }]);
  await createUserWithRoles(t.db.knex, 'ZHAMBURG', PASSWORD, [{ typ: 22, standortNr: '1001' }]);
  await createUserWithRoles(t.db.knex, 'ZLESER', PASSWORD, [{ typ: 21, standortNr: null }]);
});
afterAll(() => t.close());

const tokens = new Map<string, string>();
async function auth(login = 'ZIMPORT', password = PASSWORD, mandant = 'DEMO') {
  if (!tokens.has(login)) tokens.set(login, (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token);
  return { Authorization: tokens.get(login)!, 'X-Mandant': mandant };
}

/** The German headers of the columns these tests use (the template has them all). */
const DE: Record<string, string> = {
  nr: 'Nummer', ausstellungsdatum: 'Ausstellungsdatum', zeitraumVon: 'Zeitraum von', zeitraumBis: 'Zeitraum bis', zertifizierungssystem: 'Zertifizierungssystem',
  standortNr: 'Standort', produktNr: 'Produkt', menge: 'Menge', einheit: 'Einheit', lieferungVon: 'Lieferung von', lieferungBis: 'Lieferung bis',
  rohstoff: 'Rohstoff', herkunftsland: 'Herkunftsland', abfall: 'Abfall oder Reststoff', nachhaltig: 'Nachhaltig (erfüllt die Nachhaltigkeitskriterien)',
  anlageInbetriebnahme: 'Inbetriebnahme der Anlage', eec: 'Eec – Anbau', el: 'El – Landnutzungsänderung', ep: 'Ep – Verarbeitung',
  etd: 'Etd – Transport und Vertrieb', eu: 'Eu – Nutzung des Kraftstoffs', esca: 'Esca – Bodenkohlenstoff', eccs: 'Eccs – CO₂-Abscheidung und -Speicherung',
  eccr: 'Eccr – CO₂-Abscheidung und -Ersetzung', gesamtStandardwert: 'Gesamtwert (Standardwert nach RED II)', lieferant: 'Lieferant',
};

let seq = 0;
/** The worked example as a file row: 10,000 L FAME (P013) at Hamburg from used cooking oil, E = 10 from its parts. */
const zeile = (over: Record<string, string> = {}): Record<string, string> => ({
  nr: `T-IMP-${++seq}`, ausstellungsdatum: '02.03.2026', zeitraumVon: '01.01.2026', zeitraumBis: '31.03.2026', zertifizierungssystem: 'ISCC EU',
  standortNr: '1001', produktNr: 'P013', menge: '10000', einheit: 'L', lieferungVon: '01.02.2026', lieferungBis: '15.02.2026',
  rohstoff: 'Altspeiseöl (UCO)', herkunftsland: 'DE', abfall: 'ja', nachhaltig: 'ja', anlageInbetriebnahme: '01.05.2019',
  eec: '0', el: '0', ep: '6,5', etd: '3,5', eu: '0', esca: '0', eccs: '0', eccr: '0', gesamtStandardwert: '10', lieferant: 'Ölmühle Nord GmbH',
  ...over,
});

const quote = (v: string) => (/[;"\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/** A German CSV (`;`) of rows, headed by the labels of `headers`. */
const csv = (rows: Record<string, string>[], headers: Record<string, string> = DE) =>
  Buffer.from(`${[Object.keys(headers).map((k) => headers[k]).join(';'), ...rows.map((r) => Object.keys(headers).map((k) => quote(r[k] ?? '')).join(';'))].join('\r\n')}\r\n`);

const previewApi = async (file: Buffer, headers?: Record<string, string>, name = 'zertifikate.csv') =>
  request(t.app).post('/api/nachweise/import/preview').set(headers ?? (await auth())).attach('file', file, name);
const commitApi = async (token: string, headers?: Record<string, string>) =>
  request(t.app).post('/api/nachweise/import/commit').set(headers ?? (await auth())).send({ token });

const stored = (nr: string, mandant = 'DEMO') => t.db.knex('nachweise').where({ mandant, nr }).first();
const count = async (mandant = 'DEMO') => Number((await t.db.knex('nachweise').where({ mandant }).count({ c: '*' }))[0].c);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#34;|&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const codes = (hinweise: unknown) => json<{ code: string }[]>(hinweise).map((h) => h.code).sort();

/** The upload form as a browser posts it: to its action (no token in it), the CSRF token its first field. */
async function uploadForm(agent: Agent, lang = 'de') {
  const page = await agent.get(`/${lang}/bewegungsdaten/nachweise/import`);
  expect(page.status).toBe(200);
  return multipartForm(page.text);
}

describe('Zertifikate importieren', () => {
  it('offers the template as CSV (German with semicolons, English with commas) and XLSX, with every importable field', async () => {
    const de = await request(t.app).get('/api/nachweise/import/vorlage').set(await auth());
    expect(de.status).toBe(200);
    expect(de.headers['content-type']).toContain('text/csv');
    expect(de.headers['content-disposition']).toContain('import-vorlage-nachweise.csv');
    const header = de.text.replace(/\r\n$/, '');
    expect(header.startsWith('\ufeffNummer;Ausstellungsdatum;Zertifizierungssystem;')).toBe(true);
    const columns = header.slice(1).split(';');
    expect(columns).toContain('Inbetriebnahme der Anlage');
    expect(columns).toContain('Ep – Verarbeitung');
    expect(columns).toContain('Empfangsort');
    expect(columns).not.toContain('Datei (PDF oder Scan)'); // the file is uploaded on the certificate's page
    expect(columns).not.toContain('Einsparung (%)'); // computed, not imported
    expect(columns).toHaveLength(45);

    const en = await request(t.app).get('/api/nachweise/import/vorlage?format=csv').set({ ...(await auth()), 'Accept-Language': 'en' });
    expect(en.text.startsWith('\ufeffNumber,Date of issue,Certification system,')).toBe(true);

    const xlsx = await request(t.app).get('/api/nachweise/import/vorlage?format=xlsx').set(await auth()).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.body as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('Zertifikate');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(columns);
    expect((await request(t.app).get('/api/nachweise/import/vorlage?format=pdf').set(await auth())).status).toBe(400);

    // The page offers both, in the page's language.
    const agent = await signIn(t.app, 'ZIMPORT', PASSWORD);
    const page = await agent.get('/de/bewegungsdaten/nachweise/import');
    expect(page.text).toContain('href="/de/bewegungsdaten/nachweise/import/vorlage?format=csv"');
    expect(page.text).toContain('href="/de/bewegungsdaten/nachweise/import/vorlage?format=xlsx"');
    expect(text(page.text)).toContain('Zertifikate importieren');
    const fromPage = await agent.get('/en/bewegungsdaten/nachweise/import/vorlage?format=csv');
    expect(fromPage.text.startsWith('\ufeffNumber,Date of issue,')).toBe(true);
  });

  it('imports a good file through the pages with the same figures as the API computes, audited, and leaves the same file alone', async () => {
    const api = await request(t.app).post('/api/nachweise').set(await auth()).send({
      nr: 'T-IMP-API', ausstellungsdatum: '2026-03-02', zeitraumVon: '2026-01-01', zeitraumBis: '2026-03-31', zertifizierungssystem: 'ISCC EU', schema: 'massenbilanz',
      redIIKonform: true, standortNr: '1001', produktNr: 'P013', menge: '10000', einheit: 'L', lieferungVon: '2026-02-01', lieferungBis: '2026-02-15',
      rohstoff: 'altspeiseoel', herkunftsland: 'DE', abfall: true, nachhaltig: true, anlageInbetriebnahme: '2019-05-01',
      eec: '0', el: '0', ep: '6.5', etd: '3.5', eu: '0', esca: '0', eccs: '0', eccr: '0', gesamtStandardwert: '10', lieferant: 'Ölmühle Nord GmbH',
    });
    expect(api.status).toBe(201);

    const agent = await signIn(t.app, 'ZIMPORT', PASSWORD);
    // The list links to the import next to "Neues Zertifikat".
    const list = await agent.get('/de/bewegungsdaten/nachweise');
    expect(list.text).toContain('href="/de/bewegungsdaten/nachweise/import"');
    expect(text(list.text)).toContain('Importieren');
    expect(text(list.text)).toContain('Neu anlegen');

    const file = csv([zeile({ nr: 'T-IMP-GUT-1' }), zeile({ nr: 'T-IMP-GUT-2', standortNr: '1002', menge: '5000' })]);
    const up = await postMultipart(agent, await uploadForm(agent)).attach('file', file, 'zertifikate.csv');
    expect(up.status).toBe(302);
    expect(up.headers.location).toMatch(/^\/de\/bewegungsdaten\/nachweise\/import\/[0-9a-f-]{36}$/);
    const preview = await agent.get(up.headers.location);
    const words = text(preview.text);
    expect(words).toMatch(/Neu 2 Neue Version 0 Unverändert 0 Abgelehnt 0/);
    expect(words).toContain('Import bestätigen');
    expect(words).toContain('89,36'); // the saving, as it would be stored
    expect(await stored('T-IMP-GUT-1')).toBeUndefined(); // nothing stored by the preview

    const confirmed = await agent.post(up.headers.location).type('form').send({ _csrf: csrfFrom(preview.text) });
    expect(confirmed.headers.location).toBe(up.headers.location);
    const result = text((await agent.get(up.headers.location)).text);
    expect(result).toContain('Der Import ist gespeichert.');
    expect(result).toContain('2 angelegt, 0 mit neuer Version, 0 unverändert, 0 abgelehnt.');

    const row = await stored('T-IMP-GUT-1');
    const byApi = await stored('T-IMP-API');
    expect(row).toMatchObject({ standort_nr: '1001', produkt_nr: 'P013', produktgruppe: 'biodiesel', rohstoff: 'altspeiseoel', herkunftsland: 'DE', abfall: true, nachhaltig: true, storniert: false, version: 1 });
    expect(Number(row.einsparung)).toBe(89.36);
    expect(Number(row.thg_minderung_t)).toBe(27.753);
    for (const column of ['thg', 'einsparung', 'schwelle', 'energiegehalt', 'thg_minderung_t', 'vergleichswert', 'basiswert', 'lcv', 'menge', 'menge_verbleibend']) {
      expect(Number(row[column]), column).toBe(Number(byApi[column]));
    }
    expect(json(row.hinweise)).toEqual([]);
    expect(Number((await stored('T-IMP-GUT-2')).thg_minderung_t)).toBe(13.8765); // half the quantity: 165,000 MJ

    const entry = await t.db.knex('audit_log').where({ kind: 'bewegungsdaten.import', mandant: 'DEMO', entity: 'nachweise' }).orderBy('id', 'desc').first();
    expect(json(entry.after)).toMatchObject({ create: 2, update: 0, unchanged: 0, refused: 0, datei: 'zertifikate.csv' });
    expect(await t.db.knex('audit_log').where({ kind: 'bewegungsdaten.nachweise.create', entity_id: 'T-IMP-GUT-1' }).first()).toBeTruthy();

    // The same file again: nothing to do, nothing written.
    const again = await previewApi(file);
    expect(again.body.data.counts).toEqual({ create: 0, update: 0, unchanged: 2, refused: 0 });
    expect((await commitApi(again.body.data.token)).body.data.counts).toEqual({ create: 0, update: 0, unchanged: 2, refused: 0 });
    expect((await stored('T-IMP-GUT-1')).version).toBe(1);
  });

  it('shows a bad row\'s errors naming row and column, refuses the commit and stores nothing', async () => {
    const before = await count();
    const file = csv([
      zeile({ nr: 'T-IMP-OK' }),
      zeile({ nr: 'T-IMP-EP', ep: 'abc' }),
      zeile({ nr: 'T-IMP-ROH', rohstoff: 'Weizen', abfall: 'nein' }),
      zeile({ nr: 'T-IMP-SCHWELLE', eec: '', el: '', ep: '', etd: '', eu: '', esca: '', eccs: '', eccr: '', anlageInbetriebnahme: '01.01.2022', gesamtStandardwert: '32,91' }),
    ]);
    const agent = await signIn(t.app, 'ZIMPORT', PASSWORD);
    const up = await postMultipart(agent, await uploadForm(agent)).attach('file', file, 'fehler.csv');
    const preview = await agent.get(up.headers.location);
    const words = text(preview.text);
    expect(words).toContain('Zeile 3, Spalte „Ep – Verarbeitung“: Keine gültige Zahl (z. B. 12,5 oder 12.5)');
    expect(words).toContain('Zeile 4, Spalte „Rohstoff“: Der Rohstoff Weizen ist für die Produktgruppe Biodiesel (FAME) nicht zulässig.');
    expect(words).toContain('Zeile 5, Spalte „Nachhaltig (erfüllt die Nachhaltigkeitskriterien)“: Die THG-Einsparung von 64,99 % liegt unter dem Mindestwert von 65 % für diese Anlage.');
    expect(words).toContain('3 Zeilen sind fehlerhaft. Es wird nichts gespeichert.');
    expect(preview.text).not.toContain('Jetzt importieren');
    const forced = await agent.post(up.headers.location).type('form').send({ _csrf: csrfFrom(preview.text) });
    expect(forced.headers.location).toBe(up.headers.location);
    expect(text((await agent.get(up.headers.location)).text)).toContain('Der Import enthält fehlerhafte Zeilen und kann nicht gespeichert werden.');

    const res = await previewApi(file);
    expect(res.body.data.counts).toEqual({ create: 1, update: 0, unchanged: 0, refused: 3 });
    expect(res.body.data.errors).toContainEqual({ row: 3, column: 'Ep – Verarbeitung', message: 'Keine gültige Zahl (z. B. 12,5 oder 12.5)' });
    expect(res.body.data.errors).toContainEqual({ row: 4, column: 'Rohstoff', message: expect.stringContaining('nicht zulässig') });
    const commit = await commitApi(res.body.data.token);
    expect([commit.status, commit.body.code]).toEqual([400, 'IMPORT_REFUSED']);
    expect(await count()).toBe(before);
  });

  it('shows warnings in the preview, counted, and commits with them; a row without plant date gets the strictest threshold', async () => {
    const file = csv([
      zeile({ nr: 'T-IMP-HINWEIS', eec: '1', gesamtStandardwert: '10' }),
      zeile({ nr: 'T-IMP-OHNE-ANLAGE', anlageInbetriebnahme: '' }),
      zeile({ nr: 'T-IMP-OHNE-HINWEIS' }),
    ]);
    const agent = await signIn(t.app, 'ZIMPORT', PASSWORD);
    const up = await postMultipart(agent, await uploadForm(agent)).attach('file', file, 'hinweise.csv');
    const preview = await agent.get(up.headers.location);
    const words = text(preview.text);
    expect(words).toContain('2 Zeilen mit Hinweisen');
    expect(words).toContain('Mit Hinweisen 2');
    expect(words).toContain('Zeile 2, Spalte „Eec – Anbau“: Für Abfälle und Reststoffe sind die Emissionen aus dem Anbau (eec) bis zur Sammlung 0; angegeben sind 1 g CO₂-Äq./MJ.');
    expect(words).toContain('Zeile 3, Spalte „Inbetriebnahme der Anlage“: Das Datum der Inbetriebnahme der Anlage fehlt; deshalb gilt der strengste Mindestwert von 65 % THG-Einsparung.');
    expect(words).toContain('Jetzt importieren'); // warnings do not block
    const confirmed = await agent.post(up.headers.location).type('form').send({ _csrf: csrfFrom(preview.text) });
    expect(confirmed.status).toBe(302);

    expect(codes((await stored('T-IMP-HINWEIS')).hinweise)).toEqual(['EEC_BEI_ABFALL', 'SUMME_WEICHT_AB']);
    const ohne = await stored('T-IMP-OHNE-ANLAGE');
    expect(ohne.anlage_inbetriebnahme).toBeNull();
    expect(Number(ohne.schwelle)).toBe(65);
    expect(codes(ohne.hinweise)).toEqual(['ANLAGE_UNBEKANNT']);
    expect(codes((await stored('T-IMP-OHNE-HINWEIS')).hinweise)).toEqual([]);

    // The API says the same: the rows' warnings, and how many rows have them.
    const api = await previewApi(csv([zeile({ anlageInbetriebnahme: '' })]));
    expect(api.body.data.warned).toBe(1);
    expect(api.body.data.warnings).toEqual([
      { row: 2, column: 'Inbetriebnahme der Anlage', message: 'Das Datum der Inbetriebnahme der Anlage fehlt; deshalb gilt der strengste Mindestwert von 65 % THG-Einsparung.' },
    ]);
    expect(api.body.data.rows[0]).toMatchObject({ status: 'create', warnings: [expect.objectContaining({ column: 'Inbetriebnahme der Anlage' })], values: { schwelle: '65' } });
    // Without the column at all, the warning names the field.
    const { anlageInbetriebnahme: _, ...withoutColumn } = DE;
    const noColumn = await previewApi(csv([zeile()], withoutColumn));
    expect(noColumn.body.data.counts.create).toBe(1);
    expect(noColumn.body.data.warnings).toEqual([expect.objectContaining({ row: 2, column: null, field: 'anlageInbetriebnahme' })]);
  });

  it('refuses another tenant\'s location, an unknown product and a location outside a limited user\'s right', async () => {
    const res = await previewApi(csv([zeile({ nr: 'T-IMP-NORD', standortNr: '2001' }), zeile({ nr: 'T-IMP-PRODUKT', produktNr: 'P999' })]));
    expect(res.body.data.errors).toEqual([
      { row: 2, column: 'Standort', message: 'Unbekannter Standort „2001“' },
      { row: 3, column: 'Produkt', message: 'Unbekanntes Produkt „P999“' },
    ]);

    const hamburg = await auth('ZHAMBURG');
    const limited = await previewApi(csv([zeile({ nr: 'T-IMP-HH' }), zeile({ nr: 'T-IMP-H', standortNr: '1002' })]), hamburg);
    expect(limited.body.data.counts).toEqual({ create: 1, update: 0, unchanged: 0, refused: 1 });
    expect(limited.body.data.errors).toEqual([{ row: 3, column: 'Standort', message: 'Für diesen Standort haben Sie keine Berechtigung.' }]);
    expect((await commitApi(limited.body.data.token, hamburg)).status).toBe(400);
    expect(await stored('T-IMP-HH')).toBeUndefined();
    const own = await previewApi(csv([zeile({ nr: 'T-IMP-HH' })]), hamburg);
    expect((await commitApi(own.body.data.token, hamburg)).body.data.counts.create).toBe(1);
    // An import is its owner's: another user's token is not found.
    expect((await commitApi(own.body.data.token)).status).toBe(404);
  });

  it('updates an existing certificate with its figures computed again, and refuses a change to a used one', async () => {
    const first = await previewApi(csv([zeile({ nr: 'T-IMP-UPD' }), zeile({ nr: 'T-IMP-GETEILT' })]));
    await commitApi(first.body.data.token);
    expect((await request(t.app).post('/api/nachweise/T-IMP-GETEILT/teilung').set(await auth()).send({ teile: [{ menge: '4000' }] })).status).toBe(201);

    const res = await previewApi(csv([zeile({ nr: 'T-IMP-UPD', menge: '20000' }), zeile({ nr: 'T-IMP-GETEILT', menge: '20000' })]));
    expect(res.body.data.counts).toEqual({ create: 0, update: 1, unchanged: 0, refused: 1 });
    expect(res.body.data.errors).toEqual([{ row: 3, column: null, message: expect.stringContaining('bereits Menge geteilt oder verwendet') }]);
    expect(res.body.data.rows[0].changes).toContainEqual({ field: 'menge', column: 'Menge', before: '10000.000', after: '20000' });
    const ok = await previewApi(csv([zeile({ nr: 'T-IMP-UPD', menge: '20000' }), zeile({ nr: 'T-IMP-GETEILT' })]));
    expect(ok.body.data.counts).toEqual({ create: 0, update: 1, unchanged: 1, refused: 0 });
    expect((await commitApi(ok.body.data.token)).body.data.counts.update).toBe(1);
    const upd = await stored('T-IMP-UPD');
    expect([upd.version, Number(upd.menge), Number(upd.menge_verbleibend), Number(upd.thg_minderung_t)]).toEqual([2, 20000, 20000, 55.506]);
    expect(Number((await stored('T-IMP-GETEILT')).menge_verbleibend)).toBe(6000);
  });

  it('lets only users with the edit right on certificates import', async () => {
    const leser = await auth('ZLESER');
    expect((await previewApi(csv([zeile({ nr: 'T-IMP-LESER' })]), leser)).status).toBe(403);
    expect((await request(t.app).get('/api/nachweise/import/vorlage').set(leser)).status).toBe(403);
    expect((await commitApi('00000000-0000-4000-8000-000000000000', leser)).status).toBe(403);
    expect(await stored('T-IMP-LESER')).toBeUndefined();
    const agent = await signIn(t.app, 'ZLESER', PASSWORD);
    expect((await agent.get('/de/bewegungsdaten/nachweise/import')).headers.location).toBe('/de/benutzer/dashboard');
    const list = await agent.get('/de/bewegungsdaten/nachweise');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('href="/de/bewegungsdaten/nachweise/import"');
  });

  it('accepts English headers and names, and XLSX with its own numbers and dates', async () => {
    const EN: Record<string, string> = {
      nr: 'Number', ausstellungsdatum: 'Date of issue', standortNr: 'Location', produktNr: 'Product', menge: 'Quantity', einheit: 'Unit',
      rohstoff: 'Raw material', herkunftsland: 'Country of origin', abfall: 'Waste or residue', nachhaltig: 'Sustainable (meets the sustainability criteria)',
      anlageInbetriebnahme: "Plant's start of operation", ep: 'Ep – processing', etd: 'Etd – transport and distribution', gesamtStandardwert: 'Total (default value per RED II)',
    };
    const row = zeile({ nr: 'T-IMP-EN', ausstellungsdatum: '2026-03-02', rohstoff: 'Used cooking oil', herkunftsland: 'Germany', abfall: 'yes', nachhaltig: 'yes', anlageInbetriebnahme: '2019-05-01', ep: '6.5', etd: '3.5' });
    const english = Buffer.from(`${Object.values(EN).join(',')}\r\n${Object.keys(EN).map((k) => row[k]).join(',')}\r\n`);
    const res = await previewApi(english, { ...(await auth()), 'Accept-Language': 'en' });
    expect(res.body.data.counts).toEqual({ create: 1, update: 0, unchanged: 0, refused: 0 });
    expect(res.body.data.rows[0].values).toMatchObject({ rohstoff: 'altspeiseoel', herkunftsland: 'DE', einsparung: '89.36' });

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Zertifikate');
    const keys = Object.keys(DE);
    sheet.addRow(keys.map((k) => DE[k]));
    const values = zeile({ nr: 'T-IMP-XLSX' });
    sheet.addRow(keys.map((k) => {
      if (['ausstellungsdatum', 'zeitraumVon', 'zeitraumBis', 'lieferungVon', 'lieferungBis', 'anlageInbetriebnahme'].includes(k)) {
        const [d, m, y] = values[k].split('.');
        return new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
      }
      if (['menge', 'ep', 'etd', 'gesamtStandardwert', 'standortNr'].includes(k)) return Number(values[k].replace(',', '.'));
      return values[k];
    }));
    const xlsx = await previewApi(Buffer.from(await workbook.xlsx.writeBuffer()), undefined, 'zertifikate.xlsx');
    expect(xlsx.status, JSON.stringify(xlsx.body)).toBe(200);
    expect(xlsx.body.data.errors).toEqual([]);
    expect((await commitApi(xlsx.body.data.token)).body.data.counts.create).toBe(1);
    expect(await stored('T-IMP-XLSX')).toMatchObject({ ausstellungsdatum: expect.anything(), standort_nr: '1001' });
    expect(Number((await stored('T-IMP-XLSX')).einsparung)).toBe(89.36);
  });

  it('reads the example file of the docs as it is: five certificates, two with warnings, headed like the template', async () => {
    const example = readFileSync(new URL('../../../docs/import-beispiel-nachweise.csv', import.meta.url));
    const template = await request(t.app).get('/api/nachweise/import/vorlage').set(await auth());
    expect(example.toString('utf8').split('\r\n')[0]).toBe(template.text.split('\r\n')[0]);
    const res = await previewApi(example, undefined, 'import-beispiel-nachweise.csv');
    expect(res.body.data.errors).toEqual([]);
    expect(res.body.data.counts).toEqual({ create: 5, update: 0, unchanged: 0, refused: 0 });
    expect(res.body.data.warnings.map((w: { row: number; column: string }) => [w.row, w.column])).toEqual([
      [3, 'Inbetriebnahme der Anlage'],
      [4, 'Eec – Anbau'],
    ]);
    expect(res.body.data.rows.map((r: { values: Record<string, unknown> }) => [r.values.rohstoff, r.values.herkunftsland, r.values.schwelle])).toEqual([
      ['altspeiseoel', 'DE', '60'], ['tierfett', 'NL', '65'], ['altspeiseoel', 'NL', '65'], ['raps', 'DE', '50'], ['weizen', 'FR', '60'],
    ]);
  });
});
