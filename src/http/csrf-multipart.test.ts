// CSRF for multipart forms (issue 20 point 8): the token is the form's first field, never in the address, and every
// upload route (the three imports, the record forms with a file, the API's file routes with a cookie session)
// refuses a body without it as its first part with the CSRF answer, before anything is written or staged.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEWEGUNGSDATEN_ENTITIES } from '../features/bewegungsdaten/registry.js';
import { STAMMDATEN_ENTITIES } from '../features/stammdaten/registry.js';
import { exampleCsv } from '../features/bewegungsdaten-import/defaults.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { csrfFrom, multipartForm, postMultipart, signIn, type Agent } from '../testing/session.js';
import { createUserWithRoles } from '../testing/users.js';

let t: TestApp;
let agent: Agent;
let other: Agent;
let bearer: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  // Locations and partners to write (4, 6), both movement imports (19, 20), certificates (22).
  await createUserWithRoles(t.db.knex, 'ZCSRF', 'Csrf12345678', [4, 6, 10, 19, 20, 22].map((typ) => ({ typ: typ as 4, standortNr: null })));
  agent = await signIn(t.app, 'ZCSRF', 'Csrf12345678', 'DEMO');
  other = await signIn(t.app, 'TADMIN', 'Tadmin12345');
  const token = (await request(t.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' })).body.token;
  bearer = { Authorization: token, 'X-Mandant': 'DEMO' };
  expect((await request(t.app).post('/api/tauschpartner').set(bearer).send(partner('CSRF-TP'))).status).toBe(201);
}, 60_000);
afterAll(() => t.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const STANDORTE = Buffer.from('Nummer;Name;PLZ;Ort\r\n9901;Tanklager Csrf;24103;Kiel\r\n');
const NACHWEISE = Buffer.from('Nummer;Ausstellungsdatum\r\nT-CSRF-1;02.03.2026\r\n');
const partner = (nr: string) => ({ nr, name: `Partner ${nr}`, strasse: 'Hafenweg', hausNr: '3', plz: '20457', stadt: 'Hamburg', land: 'Deutschland', vertrag: 'TV-1' });
const CSRF_TEXT = 'Das Formular ist abgelaufen';

/** What an upload could write: staged imports, stored files, records and their audit entries. */
async function written() {
  const tables = ['import_staging', 'import_staging_rows', 'dateien', 'tauschpartner', 'nachweise', 'standorte', 'einlieferungen', 'audit_log'];
  return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, Number((await t.db.knex(table).count({ n: '*' }))[0].n)])));
}

interface Upload {
  name: string;
  method: 'post' | 'put';
  path: string;
  /** The page whose form posts here (HTML routes); API routes answer JSON. */
  page?: string;
  fields: Record<string, string>;
  file: { field: string; content: Buffer; name: string };
}

/** The record types whose form has a file: each one's create and edit form and its API file route. */
const recordUploads = (): Upload[] => [...STAMMDATEN_ENTITIES, ...BEWEGUNGSDATEN_ENTITIES].flatMap((cfg) => {
  const files = cfg.form.filter((f) => f.kind === 'file');
  if (!files.length) return [];
  const nr = cfg.resource === 'tauschpartner' ? 'CSRF-TP' : 'T-CSRF-REC';
  const file = { field: files[0].name, content: PDF, name: 'vertrag.pdf' };
  return [
    { name: `${cfg.resource}: new`, method: 'post' as const, path: `/de/${cfg.path}`, page: `/de/${cfg.path}/${cfg.createPath ?? 'neu'}`, fields: { nr: `${nr}-NEU`, name: 'x' }, file },
    ...(cfg.resource === 'tauschpartner'
      ? [{ name: `${cfg.resource}: edit`, method: 'post' as const, path: `/de/${cfg.path}/${nr}`, page: `/de/${cfg.path}/${nr}/bearbeiten`, fields: { ...partner(nr), version: '1' }, file }]
      : []),
    ...files.map((f) => ({ name: `${cfg.resource}: API file ${f.name}`, method: 'put' as const, path: `/api/${cfg.resource}/${nr}/${f.name}`, fields: {}, file: { ...file, field: 'file' } })),
  ];
});

