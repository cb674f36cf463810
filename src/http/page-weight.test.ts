// Page weight budgets for slow connections, held in CI: the bytes a browser with a cold cache fetches for a page
// (the HTML and every stylesheet, script, module preload, image and font it loads, compressed as the server
// sends them) are deterministic, so they are tested here; speed is measured by `npm run bench`, never in a test.
// Budgets hold for Brotli and for gzip (a browser over plain http:// is offered no Brotli by Chromium).
import request from 'supertest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { bilanzBeispiel } from '../testing/bilanz-beispiel.js';
import {
  measurePage, rawRequest, signInWithForms, weightTable, type CookieJar, type PageWeight,
} from '../testing/page-weight.js';
import { HILFE_PAGE, ISLAND_PAGE, LIST, LOGIN_PAGE, THG_PAGE, THG_VOLLBILD_PAGE } from '../testing/perf-pages.js';
import { ICON_HREF } from '../testing/sprite.js';
import { loadAssets } from './assets.js';

const KB = 1024;
const BUDGET = { login: 25 * KB, thg: 35 * KB, list: 40 * KB, detail: 40 * KB, island: 120 * KB, listHtml: 14 * KB };
/** Content hash in the name, as Vite writes it: `shell-C_sGS8Ro.css`. */
const FINGERPRINTED = /^\/build\/assets\/[\w.-]+-[\w-]{8}\.(js|css|svg|png|webp|avif)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Strings only React's runtime contains. */
const REACT = /react\.transitional\.element|__CLIENT_INTERNALS_DO_NOT_USE/;

let t: TestApp;
let base: string;
let admin: CookieJar;
const table: { name: string; br: PageWeight; gzip: PageWeight; budget: number }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  admin = await signInWithForms(base, 'ADMIN', 'Admin12345', 'DEMO');
});

afterAll(async () => {
  if (table.length) console.log(`Page weight on a cold cache (bytes on the wire):\n${weightTable(table)}`);
  await t?.close();
});

/**
 * Measures a page with Brotli and with gzip, checks what holds for every page, and records it for the table.
 * `shared`: a page that is the same for every visitor (the public THG display: no session, no cookie set), which
 * any cache may keep for a minute; every other page is personal.
 */
async function weigh(name: string, path: string, budget: number, jar?: CookieJar, { shared = false } = {}): Promise<PageWeight> {
  const br = await measurePage(base, path, { jar });
  const gzip = await measurePage(base, path, { jar, acceptEncoding: 'gzip' });
  table.push({ name, br, gzip, budget });
  for (const [w, encoding] of [[br, 'br'], [gzip, 'gzip']] as const) {
    const where = `${path} (${encoding})`;
    // HTML: compressed, personal (never kept by a cache) unless shared, and saying what it depends on.
    expect(w.html.encoding, where).toBe(encoding);
    expect(w.html.cacheControl, where).toMatch(shared ? /^public, max-age=60$/ : /^(no-store|private, no-cache)$/);
    expect(w.html.vary?.split(/,\s*/), where).toEqual(expect.arrayContaining(['Accept-Encoding', 'Cookie']));
    for (const r of w.resources) {
      const at = `${r.url} on ${where}`;
      expect(r.status, at).toBe(200);
      expect(new URL(r.url).pathname, at).toMatch(FINGERPRINTED);
      expect(r.cacheControl, at).toBe(IMMUTABLE);
      expect(r.encoding, at).toBe(encoding);
      expect(r.vary, at).toContain('Accept-Encoding');
      // System font stack: no font files.
      expect(r.kind, at).not.toBe('font');
    }
    expect(w.total, `${where}: ${w.total} bytes`).toBeLessThanOrEqual(budget);
  }
  // No web fonts: no @font-face in any stylesheet or inline style.
  for (const [url, source] of br.sources) if (url.endsWith('.css')) expect(source, url).not.toMatch(/@font-face/i);
  expect(br.text).not.toMatch(/@font-face/i);
  // Icons: one SVG sprite, a build file kept for a year (fingerprinted, counted above), not carried by the page
  // and not fetched by a page without icons; every icon points at a symbol of it; no other images at all.
  expect(br.text, path).not.toMatch(/<svg\b[^>]*class="sprite"/);
  const uses = [...br.text.matchAll(/<use\b[^>]*href="([^"]*)"/g)].map((m) => m[1]);
  for (const href of uses) expect(href, path).toMatch(ICON_HREF);
  const images = br.resources.filter((r) => r.kind === 'image');
  expect(images.map((r) => `${r.url.replace(base, '')} ${r.contentType}`), path).toEqual(uses.length ? [`${uses[0].split('#')[0]} image/svg+xml`] : []);
  return br;
}

/**
 * The worked example of certificates-and-balances.md section 4 (as bilanzen.test.ts builds it), allocated: a Bilanz
 * page with its six lines, the island's props and the server-rendered fallback. Returns the page's path.
 */
