// The API keys page in Chromium: axe (WCAG 2.x A/AA) in the light and the dark theme, on a phone and a laptop
// without scrolling sideways (the list, the form, the page that shows a new key once, the confirmation); and
// without JavaScript a key is created, shown once and revoked (axe needs JavaScript, so it checks the other runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPages, startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

describe('the API keys page in the browser', () => {
  for (const [theme, width] of [['light', 390], ['dark', 1366]] as const) {
    it(`passes axe and fits ${width} px in the ${theme} theme`, async () => {
      const page = await h.newPage({ theme, viewport: { width, height: 900 } });
      await h.signIn(page, 'TADMIN', 'Tadmin12345', 'DEMO');
      await checkPages(h, page, ['/de/benutzer/api-keys', '/en/benutzer/api-keys']);
      // The confirmation before revoking the seeded tank system's key (the list's button posts; nothing changes).
      await submitAndWait(page, () => page.getByRole('row').filter({ hasText: 'Tankautomat Spandau' }).first().getByRole('button', { name: /Revoke/ }).click());
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Revoke API key “.+”\?$/);
      await h.checkA11y(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      // The page that shows a new key once.
      await page.goto('/de/benutzer/api-keys');
      await page.locator('#f-name').fill(`Axe ${theme}`);
      await page.getByLabel('9 EinlieferungRead').check();
      await submitAndWait(page, () => page.getByRole('button', { name: 'Schlüssel erstellen' }).click());
      expect(await page.locator('#api-key').inputValue()).toMatch(/^npk_DEMO_/);
      await h.checkA11y(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }, 120_000);
  }

  it('creates a key without JavaScript, shows it once, and revokes it after the confirmation', async () => {
    const page = await h.newPage({ javaScriptEnabled: false, viewport: { width: 1366, height: 900 } });
    await h.signIn(page, 'TADMIN', 'Tadmin12345', 'DEMO');
    await page.goto('/de/benutzer/api-keys');
    await page.locator('#f-name').fill('Browser-Schlüssel');
    await page.getByLabel('9 EinlieferungRead').check();
    await page.getByLabel('13 BestandRead').check();
    await page.locator('#f-standorte').selectOption(['1007']);
    await submitAndWait(page, () => page.getByRole('button', { name: 'Schlüssel erstellen' }).click());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API-Schlüssel erstellt');
    expect(await page.locator('#api-key').inputValue()).toMatch(/^npk_DEMO_/);

    await page.goto('/de/benutzer/api-keys');
    const row = page.getByRole('row').filter({ hasText: 'Browser-Schlüssel' });
    expect(await row.textContent()).toContain('1007 Tankstelle Berlin-Spandau');
    await submitAndWait(page, () => row.getByRole('button', { name: /Widerrufen/ }).click());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API-Schlüssel „Browser-Schlüssel“ widerrufen?');
    await submitAndWait(page, () => page.getByRole('button', { name: '„Browser-Schlüssel“ jetzt widerrufen' }).click());
    expect(await page.getByText('Der API-Schlüssel wurde widerrufen.').count()).toBeGreaterThan(0);
    expect(await page.getByRole('row').filter({ hasText: 'Browser-Schlüssel' }).textContent()).toContain('Widerrufen am');
  }, 120_000);
});
