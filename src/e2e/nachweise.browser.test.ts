// Certificates in the browser: one entered by hand through its grouped form, its figures with how each was
// computed (<details>), a split and its undo on the Teilung tab without JavaScript, a proof's tabs without
// JavaScript; and axe (WCAG 2.x A/AA) on the lists, a certificate, its split tab and a proof, in both themes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf, themeOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

/** Fills the certificate form: 10,000 L of UCO biodiesel with E = 10 from its parts (the worked example). */
async function fillZertifikat(page: Page, nr: string) {
  await page.getByRole('textbox', { name: 'Nummer', exact: true }).fill(nr);
  await page.getByLabel('Ausstellungsdatum').fill('2026-03-02');
  await page.getByLabel('Zeitraum von').fill('2026-01-01');
  await page.getByLabel('Zeitraum bis').fill('2026-03-31');
  await page.locator('select[name=standortNr]').selectOption('1001');
  await page.locator('select[name=produktNr]').selectOption('P013');
  await page.getByRole('textbox', { name: 'Menge', exact: true }).fill('10000');
  await page.getByLabel('Lieferung von').fill('2026-02-01');
  await page.getByLabel('Lieferung bis').fill('2026-02-15');
  await page.locator('select[name=rohstoff]').selectOption('altspeiseoel');
  await page.locator('select[name=herkunftsland]').selectOption('DE');
  await page.getByLabel('Inbetriebnahme der Anlage').fill('2019-05-01');
  await page.getByLabel('Abfall oder Reststoff').check();
  for (const [teil, wert] of [['eec', '0'], ['ep', '6,5'], ['etd', '3,5']]) await page.locator(`input[name=${teil}]`).fill(wert);
}

describe('a certificate in the browser', () => {
  it('is entered by hand in its groups, shows its figures and how they were computed, and is split and undone without JavaScript', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto('/de/bewegungsdaten/nachweise/neu');
    for (const legend of ['Dokument', 'Lieferung', 'Rohstoff und Herkunft', 'Emissionen (g CO₂-Äq/MJ)', 'Lieferant und Empfänger']) {
      await expect(page.locator('legend', { hasText: legend }).isVisible(), legend).resolves.toBe(true);
    }
    await fillZertifikat(page, 'BROWSER-Z1');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anlegen' }).click());
    expect(pathOf(page)).toBe('/de/bewegungsdaten/nachweise/BROWSER-Z1');

    const figures = page.locator('.kennzahlen-list');
    // The figures' card reads top to bottom: its intro under its heading, its list under the intro (the dashboard's
    // tile grid once took the card over through a shared class name and set them side by side).
    const card = page.locator('section[aria-labelledby="kennzahlen-heading"]');
    const [heading, intro, list] = await Promise.all([card.locator('h2'), card.locator('p.muted').first(), figures].map((l) => l.boundingBox()));
    expect(intro!.y).toBeGreaterThanOrEqual(heading!.y + heading!.height);
    expect(list!.y).toBeGreaterThanOrEqual(intro!.y + intro!.height);
    await expect(figures.locator('dd').nth(1).locator('strong').textContent()).resolves.toBe('89,36');
    await expect(figures.locator('dd').nth(4).locator('strong').textContent()).resolves.toBe('27,753');
    const how = figures.locator('details').nth(1);
    await expect(how.locator('code').isVisible()).resolves.toBe(false);
    await how.locator('summary').click();
    await expect(how.locator('code').textContent()).resolves.toBe('S = (94 − 10,00) / 94 × 100 = 89,36 %');

    await submitAndWait(page, () => page.getByRole('link', { name: 'Teilung' }).click());
    await page.getByLabel('Teil 1 (L)').fill('4000');
    await page.getByLabel('Teil 2 (L)').fill('1000');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Teilen' }).click());
    await expect(page.getByText('Das Zertifikat wurde geteilt.').first().isVisible()).resolves.toBe(true);
    await expect(page.getByText('Verbleibend: 5.000 L').isVisible()).resolves.toBe(true);
    const parts = await page.locator('#kette-heading ~ .table-wrap tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent?.trim())));
    expect(parts).toEqual([[expect.stringMatching(/^TN-\d+$/), '4.000 L', '4.000 L', 'Verfügbar'], [expect.stringMatching(/^TN-\d+$/), '1.000 L', '1.000 L', 'Verfügbar']]);

    // The first part shows where it came from, and its split is undone from its page.
    await submitAndWait(page, () => page.getByRole('link', { name: parts[0][0]! }).click());
    await expect(page.locator('h1').textContent()).resolves.toContain(parts[0][0]!);
    await expect(page.getByText('Dies ist ein Teilzertifikat').isVisible()).resolves.toBe(true);
    await submitAndWait(page, () => page.getByRole('button', { name: 'Teilung rückgängig machen' }).click());
    await expect(page.getByText('Die Teilung wurde rückgängig gemacht').first().isVisible()).resolves.toBe(true);
    await page.goto('/de/bewegungsdaten/nachweise/BROWSER-Z1?tab=teilung');
    await expect(page.getByText('Verbleibend: 9.000 L').isVisible()).resolves.toBe(true);
  });

  it('shows a refused split at its form, with what was typed', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto('/de/bewegungsdaten/nachweise/neu');
    await fillZertifikat(page, 'BROWSER-Z2');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anlegen' }).click());
    await page.goto('/de/bewegungsdaten/nachweise/BROWSER-Z2?tab=teilung');
    await page.getByLabel('Teil 1 (L)').fill('12000');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Teilen' }).click());
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Die Teile ergeben zusammen 12000 L, es verbleiben aber nur 10000 L.');
    await expect(page.getByLabel('Teil 1 (L)').inputValue()).resolves.toBe('12000');
  });
});