async function bilanzSeite(): Promise<string> {
  const token = (await request(t.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' })).body.token as string;
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await request(t.app).post(`/api${path}`).set({ Authorization: token, 'X-Mandant': 'DEMO' }).send(body);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const { standortNr } = await bilanzBeispiel(t.app, { Authorization: token, 'X-Mandant': 'DEMO' }, 'PW1');
  const id = (await post('/bilanzen', { standortNr, produktNr: 'P013', zeitraumVon: '2026-01-01', zeitraumBis: '2026-03-31' })).data.id as number;
  expect((await post(`/bilanzen/${id}/verteilung`, {})).data.zuordnungen).toHaveLength(6);
  return `/de/bewegungsdaten/bilanzen/${id}`;
}

function usesReact(w: PageWeight): boolean {
  return [...w.sources].some(([url, source]) => url.endsWith('.js') && REACT.test(source));
}

describe('page weight on a cold cache', () => {
  it(`login page ≤ ${BUDGET.login / KB} KB, and it signs in without JavaScript`, async () => {
    const w = await weigh('login', LOGIN_PAGE, BUDGET.login);
    expect(usesReact(w)).toBe(false);
    // A plain form that posts login and password (with its CSRF token) to the server.
    const form = w.text.match(/<form method="post" action="\/de\/login"[\s\S]*?<\/form>/)?.[0];
    expect(form).toBeDefined();
    for (const name of ['_csrf', 'login', 'password']) expect(form).toContain(`name="${name}"`);
    expect(form).toMatch(/<button type="submit"/);
    // Posting the form alone (no script ran) signs in and leads to a page of the portal.
    const jar = await signInWithForms(base, 'TADMIN', 'Tadmin12345');
    const dashboard = await rawRequest(`${base}/de/benutzer/dashboard`, { jar });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.toString()).toContain('Thomas Teichmann');
  });

  it(`public THG display ≤ ${BUDGET.thg / KB} KB without any script, normal and large-screen, cacheable by anyone for a minute`, async () => {
    for (const [name, path] of [['THG display', THG_PAGE], ['THG display (large screen)', THG_VOLLBILD_PAGE]]) {
      const w = await weigh(name, path, BUDGET.thg, undefined, { shared: true });
      expect(w.resources.filter((r) => r.kind === 'js'), path).toEqual([]);
      expect(w.text, path).toMatch(/data-zeitraum="jahr">[\d.,]+</);
      // Shared means the same for everyone: nothing of a visitor in it, no cookie set.
      expect((await rawRequest(`${base}${path}`)).headers['set-cookie'], path).toBeUndefined();
    }
  });

  it(`list page with 10 rows ≤ ${BUDGET.list / KB} KB without React, its HTML in the first ${BUDGET.listHtml / KB} KB`, async () => {
    const w = await weigh('list (10 rows)', `/de/${LIST.page}`, BUDGET.list, admin);
    expect(usesReact(w)).toBe(false);
    expect(w.text.match(/<tbody>[\s\S]*?<\/tbody>/)?.[0].match(/<tr\b/g)).toHaveLength(10);
    // The whole HTML fits the first round trips of a new connection (TCP's initial window, about 14 KB).
    expect(w.html.bytes).toBeLessThanOrEqual(BUDGET.listHtml);
    expect(table.at(-1)!.gzip.html.bytes).toBeLessThanOrEqual(BUDGET.listHtml);
  });

  it('writes the list page in Latin-1 characters, any other as a character reference', async () => {
    // V8 keeps a text of Latin-1 characters at one byte a character; one other character (the en dash of the
    // title, a sort arrow) made the whole page a text of two bytes a character, copied and encoded for every
    // request (bench/README.md, "2026-12-04"). The browser shows the same characters. Values are written as they
    // are: a record's text outside Latin-1 still makes its page two bytes a character.
    for (const path of [`/de/${LIST.page}?${LIST.benchQuery}`, `/en/${LIST.page}?sort=nr:desc&page=2`, `/de/${LIST.page}?sort=nr:asc`]) {
      const res = await rawRequest(`${base}${path}`, { jar: admin });
      expect(res.status, path).toBe(200);
      expect(res.body.toString('utf8'), path).toMatch(/<span class="sort-indicator" aria-hidden="true">(&#9660;|&#9650;)<\/span>/);
      expect([...new Set(res.body.toString('utf8').match(/[^\u0000-\u00ff]/gu) ?? [])], path).toEqual([]);
    }
  });

  it(`detail page ≤ ${BUDGET.detail / KB} KB without React`, async () => {
    const w = await weigh('detail', `/de/${LIST.detail}`, BUDGET.detail, admin);
    expect(usesReact(w)).toBe(false);
    expect(w.text).toMatch(/<form method="post"/);
  });

  it(`user guide with every chapter and a search's results ≤ ${BUDGET.detail / KB} KB without React`, async () => {
    const w = await weigh('guide (search)', HILFE_PAGE, BUDGET.detail, admin);
    expect(usesReact(w)).toBe(false);
    // The whole guide is on the page (its ten chapters), with the results above it.
    expect(w.text.match(/<section class="card hilfe-text"/g)).toHaveLength(10);
    expect(w.text).toContain('<a href="#import-code"><mark>Import-Code</mark></a>');
  });

  it(`Tankstelle with seven tanks ≤ ${BUDGET.island / KB} KB including React (its island), complete without it`, async () => {
    const w = await weigh('Tankstelle (7 tanks)', '/de/bewegungsdaten/tankstelle-bestand?standort=1007', BUDGET.island, admin);
    // The island (islands/tankstelle) switches views and refreshes in place: React is loaded here, and preloaded.
    expect(usesReact(w)).toBe(true);
    const preloaded = new Set(w.resources.map((r) => new URL(r.url).pathname));
    for (const href of loadAssets().island('tankstelle')) expect(preloaded.has(href), href).toBe(true);
    // The page itself, inside the island's element: seven tank cards with their gauges, and the 10 latest deliveries.
    const island = w.text.slice(w.text.indexOf('data-island="tankstelle"'));
    expect(island.match(/<div class="tank-gauge" role="img"/g)).toHaveLength(7);
    expect(island.slice(island.indexOf('tankstelle-letzte-heading')).match(/<tr>\s*<th scope="row">/g)).toHaveLength(10);
  });

  it(`page with an island ≤ ${BUDGET.island / KB} KB including React, with the server-rendered fallback in the HTML`, async () => {
    const leser = await t.db.knex('benutzer').where({ login: 'LESER' }).first('id');
    const w = await weigh('island (permissions)', `${ISLAND_PAGE}?benutzer=${leser.id}`, BUDGET.island, admin);
    expect(usesReact(w)).toBe(true);
    // The fallback: the matrix as a plain form with checkboxes, inside the island's element.
    const island = w.text.slice(w.text.indexOf('data-island="permission-matrix"'));
    expect(island.length).toBeGreaterThan(1);
    expect(island).toMatch(new RegExp(`^[^]*?<form method="post" action="/de/benutzer/berechtigungsverwaltung/${leser.id}"`));
    expect(island).toMatch(/type="checkbox"/);
    // The island's code and React are preloaded with the page (counted above), not discovered after the mount loop ran.
    const preloaded = new Set(w.resources.filter((r) => r.via.includes('modulepreload')).map((r) => new URL(r.url).pathname));
    const needed = loadAssets().island('permission-matrix');
    expect(needed.length).toBeGreaterThan(1);
    for (const href of needed) expect(preloaded, href).toContain(href);
  });

  it(`Bilanz page with the editor island ≤ ${BUDGET.island / KB} KB including React, with the plain page inside the island`, async () => {
    const path = await bilanzSeite();
    const jar = await signInWithForms(base, 'TADMIN', 'Tadmin12345');
    const w = await weigh('island (Bilanz editor)', path, BUDGET.island, jar);
    expect(usesReact(w)).toBe(true);
    // The fallback: the operations as plain forms and the six lines, inside the island's element.
    const island = w.text.slice(w.text.indexOf('data-island="bilanz-editor"'));
    expect(island.length).toBeGreaterThan(1);
    expect(island).toMatch(new RegExp(`^[^]*?<form method="post" action="${path}/verteilung"`));
    expect(island.match(/<section class="stack" aria-labelledby="zuordnungen-heading">[^]*?<\/section>/)?.[0].match(/<tr>\s*<td class="num">/g)).toHaveLength(6);
    // Its code, the table library and React are preloaded with the page, not found after the mount loop ran.
    const preloaded = new Set(w.resources.filter((r) => r.via.includes('modulepreload')).map((r) => new URL(r.url).pathname));
    const needed = loadAssets().island('bilanz-editor');
    expect(needed.length).toBeGreaterThan(1);
    for (const href of needed) expect(preloaded, href).toContain(href);
  });

  it('answers Brotli where accepted, else gzip, and uncompressed to a client that accepts neither', async () => {
    const css = loadAssets().entry('islands/shell.ts').css[0];
    for (const path of [css, LOGIN_PAGE]) {
      const get = (acceptEncoding?: string) => rawRequest(`${base}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
      const [br, gzip, refused, plain] = await Promise.all([get('gzip, deflate, br'), get('gzip, deflate'), get('gzip;q=0, br;q=0'), get()]);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(gzip.headers['content-encoding'], path).toBe('gzip');
      expect(refused.headers['content-encoding'], path).toBeUndefined();
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      if (path === css) {
        // The build's precompressed files decode to the file itself.
        expect(br.body.equals(plain.body)).toBe(true);
        expect(gzip.body.equals(plain.body)).toBe(true);
      }
    }
  });
});
