// Where a browser ends up: the language prefix rules, the way back to a protected page after signing in, and
// the language switch in the header, which keeps the page the user is on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, type BrowserHarness } from '../testing/browser.js';
import { pathOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

describe('redirect rules', () => {
  it.each([
    ['/', '/de', 'Nachhaltigkeit lückenlos nachweisen'],
    ['/login', '/de/login', 'Anmeldung'],
    ['/fr/login', '/de/login', 'Anmeldung'],
  ])('%s lands on %s', async (from, to, heading) => {
    const page = await h.newPage();
    const response = await page.goto(from);
    expect(pathOf(page)).toBe(to);
    expect(response?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
  });

  it('sends an anonymous visitor of the dashboard to the login page and back there after signing in', async () => {
    const page = await h.newPage();
    await page.goto('/de/benutzer/dashboard');
    expect(pathOf(page)).toBe('/de/login?redirect=%2Fde%2Fbenutzer%2Fdashboard');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Anmeldung');

    await h.signIn(page, 'LESER', 'Leser12345');
    expect(pathOf(page)).toBe('/de/benutzer/dashboard');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Willkommen, Lars Lehmann');
  });

  it('keeps the requested page through the tenant selection', async () => {
    // The dashboard is also where everyone lands by default; another page shows the redirect is really kept.
    const page = await h.newPage();
    await page.goto('/de/hilfe/faq');
    expect(pathOf(page)).toBe('/de/login?redirect=%2Fde%2Fhilfe%2Ffaq');

    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname + new URL(frame.url()).search);
    });
    await h.signIn(page, 'ADMIN', 'Admin12345', 'NORD');
    expect(visited).toContain('/de/mandant-selection?redirect=%2Fde%2Fhilfe%2Ffaq');
    expect(pathOf(page)).toBe('/de/hilfe/faq');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('FAQ');
    expect(await page.getByRole('link', { name: 'Mandant: NORD' }).isVisible()).toBe(true);
  });
});

describe('language switch', () => {
  it('switches the login page to English', async () => {
    const page = await h.newPage();
    await page.goto('/de/login');
    const languages = page.getByRole('navigation', { name: 'Sprache' });
    expect(await languages.getByRole('link', { name: /^DE/ }).getAttribute('aria-current')).toBe('true');

    await Promise.all([page.waitForURL('**/en/login'), languages.getByRole('link', { name: /^EN/ }).click()]);
    expect(pathOf(page)).toBe('/en/login');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    expect(await page.getByLabel('User name or e-mail').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: /^EN/ }).getAttribute('aria-current')).toBe('true');
  });

  it('keeps the rest of the path on a signed-in page', async () => {
    const page = await h.newPage();
    await h.signIn(page, 'LESER', 'Leser12345');
    await page.goto('/de/benutzer/dashboard');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Willkommen, Lars Lehmann');

    const languages = page.getByRole('navigation', { name: 'Sprache' });
    await Promise.all([page.waitForURL('**/en/benutzer/dashboard'), languages.getByRole('link', { name: /^EN/ }).click()]);
    expect(pathOf(page)).toBe('/en/benutzer/dashboard');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome, Lars Lehmann');
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
  });
});
