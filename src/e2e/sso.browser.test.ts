// Single sign-on in Chromium as a user goes through it: the portal on 127.0.0.1, a real OpenID Connect provider
// (oidc-provider, src/testing/oidc-provider.ts) on localhost — another site, as every company's provider is.
// The provider's answer comes back by a top-level GET, so the SameSite=Lax session cookie that holds the
// sign-in's state, nonce and PKCE verifier comes with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPages, startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { startTestProvider, type TestProvider } from '../testing/oidc-provider.js';
import { pathOf } from './support.js';

let provider: TestProvider;
let h: BrowserHarness;

beforeAll(async () => {
  provider = await startTestProvider();
  h = await startBrowserApp({ sso: { issuer: provider.issuer, clientId: 'portal', clientSecret: 'portal-geheimnis', audience: 'portal' } });
  await provider.configure([
    { client_id: 'portal', client_secret: 'portal-geheimnis', redirect_uris: ['de', 'en'].map((l) => `${h.baseUrl}/${l}/sso/callback`) },
  ]);
});
afterAll(async () => {
  await h?.close();
  await provider?.close();
});

describe('single sign-on in the browser', () => {
  it('goes from the login page through the company\'s provider on another site to the dashboard', async () => {
    const page = await h.newPage();
    await page.goto('/de/login');
    await h.checkA11y(page);
    await submitAndWait(page, () => page.getByRole('link', { name: 'Mit Single Sign-on anmelden' }).click());
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    expect(new URL(page.url()).origin).not.toBe(new URL(h.baseUrl).origin);

    await page.locator('input[name="login"]').fill('tadmin');
    await page.locator('input[name="password"]').fill('beliebig');
    await submitAndWait(page, () => page.locator('button[type="submit"]').click());
    await page.waitForURL((url) => url.pathname === '/de/benutzer/dashboard');
    expect(pathOf(page)).toBe('/de/benutzer/dashboard');
    // Signed in for real, as TADMIN (the provider's "tadmin" by e-mail): the dashboard greets them, and a page
    // behind sign-in opens.
    await expect(page.locator('h1').first().textContent()).resolves.toBe('Willkommen, Thomas Teichmann');
    const faq = await page.goto('/de/hilfe/faq');
    expect(faq?.status()).toBe(200);
    expect(pathOf(page)).toBe('/de/hilfe/faq');
  });

  it('keeps the page the user came from, in English', async () => {
    const page = await h.newPage();
    await page.goto('/en/hilfe/faq');
    expect(pathOf(page)).toBe('/en/login?redirect=%2Fen%2Fhilfe%2Ffaq');
    await submitAndWait(page, () => page.getByRole('link', { name: 'Sign in with single sign-on' }).click());
    await page.locator('input[name="login"]').fill('tadmin');
    await page.locator('input[name="password"]').fill('beliebig');
    await submitAndWait(page, () => page.locator('button[type="submit"]').click());
    await page.waitForURL((url) => url.pathname === '/en/hilfe/faq');
    expect(pathOf(page)).toBe('/en/hilfe/faq');
  });

  it('shows the provider\'s refusal on the SSO page with a way to try again, accessible and without sideways scrolling on a phone', async () => {
    const page = await h.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto('/de/sso');
    await h.checkA11y(page);
    await submitAndWait(page, () => page.getByRole('link', { name: 'Weiter zur Anmeldung Ihres Unternehmens' }).click());
    await submitAndWait(page, () => page.getByRole('link', { name: '[ Cancel ]' }).click());
    await page.waitForURL((url) => url.pathname === '/de/sso/callback');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('hat die Anmeldung abgebrochen oder abgelehnt');
    await expect(page.getByRole('link', { name: 'Erneut über Ihr Unternehmen anmelden' }).isVisible()).resolves.toBe(true);
    await h.checkA11y(page);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    await checkPages(h, page, ['/de/login', '/de/sso', '/en/sso']);
  });
});
