// The report pages in the browser: catalogue and generator (with a result, and with refusals) pass axe in the
// light and the dark theme and fit a phone (390 px) and a laptop (1366 px) without scrolling sideways (the
// result table scrolls inside its own region); the generator works without JavaScript, from the catalogue's
// link to the download links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPages, startBrowserApp, type BrowserHarness } from '../testing/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const heute = new Date().toISOString().slice(0, 10);
const vor60 = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
const SEITEN: [string, number][] = [
  ['/de/reports/liste', 200],
  [`/de/reports/auswertungen?erzeugen=1&bericht=mengenbilanz&startDate=${vor60}&endDate=${heute}`, 200],
  [`/en/reports/auswertungen?erzeugen=1&bericht=lieferungen-je-partner&startDate=${vor60}&endDate=${heute}`, 200],
  ['/de/reports/auswertungen?erzeugen=1&bericht=mengenbilanz&startDate=2025-03-10&endDate=2025-03-01&standort=9999', 400],
];

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  for (const width of [390, 1366]) {
    it(`passes axe and fits ${width} px`, async () => {
      const page = await h.newPage({ theme, viewport: { width, height: 900 } });
      await h.signIn(page, 'USER', 'User12345', 'DEMO');
      await checkPages(h, page, SEITEN);
    });
  }
});

it('from the catalogue to a result and its download, without JavaScript', async () => {
  const page = await h.newPage({ javaScriptEnabled: false });
  await h.signIn(page, 'USER', 'User12345', 'DEMO');
  await page.goto('/de/reports/liste');
  await page.getByRole('link', { name: 'Bericht erzeugen: Lieferungen je Partner' }).click();
  expect(await page.locator('#f-bericht').inputValue()).toBe('lieferungen-je-partner');
  await page.locator('#f-startDate').fill(vor60);
  await page.locator('#f-endDate').fill(heute);
  await page.getByRole('button', { name: 'Bericht erzeugen' }).click();
  await page.waitForURL(/erzeugen=1/);
  await expect(page.getByRole('heading', { name: 'Lieferungen je Partner', level: 2 }).isVisible()).resolves.toBe(true);
  expect(await page.getByRole('table').locator('tbody tr').count()).toBeGreaterThan(0);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`lieferungen-je-partner_${vor60}_${heute}.csv`);
  // Missing dates: the spec's message, and the focusable summary links to the fields.
  await page.goto('/de/reports/auswertungen?erzeugen=1&bericht=mengenbilanz');
  await expect(page.getByRole('alert').textContent()).resolves.toContain('Bitte füllen Sie die Pflichtfelder aus: Startdatum, Enddatum');
});

it('with JavaScript, the form offers only the parameters the chosen report takes, and sends only those', async () => {
  const page = await h.newPage();
  await h.signIn(page, 'USER', 'User12345', 'DEMO');
  await page.goto('/de/reports/auswertungen');
  await page.locator('#f-bericht').selectOption('quotenbericht');
  // The Quotenbericht takes the period and a location, no partner or product.
  await expect(page.locator('#f-partner').isVisible()).resolves.toBe(false);
  await expect(page.locator('#f-produkt').isVisible()).resolves.toBe(false);
  await expect(page.locator('#f-standort').isVisible()).resolves.toBe(true);
  await page.locator('#f-bericht').selectOption('mengenbilanz');
  await expect(page.locator('#f-partner').isVisible()).resolves.toBe(true);
  await page.locator('#f-bericht').selectOption('nachweis-kontoauszug');
  await page.locator('#f-startDate').fill(vor60);
  await page.locator('#f-endDate').fill(heute);
  await page.getByRole('button', { name: 'Bericht erzeugen' }).click();
  await page.waitForURL(/erzeugen=1/);
  const url = new URL(page.url());
  expect(url.searchParams.get('bericht')).toBe('nachweis-kontoauszug');
  expect(url.searchParams.has('partner')).toBe(false);
  expect(url.searchParams.has('standort')).toBe(true);
});
