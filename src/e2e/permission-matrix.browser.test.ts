// The permission matrix island: an admin ticks a right, saves, sees the toast; the user's open session sees
// the new sidebar entry on its next page. Plus axe on the matrix page in both themes, island mounted.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, type BrowserHarness } from '../testing/browser.js';

let h: BrowserHarness;
let leserId: number;
beforeAll(async () => {
  h = await startBrowserApp();
  leserId = (await h.testApp.db.knex('benutzer').where({ login: 'LESER' }).first('id')).id;
});
afterAll(() => h?.close());

const ISLAND = '[data-island="permission-matrix"]';
const matrixPath = () => `/de/benutzer/berechtigungsverwaltung?benutzer=${leserId}`;

async function openMatrix(page: Page) {
  await page.goto(matrixPath());
  // The island's one table (the fallback has one per scope); React renders just after the mount mark.
  await page.locator(`${ISLAND} table.permission-grid`).waitFor();
}

describe('permission matrix island', () => {
  it('grants write on Einlieferungen for all locations; the user sees the entry without signing in again', async () => {
    const leser = await h.newPage();
    await h.signIn(leser, 'LESER', 'Leser12345');
    expect(await leser.locator('#sidebar a[href="/de/bewegungsdaten/einlieferungen"]').count()).toBe(0);

    const admin = await h.newPage();
    const errors: string[] = [];
    admin.on('pageerror', (err) => errors.push(err.message));
    await h.signIn(admin, 'TADMIN', 'Tadmin12345');
    await openMatrix(admin);

    const write = admin.getByLabel('Einlieferungen – schreiben – Alle Standorte', { exact: true });
    const read = admin.getByLabel('Einlieferungen – lesen – Alle Standorte', { exact: true });
    expect(await write.isChecked()).toBe(false);
    await write.check();
    // Write implies read, at once.
    expect(await read.isChecked()).toBe(true);
    await expect(admin.locator('.permission-status').textContent()).resolves.toBe('Ungespeicherte Änderungen');

    await admin.getByRole('button', { name: 'Berechtigungen speichern' }).click();
    await admin.getByRole('status').filter({ hasText: 'Die Berechtigungen wurden gespeichert.' }).waitFor();
    const rows = await h.testApp.db.knex('rollen').where({ benutzer_id: leserId, mandant: 'DEMO' }).orderBy(['typ', 'standort_nr']).select('typ', 'standort_nr');
    expect(rows.map((r) => `${r.typ}@${r.standort_nr ?? ''}`)).toEqual(['1@1001', '3@1001', '9@', '10@']);
    expect(errors).toEqual([]);

    await leser.goto('/de/benutzer/dashboard');
    await leser.locator('#sidebar a[href="/de/bewegungsdaten/einlieferungen"]').waitFor();
  });

  it('adds a location column with the keyboard and keeps its checkboxes labelled', async () => {
    const admin = await h.newPage();
    await h.signIn(admin, 'TADMIN', 'Tadmin12345');
    await openMatrix(admin);
    await admin.getByLabel('Rechte für einen einzelnen Standort vergeben').selectOption('1003');
    await admin.getByRole('button', { name: 'Standort hinzufügen' }).press('Enter');
    const box = admin.getByLabel('Standorte – lesen – Standort 1003 – Tankstelle Bremen-Vegesack', { exact: true });
    await box.waitFor();
    // Focus moves into the new column, so the keyboard user can tick at once.
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await admin.keyboard.press('Space');
    expect(await box.isChecked()).toBe(true);
    await admin.getByRole('button', { name: 'Standort 1003 – Tankstelle Bremen-Vegesack entfernen' }).click();
    expect(await box.count()).toBe(0);
  });

  it('opens the no-permission dialog when saving is refused (the admin right was taken meanwhile)', async () => {
    const admin = await h.newPage();
    await h.signIn(admin, 'TADMIN', 'Tadmin12345');
    await openMatrix(admin);
    const knex = h.testApp.db.knex;
    const tadmin = (await knex('benutzer').where({ login: 'TADMIN' }).first('id')).id;
    const before = await knex('rollen').where({ benutzer_id: leserId }).count<{ count: string }[]>({ count: '*' });
    await knex('benutzer_mandanten').where({ benutzer_id: tadmin, mandant: 'DEMO' }).update({ admin_kz: false });
    try {
      await admin.getByLabel('Bilanzen – lesen – Alle Standorte', { exact: true }).check();
      await admin.getByRole('button', { name: 'Berechtigungen speichern' }).click();
      await admin.waitForFunction(() => document.querySelector('dialog#no-permission-dialog')?.matches(':modal'));
      expect(await knex('rollen').where({ benutzer_id: leserId }).count<{ count: string }[]>({ count: '*' })).toEqual(before);
    } finally {
      await knex('benutzer_mandanten').where({ benutzer_id: tadmin, mandant: 'DEMO' }).update({ admin_kz: true });
    }
  });

  it.each(['light', 'dark'] as const)('passes axe in the %s theme (mounted island and plain form)', async (theme) => {
    const admin = await h.newPage({ theme });
    await h.signIn(admin, 'TADMIN', 'Tadmin12345');
    await openMatrix(admin);
    expect(await admin.locator('html').getAttribute('data-theme')).toBe(theme);
    await h.checkA11y(admin);

    // The plain form as it stands without the island: the island loader is blocked (axe itself needs scripts).
    const plain = await h.newPage({ theme });
    await plain.route(/\/build\/assets\/main-[^/]*\.js$/, (route) => route.abort());
    await h.signIn(plain, 'TADMIN', 'Tadmin12345');
    await plain.goto(`${matrixPath()}&standort=1002`);
    // All locations, 1001 (LESER's rights there) and the added 1002.
    expect(await plain.locator(`${ISLAND} form[method="post"] fieldset`).count()).toBe(3);
    expect(await plain.locator(ISLAND).getAttribute('data-island-mounted')).toBeNull();
    await h.checkA11y(plain);
    for (const path of ['/de/benutzer/rollen', '/de/benutzer/berechtigungen']) {
      await admin.goto(path);
      await h.checkA11y(admin);
    }
  });
});
