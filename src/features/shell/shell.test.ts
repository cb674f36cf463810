import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { PAGES } from '../../permissions/route-tree.js';
import { signIn } from '../../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('language prefixes', () => {
  it.each([
    ['/', '/de'],
    ['/login', '/de/login'],
    ['/thg-anzeige?x=1', '/de/thg-anzeige?x=1'],
    ['/fr/login', '/de/login'],
    ['/de-AT/sso', '/de/sso'],
    ['/bewegungsdaten/einlieferungen', '/de/bewegungsdaten/einlieferungen'],
  ])('%s redirects to %s', async (from, to) => {
    const res = await request(t.app).get(from);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(to);
  });

  it('sends an address without prefix to German even when a language cookie or header says English', async () => {
    const res = await request(t.app).get('/benutzer/dashboard?page=2').set('Cookie', 'locale=en').set('Accept-Language', 'en');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/de/benutzer/dashboard?page=2');
  });

  it('serves the login page in German and English', async () => {
    const de = await request(t.app).get('/de/login');
    expect(de.status).toBe(200);
    expect(de.text).toContain('<html lang="de"');
    expect(de.text).toContain('Anmeldung');
    const en = await request(t.app).get('/en/login');
    expect(en.text).toContain('<html lang="en"');
    expect(en.text).toContain('Sign in');
  });

  it('keeps languages apart between concurrent requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => request(t.app).get(i % 2 ? '/en/login' : '/de/login')),
    );
    results.forEach((res, i) => expect(res.text).toContain(i % 2 ? 'User name or e-mail' : 'Benutzername oder E-Mail'));
  });

  it('offers the same page in the other language', async () => {
    const res = await request(t.app).get('/de/login?redirect=%2Fde%2Fbenutzer%2Fdashboard');
    expect(res.text).toContain('href="/en/login?redirect=%2Fde%2Fbenutzer%2Fdashboard"');
  });
});

describe('not found and bad URLs', () => {
  it('answers unknown pages with a translated 404 page', async () => {
    const res = await request(t.app).get('/de/gibt-es-nicht');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Seite nicht gefunden');
    const en = await request(t.app).get('/en/no-such-page');
    expect(en.status).toBe(404);
    expect(en.text).toContain('Page not found');
  });

  it('answers unknown API paths with the JSON error shape: 401 before sign-in, 404 after', async () => {
    const anonymous = await request(t.app).get('/api/nichts').set('Accept', 'application/json');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, message: 'Nicht autorisiert - Bitte melden Sie sich an', code: 'UNAUTHORIZED', errors: [] });
    const login = await request(t.app).post('/api/v1/account/login').send({ login: 'LESER', password: 'Leser12345' });
    const res = await request(t.app).get('/api/nichts').set({ Authorization: login.body.token, 'X-Mandant': 'DEMO' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: expect.any(String), code: 'NOT_FOUND', errors: [] });
  });

  it.each([
    ['bad percent-encoding', '/de/%E0%A4%A'],
    ['an invalid escape in a detail id', '/de/bewegungsdaten/einlieferungen/%ZZ'],
    ['a lone percent sign', '/%'],
    ['a NUL byte in a record number', '/de/stammdaten/standorte/a%00b'],
    ['an overlong path', `/de/${'a'.repeat(5000)}`],
  ])('answers %s with 400 or 404, never 500', async (_label, path) => {
    const res = await request(t.app).get(path);
    expect([400, 404]).toContain(res.status);
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    expect(res.text).toMatch(/Seite nicht gefunden|Bitte überprüfen Sie Ihre Eingabe/);
  });
});

describe('health', () => {
  it('reports the database kind', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', db: t.db.kind });
  });
});

