// The dashboard: each figure is the total of the list its tile links to (same filters, same user), tiles follow
// the user's rights and locations, and the page costs one statement for all its figures.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';
import { ThgAnzeigeService } from '../thg-anzeige/service.js';
import { TenantScope } from '../../db/scope.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { zeitraum } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Inbound deliveries at 1001 only, outbound at 1002 only, stock at 1003 only; no certificates, no Bilanzen.
  await createUserWithRoles(t.db.knex, 'DASHORT', 'Dashort12345', [{ typ: 9, standortNr: '1001' }, { typ: 11, standortNr: '1002' }, { typ: 13, standortNr: '1003' }]);
  await createUserWithRoles(t.db.knex, 'DASHLEER', 'Dashleer12345', []);
}, 60_000);
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const apiAs = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

/** The tiles' figures and links as the page shows them: [href, figure]. */
function figures(html: string): { href: string; wert: number }[] {
  return [...html.matchAll(/<a class="kennzahl-zahl" href="([^"]+)"[^>]*>([\d.,]+)<\/a>/g)].map((m) => ({ href: m[1].replace(/&amp;/g, '&'), wert: Number(m[2].replace(/\./g, '').replace(',', '.')) }));
}

/** The list API of a list page's address (same path below /api, same query). */
const apiOf = (href: string) => href.replace(/^\/de\/bewegungsdaten\//, '/api/').replace(/^\/de\/benutzer\/nachrichten.*/, '/api/nachrichten');

async function checkFiguresAgainstLists(login: string, password: string) {
  const agent = await signIn(t.app, login, password, 'DEMO');
  const page = await agent.get('/de/benutzer/dashboard');
  expect(page.status).toBe(200);
  const auth = await apiAs(login, password);
  const seen = figures(page.text).filter((f) => !f.href.includes('bilanzen?von='));
  for (const f of seen) {
    const res = await request(t.app).get(apiOf(f.href)).set(auth);
    expect(res.status, f.href).toBe(200);
    const total = f.href.includes('/nachrichten') ? res.body.ungelesen : res.body.total;
    expect(f.wert, f.href).toBe(total);
  }
  return { page, seen };
}

describe('Dashboard', () => {
  it('names the next expiry day of certificates with a rest, its count the total of the list it links to', async () => {
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const page = await agent.get('/de/benutzer/dashboard');
    const m = /<a href="(\/de\/bewegungsdaten\/nachweise\?laeuftAbVon=(\d{4}-\d{2}-\d{2})&amp;laeuftAbBis=(\d{4}-\d{2}-\d{2}))">Nächster Ablauf: (\d{2}\.\d{2}\.\d{4}), (\d+) Nachweise? mit Rest<\/a>/.exec(page.text);
    expect(m, 'next expiry line').not.toBeNull();
    const [, href, von, bis, datum, anzahl] = m!;
    expect(von).toBe(bis);
    expect(von >= heuteInDeutschland()).toBe(true);
    expect(datum).toBe(`${von.slice(8, 10)}.${von.slice(5, 7)}.${von.slice(0, 4)}`);
    const res = await request(t.app).get(apiOf(href.replace(/&amp;/g, '&'))).set(await apiAs('ADMIN', 'Admin12345'));
    expect(res.body.total).toBe(Number(anzahl));
    expect(Number(anzahl)).toBeGreaterThan(0);
  });

  it('shows for an administrator every tile, each figure the total of the list it links to', async () => {
    // A dated expiry rule that lets last year's certificates expire in ten days, so the expiring tile counts some
    // (under the default 15 April none of the demo's would expire within 30 days of most days).
    const heute = heuteInDeutschland();
    const in10 = zeitraum(heute).in30Tagen.slice(0, 4) === heute.slice(0, 4) ? new Date(Date.parse(`${heute}T00:00:00Z`) + 10 * 86_400_000).toISOString().slice(0, 10) : null;
    if (in10 && in10.slice(0, 4) === heute.slice(0, 4)) {
      await t.db.knex('gesetzeswerte').insert({ art: 'nachweis_ablauf', bezug: '', gueltig_ab: `${Number(heute.slice(0, 4)) - 1}-01-01`, wert_text: in10.slice(5) });
    }
    const { page, seen } = await checkFiguresAgainstLists('ADMIN', 'Admin12345');
    const z = zeitraum(heuteInDeutschland());
    for (const id of ['einlieferungen', 'ablieferungen', 'nachweise', 'bilanzen', 'thg', 'nachrichten', 'bestaende', 'importe']) expect(page.text).toContain(`id="kachel-${id}"`);
    // The links carry the filters of their figure.
    const hrefs = seen.map((f) => f.href);
    expect(hrefs).toContain(`/de/bewegungsdaten/einlieferungen?von=${z.monatAb}&bis=${z.heute}&storniert=false`);
    expect(hrefs).toContain(`/de/bewegungsdaten/ablieferungen?von=${z.vormonatAb}&bis=${z.vormonatBis}&storniert=false`);
    expect(hrefs).toContain('/de/bewegungsdaten/einlieferungen?status=open&storniert=false');
    expect(hrefs).toContain('/de/bewegungsdaten/ablieferungen?status=inProgress&storniert=false');
    expect(hrefs).toContain(`/de/bewegungsdaten/nachweise?laeuftAbVon=${z.heute}&laeuftAbBis=${z.in30Tagen}`);
    expect(hrefs).toContain('/de/bewegungsdaten/bilanzen?status=offen');
    // Figures that are not all zero: the demo's deliveries of this and last month, open ones, an open Bilanz.
    expect(seen.filter((f) => f.href.includes('einlieferungen')).some((f) => f.wert > 0)).toBe(true);
    if (in10) expect(seen.find((f) => f.href.includes('laeuftAbBis'))!.wert).toBeGreaterThan(0);
    // The seeded imports, with their counts.
    expect(page.text).toContain('einlieferungen-tanklager-hamburg.csv');
    expect(page.text).toContain('18 neu, 2 geändert, 0 unverändert');
    // No React, no island on the page.
    expect(page.text).not.toContain('data-island');
  });

  it('counts the THG saving of this year as the public display does', async () => {
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const page = await agent.get('/de/benutzer/dashboard');
    const display = await new ThgAnzeigeService(t.db.knex, { now: () => Date.now() }).zahlen(new TenantScope(t.db.knex, 'DEMO'), 'DEMO');
    const shown = page.text.match(/id="kachel-thg"[\s\S]*?<a class="kennzahl-zahl" href="[^"]+">([\d.,]+)<\/a>/)![1];
    expect(Number(shown.replace(/\./g, '').replace(',', '.'))).toBe(Number(display.jahr));
    expect(Number(display.jahr)).toBeGreaterThan(0);
  });

  it('sums the latest stock per product at each location, as the Bestände list shows them', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const page = await agent.get('/de/benutzer/dashboard');
    expect(page.text).toContain('role="img"');
    expect(page.text).toContain('<title id="bestand-chart-title">');
    const auth = await apiAs('USER', 'User12345');
    const rows = [...page.text.matchAll(/<tr><td><a href="([^"]+)">(\d+) · [^<]*<\/a><\/td><td class="zahl">([\d.,]+) L<\/td><\/tr>/g)];
    expect(rows.length).toBeGreaterThan(0);
    const heute = heuteInDeutschland();
    for (const [, href, nr, shown] of rows) {
      expect(href.replace(/&amp;/g, '&')).toBe(`/de/bewegungsdaten/bestaende?standortNr=${nr}&bis=${heute}`);
      const list = await request(t.app).get(`/api/bestaende?standortNr=${nr}&bis=${heute}&pageSize=500&sort=datum:desc`).set(auth);
      expect(list.body.total).toBeLessThanOrEqual(500);
      const latest = new Map<string, { datum: string; nr: number; volumen: number }>();
      for (const b of list.body.data) {
        const known = latest.get(b.produktNr);
        if (!known || b.datum > known.datum || (b.datum === known.datum && Number(b.nr) > known.nr)) latest.set(b.produktNr, { datum: b.datum, nr: Number(b.nr), volumen: Number(b.volumen) });
      }
      const sum = [...latest.values()].reduce((s, b) => s + b.volumen, 0);
      expect(Number(shown.replace(/\./g, '').replace(',', '.')), nr).toBe(Math.round(sum));
    }
  });

  it("limits each tile to the locations of the user's right for its area, and hides tiles of areas without a right", async () => {
    const { page, seen } = await checkFiguresAgainstLists('DASHORT', 'Dashort12345');
    for (const id of ['einlieferungen', 'ablieferungen', 'bestaende', 'nachrichten']) expect(page.text).toContain(`id="kachel-${id}"`);
    for (const id of ['nachweise', 'bilanzen', 'thg', 'importe']) expect(page.text).not.toContain(`id="kachel-${id}"`);
    // Its stock: location 1003 only.
    expect(page.text).toContain('1003 · ');
    expect(page.text).not.toMatch(/>100[124567] · /);
    // Fewer inbound deliveries than the administrator sees (1001 only).
    const admin = figures((await (await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO')).get('/de/benutzer/dashboard')).text);
    const open = (fs: typeof seen) => fs.find((f) => f.href.endsWith('einlieferungen?status=open&storniert=false'))!.wert;
    expect(open(seen)).toBeLessThan(open(admin));
  });

  it('shows a user without rights only the messages and the shortcuts; LESER (master data at 1001) no movement data', async () => {
    for (const [login, pw] of [['DASHLEER', 'Dashleer12345'], ['LESER', 'Leser12345']]) {
      const agent = await signIn(t.app, login, pw, 'DEMO');
      const page = await agent.get('/de/benutzer/dashboard');
      expect(page.status).toBe(200);
      expect(page.text).toContain('id="kachel-nachrichten"');
      for (const id of ['einlieferungen', 'ablieferungen', 'bestaende', 'nachweise', 'bilanzen', 'thg', 'importe']) expect(page.text, `${login} ${id}`).not.toContain(`id="kachel-${id}"`);
      expect(page.text).toContain('Ihre Bereiche');
    }
  });

  it("never counts another tenant's rows: NORD's dashboard equals NORD's lists", async () => {
    const { page } = await checkFiguresAgainstLists('ADMIN', 'Admin12345'); // DEMO
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'NORD');
    // Switch the session to NORD.
    const nord = await agent.get('/de/benutzer/dashboard');
    expect(nord.text).not.toContain('einlieferungen-tanklager-hamburg.csv');
    expect(nord.text).not.toContain('Tanklager Hamburg');
    expect(page.text).toContain('Tanklager Hamburg');
    const auth = await apiAs('ADMIN', 'Admin12345', 'NORD');
    for (const f of figures(nord.text).filter((x) => !x.href.includes('bilanzen?von='))) {
      const res = await request(t.app).get(apiOf(f.href)).set(auth);
      expect(f.wert, f.href).toBe(f.href.includes('/nachrichten') ? res.body.ungelesen : res.body.total);
    }
  });

  it('speaks English under /en', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    const page = await agent.get('/en/benutzer/dashboard');
    expect(page.text).toContain('Inbound deliveries');
    expect(page.text).toContain('Current stock per location');
    expect(page.text).toContain('href="/en/bewegungsdaten/einlieferungen?status=open&amp;storniert=false"');
  });
});
