// A partner's contract document: the records layer's file field from upload to download, through the page
// form (multipart) and the API, against the real database.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, multipartForm, postMultipart, signIn } from '../../testing/session.js';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const token = (await request(t.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' })).body.token;
  admin = { Authorization: token, 'X-Mandant': 'DEMO' };
});
afterAll(() => t.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const partner = (nr: string) => ({
  nr, name: `Partner ${nr}`, strasse: 'Hafenweg', hausNr: '3', plz: '20457', stadt: 'Hamburg', land: 'Deutschland', vertrag: 'TV-2026-0001',
});
const fileCount = async () => Number((await t.db.knex('dateien').count({ n: '*' }))[0].n);
const stored = (nr: string) => t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr }).first('version', 'vertrag_datei');

/** Posts the partner's form as a browser does with a file chosen: multipart, the CSRF token its first field. */
async function postForm(nr: string, file: { content: Buffer; name: string } | null) {
  const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
  const page = await agent.get(`/de/stammdaten/tauschpartner/${nr}/bearbeiten`);
  const form = multipartForm(page.text);
  expect(form.action).toBe(`/de/stammdaten/tauschpartner/${nr}`);
  const version = (await stored(nr)).version;
  const post = postMultipart(agent, form);
  for (const [k, v] of Object.entries({ ...partner(nr), version: String(version) })) post.field(k, v);
  if (file) post.attach('vertragDatei', file.content, file.name);
  return { agent, res: await post, csrf: csrfFrom(page.text) };
}

describe("a partner's contract document", () => {
  it('is uploaded with the form, stored as a new version and downloaded as an attachment under a safe name', async () => {
    expect((await request(t.app).post('/api/tauschpartner').set(admin).send(partner('VD-1'))).status).toBe(201);
    const { agent, res } = await postForm('VD-1', { content: PDF, name: 'Vertrag "Nord" 2026.pdf' });
    expect(res.status).toBe(302);
    const row = await stored('VD-1');
    expect(row.version).toBe(2);
    const ref = typeof row.vertrag_datei === 'string' ? JSON.parse(row.vertrag_datei) : row.vertrag_datei;
    expect(ref).toMatchObject({ name: 'Vertrag Nord 2026.pdf', type: 'application/pdf', size: PDF.length });

    const page = await agent.get('/de/stammdaten/tauschpartner/VD-1');
    expect(page.text).toContain('href="/de/stammdaten/tauschpartner/VD-1/vertragDatei" download>Vertrag Nord 2026.pdf</a>');
    const download = await agent.get('/de/stammdaten/tauschpartner/VD-1/vertragDatei').buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="Vertrag Nord 2026.pdf"; filename*=UTF-8''Vertrag%20Nord%202026.pdf`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(download.body as Buffer, PDF)).toBe(0);
    expect((await agent.get('/de/stammdaten/tauschpartner/VD-1?tab=versionen')).text).toMatch(/<th scope="row">Vertragsdokument<\/th><td>–<\/td><td>Vertrag Nord 2026\.pdf \(1 KB\)<\/td>/);

    // Saving the form without choosing a file keeps the stored one.
    const again = await postForm('VD-1', null);
    expect(again.res.status).toBe(302);
    expect((await request(t.app).get('/api/tauschpartner/VD-1').set(admin)).body.data.vertragDatei).toEqual(ref);
  });

  it('refuses a file that is not what it claims and one over 10 MB, naming the field, storing nothing', async () => {
    expect((await request(t.app).post('/api/tauschpartner').set(admin).send(partner('VD-2'))).status).toBe(201);
    const files = await fileCount();
    const fake = await postForm('VD-2', { content: Buffer.from('<html><script>alert(1)</script></html>'), name: 'vertrag.pdf' });
    expect(fake.res.status).toBe(400);
    expect(fake.res.text).toContain('Der Inhalt der Datei ist keines der erlaubten Formate (PDF, PNG, JPEG).');
    expect(fake.res.text).toMatch(/id="f-vertragDatei"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="f-vertragDatei"/);
    const big = await postForm('VD-2', { content: Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)]), name: 'gross.pdf' });
    expect(big.res.status).toBe(413);
    expect(big.res.text).toContain('Die Datei ist größer als 10 MB.');
    expect(await fileCount()).toBe(files);
    expect(await stored('VD-2')).toMatchObject({ version: 1, vertrag_datei: null });

    const api = await request(t.app).put('/api/tauschpartner/VD-2/vertragDatei').set(admin).attach('file', Buffer.from('GIF89a'), 'bild.png');
    expect(api.status).toBe(400);
    expect(api.body.errors).toEqual([{ field: 'file', message: 'Der Inhalt der Datei ist keines der erlaubten Formate (PDF, PNG, JPEG).' }]);
    expect((await request(t.app).get('/api/tauschpartner/VD-2/vertragDatei').set(admin)).status).toBe(404);
  });

  it('is replaced through the API as a new version, the old content kept; another tenant never reaches it', async () => {
    expect((await request(t.app).post('/api/tauschpartner').set(admin).send(partner('VD-3'))).status).toBe(201);
    const first = await request(t.app).put('/api/tauschpartner/VD-3/vertragDatei').set(admin).attach('file', PDF, 'erster.pdf');
    expect(first.status).toBe(200);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const stale = await request(t.app).put('/api/tauschpartner/VD-3/vertragDatei').set(admin).field('version', '1').attach('file', png, 'scan.png');
    expect(stale.status).toBe(409);
    const second = await request(t.app).put('/api/tauschpartner/VD-3/vertragDatei').set(admin).field('version', '2').attach('file', png, 'scan.png');
    expect(second.body.data).toMatchObject({ version: 3, vertragDatei: { name: 'scan.png', type: 'image/png', size: png.length } });
    const versions = (await request(t.app).get('/api/tauschpartner/VD-3/versionen').set(admin)).body.data;
    expect(versions.map((v: { data: { vertragDatei: { name: string } | null } }) => v.data.vertragDatei?.name ?? null)).toEqual(['scan.png', 'erster.pdf', null]);
    const firstId = first.body.data.vertragDatei.id;
    expect(Buffer.compare(Buffer.from((await t.db.knex('dateien').where({ mandant: 'DEMO', id: firstId }).first('inhalt')).inhalt), PDF)).toBe(0);

    // A reference to DEMO's file planted in another tenant's partner still finds nothing there.
    const nordToken = (await request(t.app).post('/api/v1/account/login').send({ login: 'ADMIN', password: 'Admin12345' })).body.token;
    const nord = { Authorization: nordToken, 'X-Mandant': 'NORD' };
    expect((await request(t.app).post('/api/tauschpartner').set(nord).send(partner('VD-3'))).status).toBe(201);
    await t.db.knex.transaction(async (trx) => {
      await trx.raw(`select set_config('app.mandant', 'NORD', true)`);
      await trx('tauschpartner').where({ mandant: 'NORD', nr: 'VD-3' }).update({ vertrag_datei: JSON.stringify(first.body.data.vertragDatei) });
    });
    expect((await request(t.app).get('/api/tauschpartner/VD-3/vertragDatei').set(nord)).status).toBe(404);
    expect((await request(t.app).get('/api/tauschpartner/VD-3/vertragDatei').set(admin)).status).toBe(200);
  });
});
