// The master-data import as a user does it in the browser: choose Standorte, pick a CSV file, see the preview,
// confirm, see the result; a faulty file shows its errors and no confirm button. axe on the upload page, the
// preview and the refusal, in the light and the dark theme.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf, themeOf } from './support.js';

let h: BrowserHarness;
const dir = mkdtempSync(path.join(tmpdir(), 'import-'));
const file = (name: string, lines: string[]) => {
  const p = path.join(dir, name);
  writeFileSync(p, `\ufeff${lines.join('\r\n')}\r\n`);
  return p;
};

beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

async function upload(page: Page, csvPath: string) {
  await page.goto('/de/stammdaten/import');
  await page.getByRole('radio', { name: 'Standorte' }).check();
  await page.getByLabel('Datei').setInputFiles(csvPath);
  await submitAndWait(page, () => page.getByRole('button', { name: 'Vorschau anzeigen' }).click());
}

describe.each(['light', 'dark'] as const)('import in the %s theme', (theme) => {
  let page: Page;
  beforeAll(async () => {
    page = await h.newPage({ theme });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
  });

  it('uploads a CSV, shows the preview, saves on confirmation and shows the result', async () => {
    await page.goto('/de/stammdaten/import');
    expect(await themeOf(page)).toBe(theme);
    await h.checkA11y(page);

    const nr = theme === 'light' ? '7701' : '7702';
    await upload(page, file(`standorte-${theme}.csv`, ['Nummer;Name;Ort;Quotenverpflichtet', `${nr};Tanklager Husum;Husum;ja`, '1002;Depot Hannover-Linden;Hannover;ja']));
    expect(pathOf(page)).toMatch(/^\/de\/stammdaten\/import\/[0-9a-f-]{36}$/);
    expect(await page.locator('h1').textContent()).toContain('Import Standorte: Vorschau');
    const table = page.getByRole('table', { name: 'Zeilen der Datei' });
    expect(await table.locator('tbody tr').count()).toBe(2);
    expect(await table.locator('tbody tr').first().textContent()).toContain('Wird angelegt');
    await h.checkA11y(page);

    await submitAndWait(page, () => page.getByRole('button', { name: 'Jetzt importieren' }).click());
    expect(await page.locator('.alert-success').first().textContent()).toContain('Der Import ist gespeichert.');
    expect(await page.locator('h1').textContent()).toContain('Ergebnis');
    await h.checkA11y(page);

    await page.goto(`/de/stammdaten/standorte/${nr}`);
    expect(await page.locator('h1').textContent()).toContain(nr);
  });

  it('shows a faulty file\'s errors in words and offers no confirmation', async () => {
    await upload(page, file(`fehler-${theme}.csv`, ['Nummer;Name;PLZ', `7801;;20457`, `7802;Lager;${'1'.repeat(30)}`]));
    const errors = page.getByRole('region', { name: 'Fehler' });
    expect(await errors.textContent()).toContain('Zeile 2, Spalte „Name“: Pflichtfeld');
    expect(await errors.textContent()).toContain('Zeile 3, Spalte „PLZ“: Zu lang');
    expect(await page.getByRole('button', { name: 'Jetzt importieren' }).count()).toBe(0);
    await h.checkA11y(page);
  });

  it('names wrong headers on the upload page', async () => {
    await upload(page, file(`kopf-${theme}.csv`, ['Nr;Bezeichnung', '1;x']));
    // The address bar shows the form's plain address: the CSRF token went in the body (issue 20 point 8).
    expect(page.url()).toBe(`${new URL(page.url()).origin}/de/stammdaten/import`);
    expect(await page.getByRole('alert').textContent()).toContain('„Bezeichnung“: unbekannte Spalte');
    await h.checkA11y(page);
  });
});