describe('a proof of delivery (Nachweisbescheinigung)', () => {
  it('is issued from a certificate and has the spec\'s tabs, each working without JavaScript', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto('/de/bewegungsdaten/nachweise/neu');
    await fillZertifikat(page, 'BROWSER-Z3');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anlegen' }).click());
    await page.goto('/de/bewegungsdaten/nachweisbescheinigungen/neu');
    await page.locator('select[name=nachweisNr]').selectOption('BROWSER-Z3');
    await page.getByRole('textbox', { name: 'Volumen', exact: true }).fill('2500');
    await page.getByLabel('Lieferdatum').fill('2026-03-10');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anlegen' }).click());
    expect(pathOf(page)).toMatch(/^\/de\/bewegungsdaten\/nachweisbescheinigungen\/NB-\d+$/);
    await expect(page.getByRole('heading', { name: 'Merkmale aus dem Zertifikat' }).isVisible()).resolves.toBe(true);
    const current = () => page.locator('#record-tabs a[aria-current="page"]').textContent();
    for (const tab of ['Einlieferungen', 'Abholungen', 'Ablieferungen']) {
      await submitAndWait(page, () => page.locator('#record-tabs').getByRole('link', { name: tab, exact: true }).click());
      await expect(current()).resolves.toBe(tab);
      await expect(page.getByRole('heading', { name: tab }).isVisible()).resolves.toBe(true);
    }
    await page.goto('/de/bewegungsdaten/nachweise/BROWSER-Z3');
    await expect(page.locator('.kennzahlen-list dd').nth(5).locator('strong').textContent()).resolves.toBe('7.500');
  });
});

describe.each(['light', 'dark'] as const)('accessibility of certificates, %s theme', (theme) => {
  let page: Page;
  beforeAll(async () => {
    page = await h.newPage({ theme });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
  });

  it.each([
    ['the certificate list', '/de/bewegungsdaten/nachweise'],
    ['the certificate list, with warnings', '/de/bewegungsdaten/nachweise?mitHinweisen=true'],
    ['the English certificate list', '/en/bewegungsdaten/nachweise'],
    ['the new certificate form', '/de/bewegungsdaten/nachweise/neu'],
    ['the proof list', '/de/bewegungsdaten/nachweisbescheinigungen'],
    ['the new proof form', '/de/bewegungsdaten/nachweisbescheinigungen/neu'],
  ])('%s (%s)', async (_label, path) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    expect(await themeOf(page)).toBe(theme);
    await h.checkA11y(page);
  });

  it('a certificate, its split tab and a proof', async () => {
    // The first certificate and proof of the list, whatever the demo data numbers them.
    await page.goto('/de/bewegungsdaten/nachweise?mitRest=true');
    const href = await page.locator('table tbody tr a').first().getAttribute('href');
    for (const path of [href!, `${href}?tab=teilung`]) {
      expect((await page.goto(path))?.status()).toBe(200);
      await page.locator('details').evaluateAll((ds) => ds.forEach((d) => d.setAttribute('open', '')));
      await h.checkA11y(page);
    }
    await page.goto('/de/bewegungsdaten/nachweisbescheinigungen');
    const nb = await page.locator('table tbody tr a').first().getAttribute('href');
    for (const path of [nb!, `${nb}?tab=abholungen`]) {
      expect((await page.goto(path))?.status()).toBe(200);
      await h.checkA11y(page);
    }
  });
});
