// The chain of custody in the browser, without JavaScript: a collection entered with its certificate, an
// Einlieferung linked to it and unlinked from its tab; a certificate assigned to an Ablieferung, its proof PDF,
// removed again; the trace of a delivery with certificates, and the warning for one without; and axe (WCAG 2.x
// A/AA) on every page of it, in both themes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf, themeOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const rows = (page: Page, heading: string) =>
  page.locator(`section:has(h2:text-is("${heading}")) tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent?.replace(/\s+/g, ' ').trim())));

describe('the chain of custody in the browser', () => {
  it('enters a collection with its certificate, links an Einlieferung to it and unlinks it again', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto('/de/bewegungsdaten/abholungen/neu');
    await page.getByRole('textbox', { name: 'Nummer', exact: true }).fill('BROWSER-AH1');
    await page.getByLabel('Lieferdatum').fill('2026-11-02');
    await page.locator('select[name=lieferstelleNr]').selectOption('1001');
    await page.locator('select[name=produktgruppe]').selectOption('biodiesel');
    await page.getByRole('textbox', { name: 'Kraftstoffmenge' }).fill('30000');
    const zertifikat = await page.locator('select[name=nachweise] option[value]:not([value=""])').first().getAttribute('value');
    await page.locator('select[name=nachweise]').selectOption(zertifikat!);
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anlegen' }).click());
    expect(pathOf(page)).toBe('/de/bewegungsdaten/abholungen/BROWSER-AH1');

    await submitAndWait(page, () => page.locator('#record-tabs').getByRole('link', { name: 'Zertifikate', exact: true }).click());
    expect((await rows(page, 'Zertifikate dieser Abholung'))[0][0]).toBe(zertifikat);

    await submitAndWait(page, () => page.locator('#record-tabs').getByRole('link', { name: 'Einlieferungen', exact: true }).click());
    // The suggestions: unlinked Einlieferungen of the group at the location.
    const einlieferung = await page.locator('#einlieferung-auswahl option').first().getAttribute('value');
    await page.getByLabel('Nummer der Einlieferung').fill(einlieferung!);
    await submitAndWait(page, () => page.getByRole('button', { name: 'Verknüpfen', exact: true }).click());
    expect((await rows(page, 'Verknüpfte Einlieferungen')).map((r) => r[0])).toEqual([einlieferung]);

    // The Einlieferung shows its collection, and the link status the list filters by.
    await page.goto(`/de/bewegungsdaten/einlieferungen/${einlieferung}?tab=abholung`);
    await expect(page.getByRole('link', { name: 'Abholung BROWSER-AH1 öffnen' }).isVisible()).resolves.toBe(true);
    await page.goto(`/de/bewegungsdaten/einlieferungen?q=${einlieferung}&verknuepfungStatus=nicht_verknuepft`);
    await expect(page.locator('table tbody tr a', { hasText: einlieferung! }).count()).resolves.toBe(0);

    await page.goto('/de/bewegungsdaten/abholungen/BROWSER-AH1?tab=einlieferungen');
    await submitAndWait(page, () => page.getByRole('button', { name: `Verknüpfung lösen (${einlieferung})` }).click());
    await expect(page.getByRole('heading', { name: 'Verknüpfte Einlieferungen' }).isVisible()).resolves.toBe(true);
    expect((await rows(page, 'Verknüpfte Einlieferungen')).flat().join(' ')).not.toContain(einlieferung);
  });

  it('assigns a certificate to an Ablieferung, offers its proof as PDF, removes it, and traces the delivery', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto('/de/bewegungsdaten/ablieferungen/neu');
    await page.getByRole('textbox', { name: 'Nummer', exact: true }).fill('BROWSER-AL1');
    await page.getByLabel('Lieferdatum').fill('2026-11-20');
    await page.getByRole('textbox', { name: 'Menge', exact: true }).fill('10000');
    await page.locator('select[name=partnerNr]').selectOption('TP001');
    await page.locator('select[name=standortNr]').selectOption('1001');
    await page.locator('select[name=produktNr]').selectOption('P016'); // Biodiesel B30: 3,000 L bio
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anlegen' }).click());

    // Without certificates, tracing first warns, and goes on only when asked to.
    await page.goto('/de/bewegungsdaten/nachweisverfolgung/BROWSER-AL1?art=ablieferung');
    await expect(page.getByRole('heading', { name: 'Keine Nachweise verfügbar' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Abbrechen' }).getAttribute('href')).resolves.toBe('/de/bewegungsdaten/nachweisverfolgung');
    await submitAndWait(page, () => page.getByRole('link', { name: 'Trotzdem fortfahren' }).click());
    await expect(page.locator('h1').textContent()).resolves.toContain('BROWSER-AL1');
    await expect(page.locator('.trace-tree').isVisible()).resolves.toBe(true);

    await page.goto('/de/bewegungsdaten/ablieferungen/BROWSER-AL1?tab=nachweise');
    const first = page.locator('section:has(#verfuegbar-heading) tbody tr').first();
    const nachweis = (await first.locator('th a').textContent())!.trim();
    await first.locator('input[name=volumen]').fill('1000');
    await submitAndWait(page, () => first.getByRole('button', { name: `Zuordnen (${nachweis})` }).click());
    const assigned = await rows(page, 'Zugeordnete Nachweise');
    expect(assigned[0][0]).toContain(nachweis);
    expect(assigned[0][1]).toMatch(/^NB-\d+$/);
    expect(assigned[0][2]).toBe('1.000 L');
    expect(assigned[0][3]).toBe('33,33 %');
    await expect(page.getByText('ohne endgültige', { exact: true }).first().isVisible()).resolves.toBe(true);

    const pdf = await page.request.get(await page.getByRole('link', { name: 'Nachweisbescheinigung (PDF)' }).getAttribute('href') as string);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');

    // The trace now runs back from the delivery through its proof to the certificate.
    await page.goto('/de/bewegungsdaten/nachweisverfolgung/BROWSER-AL1?art=ablieferung');
    const tree = page.locator('.trace-tree');
    await expect(tree.getByRole('link', { name: assigned[0][1]! }).isVisible()).resolves.toBe(true);
    await expect(tree.getByRole('link', { name: nachweis, exact: true }).first().isVisible()).resolves.toBe(true);

    await page.goto('/de/bewegungsdaten/ablieferungen/BROWSER-AL1?tab=nachweise');
    await submitAndWait(page, () => page.getByRole('button', { name: `Entfernen (${nachweis})` }).click());
    expect((await rows(page, 'Zugeordnete Nachweise'))[0][0]).toBe('Dieser Ablieferung sind noch keine Nachweise zugeordnet.');
  });
});

describe.each(['light', 'dark'] as const)('accessibility of the chain of custody, %s theme', (theme) => {
  let page: Page;
  beforeAll(async () => {
    page = await h.newPage({ theme });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
  });

  it.each([
    ['the collections', '/de/bewegungsdaten/abholungen'],
    ['the Einlieferungen with their link status', '/de/bewegungsdaten/einlieferungen?verknuepfungStatus=endgueltig'],
    ['the Ablieferungen with their certificate status', '/de/bewegungsdaten/ablieferungen?zertifikatStatus=ohne_endgueltige'],
    ['the tracing index', '/de/bewegungsdaten/nachweisverfolgung'],
    ['the English tracing index', '/en/bewegungsdaten/nachweisverfolgung'],
  ])('%s (%s)', async (_label, path) => {
    expect((await page.goto(path))?.status()).toBe(200);
    expect(await themeOf(page)).toBe(theme);
    await h.checkA11y(page);
  });

  it('a collection and its tabs, a linked Einlieferung\'s tab', async () => {
    await page.goto('/de/bewegungsdaten/abholungen');
    const href = await page.locator('table tbody tr a').first().getAttribute('href');
    for (const path of [href!, `${href}?tab=nachweise`, `${href}?tab=einlieferungen`]) {
      expect((await page.goto(path))?.status()).toBe(200);
      await h.checkA11y(page);
    }
    await page.goto('/de/bewegungsdaten/einlieferungen?verknuepfungStatus=vorlaeufig');
    const ein = await page.locator('table tbody tr a').first().getAttribute('href');
    expect((await page.goto(`${ein}?tab=abholung`))?.status()).toBe(200);
    await h.checkA11y(page);
  });

  it('an Ablieferung\'s certificates, its trace, and the warning of one without', async () => {
    await page.goto('/de/bewegungsdaten/ablieferungen?zertifikatStatus=mit_endgueltigen');
    const mit = (await page.locator('table tbody tr a').first().textContent())!.trim();
    await page.goto('/de/bewegungsdaten/ablieferungen?zertifikatStatus=keine');
    const ohne = (await page.locator('table tbody tr a').first().textContent())!.trim();
    for (const path of [
      `/de/bewegungsdaten/ablieferungen/${mit}?tab=nachweise`,
      `/de/bewegungsdaten/nachweisverfolgung/${mit}?art=ablieferung`,
      `/de/bewegungsdaten/nachweisverfolgung/${ohne}?art=ablieferung`,
    ]) {
      expect((await page.goto(path))?.status()).toBe(200);
      await h.checkA11y(page);
    }
  });
});
