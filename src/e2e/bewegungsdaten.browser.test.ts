// Movement data in the browser: an inbound delivery entered by hand through its form, found in the filtered
// list with its sum; a delivery cancelled from its page; a record's tabs without JavaScript; and axe (WCAG 2.x A/AA) on the lists, a delivery,
// a locked delivery and the stock form, in the light and the dark theme.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf, themeOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

describe('an inbound delivery in the browser', () => {
  it('is entered by hand, shown with the master data as they were, found by the filters with the right sum, and cancelled', async () => {
    const page = await h.newPage();
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto('/de/bewegungsdaten/einlieferungen');
    await submitAndWait(page, () => page.getByRole('link', { name: 'Neu anlegen' }).click());
    expect(pathOf(page)).toBe('/de/bewegungsdaten/einlieferungen/neu');

    await page.getByRole('textbox', { name: 'Nummer', exact: true }).fill('BROWSER-1');
    await page.getByLabel('Entladedatum').fill('2024-03-15');
    await page.locator('select[name=partnerNr]').selectOption('TP005');
    await page.locator('select[name=standortNr]').selectOption('1002');
    await page.locator('select[name=produktNr]').selectOption('P016');
    await page.getByRole('textbox', { name: 'Entladene Menge' }).fill('25.000,5');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anlegen' }).click());

    expect(pathOf(page)).toBe('/de/bewegungsdaten/einlieferungen/BROWSER-1');
    await expect(page.locator('h1').textContent()).resolves.toMatch(/Einlieferung BROWSER-1\s*Offen/);
    // A read view: the key figures with the quantity as stored and the names, the fields in their groups.
    await expect(page.locator('.key-figures').textContent()).resolves.toMatch(/25\.000,5 L[\s\S]*P016 · Biodiesel B30/);
    await expect(page.getByRole('heading', { name: 'Partner, Standort und Produkt' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('textbox').count()).resolves.toBe(0);
    await submitAndWait(page, () => page.getByRole('link', { name: 'Stammdatenstand' }).click());
    await expect(page.getByText('Von Hand erfasst').isVisible()).resolves.toBe(true);
    await expect(page.locator('#referenzen-heading + p + dl').textContent()).resolves.toMatch(/P016 · Biodiesel B30 \(Version 1\)/);

    await page.goto('/de/bewegungsdaten/einlieferungen?von=2024-03-15&bis=2024-03-15');
    const rows = await page.locator('table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent?.replace(/\s+/g, ' ').trim())));
    // Its link status to a collection under its status.
    expect(rows).toEqual([['BROWSER-1', '15.03.2024', expect.any(String), expect.stringContaining('Depot Hannover'), 'Biodiesel B30', '25.000,5 L', 'Offen Nicht verknüpft']]);
    await expect(page.locator('.list-totals').textContent()).resolves.toMatch(/Summe ohne Stornierte in Liter\s*25\.001/);

    // Cancelling asks first; "Abbrechen" there changes nothing.
    await page.goto('/de/bewegungsdaten/einlieferungen/BROWSER-1');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Stornieren' }).click());
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Stornieren: Einlieferung BROWSER-1?');
    await h.checkA11y(page);
    await submitAndWait(page, () => page.getByRole('link', { name: 'Abbrechen, nichts ändern' }).click());
    expect(pathOf(page)).toBe('/de/bewegungsdaten/einlieferungen/BROWSER-1');
    await expect(page.locator('h1').textContent()).resolves.not.toContain('Storniert');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Stornieren' }).click());
    await submitAndWait(page, () => page.getByRole('button', { name: 'Stornieren' }).click());
    await expect(page.getByText('Die Lieferung wurde storniert.').first().isVisible()).resolves.toBe(true);
    await expect(page.locator('h1').textContent()).resolves.toContain('Storniert');
    await page.goto('/de/bewegungsdaten/einlieferungen?von=2024-03-15&bis=2024-03-15');
    expect((await page.locator('table tbody tr td').last().textContent())?.trim()).toBe('Storniert');
    await expect(page.locator('.list-totals').textContent()).resolves.toMatch(/Summe ohne Stornierte in Liter\s*0/);
  });
});

describe('the tabs of a record', () => {
  it('work without JavaScript: each is a link to its own address, the current one marked', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'USER', 'User12345', 'DEMO');
    await page.goto('/de/bewegungsdaten/ablieferungen/AL-000010');
    const current = () => page.locator('#record-tabs a[aria-current="page"]').textContent();
    await expect(current()).resolves.toBe('Allgemein');
    await expect(page.locator('.key-figures').isVisible()).resolves.toBe(true);

    await submitAndWait(page, () => page.getByRole('link', { name: /^Versionen/ }).click());
    expect(page.url()).toMatch(/\/de\/bewegungsdaten\/ablieferungen\/AL-000010\?tab=versionen$/);
    await expect(current()).resolves.toMatch(/^Versionen\s*\d+$/);
    await expect(page.getByRole('heading', { name: 'Versionen' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('textbox', { name: 'Menge' }).count()).resolves.toBe(0);

    await submitAndWait(page, () => page.getByRole('link', { name: 'Stammdatenstand' }).click());
    await expect(page.locator('#referenzen-heading').isVisible()).resolves.toBe(true);

    await submitAndWait(page, () => page.getByRole('link', { name: 'Allgemein' }).click());
    expect(page.url()).toMatch(/\/AL-000010$/);
    await expect(page.locator('.key-figures').isVisible()).resolves.toBe(true);
    // USER only reads outbound deliveries: no form, no "Bearbeiten".
    await expect(page.getByRole('textbox').count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Bearbeiten' }).count()).resolves.toBe(0);
  });
});

describe.each(['light', 'dark'] as const)('accessibility of movement data, %s theme', (theme) => {
  let page: Page;
  beforeAll(async () => {
    page = await h.newPage({ theme });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
  });

  it.each([
    ['the inbound list, filtered', '/de/bewegungsdaten/einlieferungen?status=open'],
    ['a completed inbound delivery (read-only)', '/de/bewegungsdaten/einlieferungen/EL-000001'],
    ['the new inbound delivery form', '/de/bewegungsdaten/einlieferungen/neu'],
    ['the outbound list', '/de/bewegungsdaten/ablieferungen'],
    ['the English outbound list', '/en/bewegungsdaten/ablieferungen'],
    ['an outbound delivery', '/de/bewegungsdaten/ablieferungen/AL-000010'],
    ['an outbound delivery, its versions', '/de/bewegungsdaten/ablieferungen/AL-000010?tab=versionen'],
    ['an outbound delivery, its master data as recorded', '/de/bewegungsdaten/ablieferungen/AL-000010?tab=stammdaten'],
    ['the stock list', '/de/bewegungsdaten/bestaende'],
    ['the new stock form', '/de/bewegungsdaten/bestaende/create'],
    ['a stock figure', '/de/bewegungsdaten/bestaende/1'],
  ])('%s (%s)', async (_label, path) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    expect(await themeOf(page)).toBe(theme);
    await h.checkA11y(page);
  });
});