const UPLOADS: Upload[] = [
  { name: 'Stammdaten-Import', method: 'post', path: '/de/stammdaten/import', page: '/de/stammdaten/import', fields: { entity: 'standorte' }, file: { field: 'file', content: STANDORTE, name: 'standorte.csv' } },
  { name: 'Bewegungsdaten-Import', method: 'post', path: '/de/bewegungsdaten/import', page: '/de/bewegungsdaten/import', fields: { typ: 'einlieferungen' }, file: { field: 'file', content: Buffer.from(exampleCsv('einlieferungen')), name: 'e.csv' } },
  { name: 'Nachweise-Import', method: 'post', path: '/de/bewegungsdaten/nachweise/import', page: '/de/bewegungsdaten/nachweise/import', fields: {}, file: { field: 'file', content: NACHWEISE, name: 'n.csv' } },
  { name: 'Stammdaten-Import API', method: 'post', path: '/api/stammdaten-import/standorte/preview', fields: {}, file: { field: 'file', content: STANDORTE, name: 'standorte.csv' } },
  { name: 'Bewegungsdaten-Import API', method: 'post', path: '/api/import/preview', fields: { typ: 'einlieferungen' }, file: { field: 'file', content: Buffer.from(exampleCsv('einlieferungen')), name: 'e.csv' } },
  { name: 'Nachweise-Import API', method: 'post', path: '/api/nachweise/import/preview', fields: {}, file: { field: 'file', content: NACHWEISE, name: 'n.csv' } },
  ...recordUploads(),
];

/** A session's token, from any page with a form (the sidebar's logout form has one). */
const tokenOf = async (a: Agent) => csrfFrom((await a.get('/de/benutzer/dashboard')).text);

/** Posts the upload with these parts around the route's fields and file, as the given session. */
function send(a: Agent, u: Upload, parts: { before?: [string, string][]; after?: [string, string][]; query?: string }) {
  let req = a[u.method](u.path + (parts.query ?? ''));
  if (!u.page) req = req.set('X-Mandant', 'DEMO');
  for (const [k, v] of parts.before ?? []) req = req.field(k, v);
  for (const [k, v] of Object.entries(u.fields)) req = req.field(k, v);
  req = req.attach(u.file.field, u.file.content, u.file.name);
  for (const [k, v] of parts.after ?? []) req = req.field(k, v);
  return req;
}

describe('CSRF of multipart forms', () => {
  it('covers every record type with a file field', () => {
    expect(UPLOADS.map((u) => u.name)).toEqual(expect.arrayContaining(['tauschpartner: new', 'tauschpartner: edit', 'tauschpartner: API file vertragDatei', 'nachweise: new', 'nachweise: API file datei']));
  });

  it.each(UPLOADS.filter((u) => u.page).map((u) => [u.name, u] as const))('%s: the form posts to its plain address with the token as its first field', async (_, u) => {
    const page = await agent.get(u.page!);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('_csrf=');
    const form = multipartForm(page.text); // throws unless the token is the form's first field and not in the action
    expect(form.action).toBe(u.path);
  });

  const refusals: [string, (token: string, otherToken: string) => { before?: [string, string][]; after?: [string, string][]; query?: string }][] = [
    ['without a token', () => ({})],
    ['with the token after the file', (token) => ({ after: [['_csrf', token]] })],
    ['with the token after another field', (token) => ({ before: [['typ', 'x'], ['_csrf', token]] })],
    ['with a wrong token', (token) => ({ before: [['_csrf', `${token.slice(0, -4)}AAAA`]] })],
    ["with another session's token", (_, otherToken) => ({ before: [['_csrf', otherToken]] })],
    ['with the token only in the address (as before)', (token) => ({ query: `?_csrf=${encodeURIComponent(token)}` })],
  ];
  const cases = UPLOADS.flatMap((u) => refusals.map(([how, parts]) => [u.name, how, u, parts] as const));

  it.each(cases)('%s %s: 403 as any CSRF failure, nothing written', async (_, __, u, parts) => {
    const [token, otherToken] = [await tokenOf(agent), await tokenOf(other)];
    const before = await written();
    const res = await send(agent, u, parts(token, otherToken));
    expect(res.status).toBe(403);
    if (u.page) expect(res.text).toContain(CSRF_TEXT);
    else expect(res.body).toMatchObject({ success: false, code: 'CSRF' });
    expect(await written()).toEqual(before);
  });

  it.each(UPLOADS.map((u) => [u.name, u] as const))('%s: with the token first the route gets the whole upload', async (_, u) => {
    const res = await send(agent, u, { before: [['_csrf', await tokenOf(agent)]] });
    expect(res.status, res.text.slice(0, 300)).not.toBe(403);
    expect(res.text).not.toContain(CSRF_TEXT);
    if (u.path === '/de/stammdaten/tauschpartner/CSRF-TP') {
      expect(res.status).toBe(302);
      const stored = await t.db.knex('tauschpartner').where({ mandant: 'DEMO', nr: 'CSRF-TP' }).first('vertrag_datei');
      const ref = typeof stored.vertrag_datei === 'string' ? JSON.parse(stored.vertrag_datei) : stored.vertrag_datei;
      expect(ref).toMatchObject({ size: PDF.length, name: 'vertrag.pdf' }); // the file arrived whole
    }
  });

  it('a cookie session may still send the token in the header (the islands) with the file first', async () => {
    const res = await agent.put('/api/tauschpartner/CSRF-TP/vertragDatei').set({ 'X-Mandant': 'DEMO', 'X-CSRF-Token': await tokenOf(agent) }).attach('file', PDF, 'kopie.pdf');
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect((await agent.put('/api/tauschpartner/CSRF-TP/vertragDatei').set({ 'X-Mandant': 'DEMO', 'X-CSRF-Token': 'falsch' }).attach('file', PDF, 'kopie.pdf')).status).toBe(403);
  });

  it('a Bearer call without cookie needs none, as before', async () => {
    expect((await request(t.app).put('/api/tauschpartner/CSRF-TP/vertragDatei').set(bearer).attach('file', PDF, 'bearer.pdf')).status).toBe(200);
  });
});