describe('protected pages', () => {
  it('sends anonymous visitors to the login page with the path as redirect', async () => {
    const res = await request(t.app).get('/en/bewegungsdaten/bilanzen/7');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/en/login?redirect=%2Fen%2Fbewegungsdaten%2Fbilanzen%2F7');
  });

  it('shows the sidebar entries a user may see and refuses the others', async () => {
    const leser = await signIn(t.app, 'leser', 'Leser12345');
    const dashboard = await leser.get('/de/benutzer/dashboard');
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain('href="/de/stammdaten/produkte"');
    expect(dashboard.text).toContain('href="/de/stammdaten/standorte"');
    expect(dashboard.text).not.toContain('href="/de/stammdaten/tauschpartner"');
    // No movement-data child is permitted, so the group is not shown at all.
    expect(dashboard.text).not.toContain('Bewegungsdaten</span></summary>');
    expect(dashboard.text).not.toContain('href="/de/bewegungsdaten/import"');

    const refused = await leser.get('/de/bewegungsdaten/einlieferungen');
    expect(refused.status).toBe(302);
    expect(refused.headers.location).toBe('/de/benutzer/dashboard');
    const after = await leser.get('/de/benutzer/dashboard');
    expect(after.text).toContain('id="no-permission-dialog"');
    expect(after.text).toMatch(/<dialog[^>]*id="no-permission-dialog"[^>]*open/);
  });

  it('offers the menu that opens the sidebar as a drawer only where there is a sidebar', async () => {
    const leser = await signIn(t.app, 'leser', 'Leser12345');
    const dashboard = await leser.get('/de/benutzer/dashboard');
    expect(dashboard.text).toMatch(/<a class="menu-button[^"]*" href="#sidebar" aria-controls="sidebar" data-drawer-open>/);
    expect(dashboard.text).toContain('<aside class="sidebar" id="sidebar"');
    expect(dashboard.text).toMatch(/data-drawer-close[^>]*aria-label="Menü schließen"/);
    // The tenant selection has the header but no sidebar: no menu pointing at nothing.
    const selection = await leser.get('/de/mandant-selection');
    expect(selection.status).toBe(200);
    expect(selection.text).toContain('class="app-header"');
    expect(selection.text).not.toContain('data-drawer-open');
  });

  it('answers a detail page with an id that does not exist with 404: placeholders have no records, their lists stay', async () => {
    const admin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    // Every detail route of the tree, built or placeholder: an id no record can have is the not-found page.
    for (const p of PAGES.filter((x) => x.path.includes(':id'))) {
      const res = await admin.get(`/de/${p.path.replace(':id', 'GIBT-ES-NICHT-999')}`);
      expect(res.status, p.path).toBe(404);
      expect(res.text, p.path).toContain('Datensatz nicht gefunden');
    }
    for (const path of ['bewegungsdaten/abholungen/GIBT-ES-NICHT', 'bewegungsdaten/bilanzen/999999', 'bewegungsdaten/bilanzen/0', 'bewegungsdaten/nachweisverfolgung/1', 'bewegungsdaten/pocs/1']) {
      expect((await admin.get(`/de/${path}`)).status, path).toBe(404);
    }
    for (const path of ['bewegungsdaten/bilanzen', 'bewegungsdaten/pocs']) {
      const list = await admin.get(`/de/${path}`);
      expect(list.status, path).toBe(200);
      expect(list.text, path).not.toContain('Diese Seite ist in Vorbereitung');
    }
    // The guard comes first: who may not open the area is sent to the dashboard, as for its list.
    const leser = await signIn(t.app, 'leser', 'Leser12345');
    expect((await leser.get('/de/bewegungsdaten/bilanzen/1')).headers.location).toBe('/de/benutzer/dashboard');
  });

  it('keeps admin pages for administrators and the tenant list for the system admin', async () => {
    const tadmin = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    expect((await tadmin.get('/de/benutzer/administration')).status).toBe(200);
    expect((await tadmin.get('/de/benutzer/mandanten')).headers.location).toBe('/de/benutzer/dashboard');
    const admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    expect((await admin.get('/de/benutzer/mandanten')).status).toBe(200);
    expect((await admin.get('/de/reports/logmeldungen')).headers.location).toBe('/de/benutzer/dashboard');
    const support = await signIn(t.app, 'SUPPORT', 'Support12345');
    expect((await support.get('/de/reports/logmeldungen')).status).toBe(200);
    expect((await support.get('/de/benutzer/administration')).headers.location).toBe('/de/benutzer/dashboard');
  });
});
