// The dashboard and Nachrichten in Chromium: both pass axe (WCAG 2.x A/AA) in the light and the dark theme and fit
// a phone (390 px) and a laptop beside the sidebar (1366 px) without scrolling sideways; the stock chart is an
// image with its name, its bars inside the SVG; without JavaScript a message is marked read and the header's
// count follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPages, startBrowserApp, type BrowserHarness } from '../testing/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const SEITEN = ['/de/benutzer/dashboard', '/en/benutzer/dashboard', '/de/benutzer/nachrichten'];

describe('the dashboard and Nachrichten in the browser', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [390, 1366]) {
      it(`pass axe and fit ${width} px in the ${theme} theme (administrator: every tile and the form)`, async () => {
        const page = await h.newPage({ theme, viewport: { width, height: 900 } });
        await h.signIn(page, 'ADMIN', 'Admin12345', 'DEMO');
        await checkPages(h, page, SEITEN);
        await page.goto('/de/benutzer/dashboard');
        const chart = page.getByRole('img', { name: 'Balkendiagramm: aktueller Bestand je Standort in Litern' });
        expect(await chart.count()).toBe(1);
        // Every bar and value inside the chart's box.
        const inside = await page.locator('svg.bestand-chart').evaluate((svg) => {
          const box = svg.getBoundingClientRect();
          return [...svg.querySelectorAll('rect, text')].every((el) => el.getBoundingClientRect().right <= box.right + 1);
        });
        expect(inside).toBe(true);
      }, 120_000);
    }
  }

  it('marks a message read without JavaScript; the header count follows', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'USER', 'User12345', 'DEMO');
    await page.goto('/de/benutzer/nachrichten');
    const bell = page.locator('a.nachrichten-chip');
    expect(await bell.getAttribute('aria-label')).toBe('3 ungelesene Nachrichten');
    await page.locator('li.nachricht', { hasText: 'Neue Ansprechpartnerin für Nachweise' }).getByRole('button', { name: /Als gelesen markieren/ }).click();
    expect(await page.locator('a.nachrichten-chip').getAttribute('aria-label')).toBe('2 ungelesene Nachrichten');
    await page.getByRole('button', { name: 'Alle als gelesen markieren' }).click();
    expect(await page.locator('a.nachrichten-chip').getAttribute('aria-label')).toBe('Keine ungelesenen Nachrichten');
    // By keyboard: the link is in the tab order with its label.
    await page.locator('a.nachrichten-chip').focus();
    await Promise.all([page.waitForURL(/\/de\/benutzer\/nachrichten$/), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/de/benutzer/nachrichten');
  });
});