describe('CSRF of other posts, unchanged', () => {
  it('a form post (url-encoded) is checked by the middleware as before', async () => {
    expect((await agent.post('/de/benutzer/nachrichten/gelesen').type('form').send({})).status).toBe(403);
    expect((await agent.post('/de/benutzer/nachrichten/gelesen').type('form').send({ _csrf: 'falsch' })).status).toBe(403);
    expect((await agent.post('/de/benutzer/nachrichten/gelesen').type('form').send({ _csrf: await tokenOf(agent) })).status).toBe(302);
  });

  it('a multipart post to a route that reads no upload is checked all the same', async () => {
    const without = await agent.post('/de/benutzer/nachrichten/gelesen').field('x', '1');
    expect(without.status).toBe(403);
    const withToken = await agent.post('/de/benutzer/nachrichten/gelesen').field('_csrf', await tokenOf(agent)).field('x', '1');
    expect(withToken.status).toBe(302);
    // The connection stays usable after a body the route never read.
    expect((await agent.get('/de/benutzer/dashboard')).status).toBe(200);
  });
});

describe('a refused upload', () => {
  const refused: [string, string, (req: ReturnType<typeof postMultipart>) => ReturnType<typeof postMultipart>][] = [
    ['Stammdaten-Import', '/de/stammdaten/import', (r) => r.field('entity', 'standorte').attach('file', Buffer.from('Nr;Nme\r\n1;x\r\n'), 'falsch.csv')],
    ['Bewegungsdaten-Import', '/de/bewegungsdaten/import', (r) => r.field('typ', 'einlieferungen').field('code', 'nr = Spalte "X" | datum TT.QQ').attach('file', Buffer.from('X\r\n1\r\n'), 'x.csv')],
    ['Nachweise-Import', '/de/bewegungsdaten/nachweise/import', (r) => r.attach('file', Buffer.from(''), 'leer.csv')],
    ['Tauschpartner form', '/de/stammdaten/tauschpartner/CSRF-TP/bearbeiten', (r) => r.attach('vertragDatei', Buffer.from('GIF89a'), 'bild.pdf')],
  ];

  it.each(refused)('%s: is shown again at the form’s plain address, with no token in any address', async (_, pagePath, fill) => {
    const page = await agent.get(pagePath);
    const form = multipartForm(page.text);
    const res = await fill(postMultipart(agent, form));
    expect(res.status).toBe(400);
    // Not redirected: the address bar shows what the form posted to, which carries no token.
    expect(res.headers.location).toBeUndefined();
    expect(form.action).not.toContain('?');
    expect(res.text).not.toMatch(/_csrf=/);
    expect(multipartForm(res.text).action).toBe(form.action);
  });
});
