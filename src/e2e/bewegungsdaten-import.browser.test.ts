// The movement-data import as a user does it in the browser: the import-code editor marks a faulty line as
// the user types (line number in the gutter, the problem in words below), the fix clears it, the example file
// uploaded with the code shows the first rows as they would be stored. axe on every state, light and dark.
// Screenshots of each state go to IMPORT_SCREENSHOTS (a folder) when set, for a person to look at.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf, themeOf } from './support.js';

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/import-beispiel-einlieferungen.csv');
const SHOTS = process.env.IMPORT_SCREENSHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe.each(['light', 'dark'] as const)('movement import in the %s theme', (theme) => {
  let page: Page;
  beforeAll(async () => {
    page = await h.newPage({ theme });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
  });

  it('marks a faulty line as the user types, clears it when fixed, and previews the example file', async () => {
    await page.goto('/de/bewegungsdaten/import');
    expect(await themeOf(page)).toBe(theme);
    await page.locator('[data-island="import-code-editor"][data-island-mounted="true"]').waitFor();
    const status = page.locator('#f-code-errors [role="status"]');
    expect(await status.textContent()).toContain('Der Import-Code ist gültig.');
    await h.checkA11y(page);
    await shot(page, `${theme}-1-editor`);

    const editor = page.getByRole('textbox', { name: 'Import-Code', exact: true });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('mengee = Spalte "Menge"');
    const lines = await editor.inputValue();
    const line = lines.split('\n').length;
    // The check runs while the user types: wait for the one of the whole line (halfway, the quote was still open).
    const error = page.locator('#f-code-errors li');
    await expect.poll(() => error.allTextContents()).toEqual([`Zeile ${line}: Unbekanntes Feld „mengee“. Meinten Sie „entladeneMenge“?`]);
    expect(await status.textContent()).toContain('1 Fehler im Import-Code');
    expect(await page.locator('.code-line-number.is-faulty').textContent()).toContain(String(line));
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    await h.checkA11y(page);
    await shot(page, `${theme}-2-error`);
    if (SHOTS) await page.locator('.code-field').screenshot({ path: path.join(SHOTS, `${theme}-2-editor.png`) });

    // The problem is a button that puts the caret on its line.
    await error.getByRole('button').click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-code');

    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('typ = "Zukauf"');
    await expect.poll(() => status.textContent()).toContain('Der Import-Code ist gültig.');
    expect(await page.locator('.code-line-number.is-faulty').count()).toBe(0);
    expect(await editor.getAttribute('aria-invalid')).toBeNull();

    await page.locator('input[type="file"][name="file"]').setInputFiles(EXAMPLE);
    await submitAndWait(page, () => page.getByRole('button', { name: 'Vorschau anzeigen' }).click());
    expect(pathOf(page)).toMatch(/^\/de\/bewegungsdaten\/import\/[0-9a-f-]{36}$/);
    expect(await page.locator('h1').textContent()).toContain('Import Einlieferungen: Vorschau');
    const table = page.getByRole('table', { name: 'So werden die Zeilen gespeichert' });
    const first = table.locator('tbody tr').first();
    expect(await table.locator('tbody tr').count()).toBe(5);
    const cells = await first.locator('td').allTextContents();
    expect(cells.map((c) => c.trim())).toEqual(expect.arrayContaining(['EL-2025-0001', 'Wird angelegt', '03.11.2025', 'Diesel', '31.500', 'L', '7', 'Offen']));
    expect(cells.some((c) => /^TP001 \(Version \d+\)$/.test(c.trim()))).toBe(true);
    await h.checkA11y(page);
    await shot(page, `${theme}-3-preview`);
  });

  it('shows the server\'s line errors without the island, in the page that answered the post', async () => {
    await page.goto('/de/bewegungsdaten/import?typ=ablieferungen');
    await page.locator('[data-island-mounted="true"]').waitFor();
    const editor = page.getByRole('textbox', { name: 'Import-Code', exact: true });
    await editor.fill('nr = Spalte "Belegnummer"\nlieferdatum = Spalte "Lieferdatum" | datum TT.MM');
    await page.locator('input[type="file"][name="file"]').setInputFiles(EXAMPLE);
    await submitAndWait(page, () => page.getByRole('button', { name: 'Vorschau anzeigen' }).click());
    expect(await page.getByRole('alert').first().textContent()).toContain('Der Import-Code enthält Fehler.');
    await page.locator('[data-island-mounted="true"]').waitFor();
    expect(await page.locator('#f-code-errors').textContent()).toContain('Zeile 2: Ungültiges Datumsformat „TT.MM“.');
    await h.checkA11y(page);
    await shot(page, `${theme}-4-refused`);
  });
});
