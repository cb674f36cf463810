// axe (WCAG 2.0–2.2 A and AA rules) on every page the browser tests visit, in the light and the dark theme,
// and on the shell's transient states: the open no-permission dialog, a toast, the collapsed sidebar.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf, themeOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  let anonymous: Page;
  let choosing: Page;
  let admin: Page;
  beforeAll(async () => {
    anonymous = await h.newPage({ theme });
    choosing = await h.newPage({ theme });
    await h.signIn(choosing, 'ADMIN', 'Admin12345');
    admin = await h.newPage({ theme });
    await h.signIn(admin, 'ADMIN', 'Admin12345', 'DEMO');
  });

  async function visit(page: Page, path: string, status = 200) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    expect(await themeOf(page)).toBe(theme);
  }

  it.each([
    ['the home page', '/de', 200],
    ['the login page', '/de/login', 200],
    ['the English login page', '/en/login', 200],
    ['the 404 page', '/de/gibt-es-nicht', 404],
  ])('%s (%s) for anonymous visitors', async (_label, path, status) => {
    await visit(anonymous, path, status);
    await h.checkA11y(anonymous);
  });

  it('the tenant selection', async () => {
    expect(new URL(choosing.url()).pathname).toBe('/de/mandant-selection');
    expect(await themeOf(choosing)).toBe(theme);
    await h.checkA11y(choosing);
  });

  it.each([
    ['the dashboard', '/de/benutzer/dashboard', 200],
    ['the English dashboard', '/en/benutzer/dashboard', 200],
    ['a placeholder page', '/de/hilfe/faq', 200],
    ['the 404 page in the shell', '/de/gibt-es-nicht', 404],
    ['a list page with its exports', '/de/bewegungsdaten/einlieferungen?status=completed', 200],
    ['a list page with an unknown export format', '/de/bewegungsdaten/einlieferungen?format=docx', 400],
    ['the legal values with their history (system administrators)', '/de/benutzer/gesetzeswerte', 200],
  ])('%s (%s) when signed in', async (_label, path, status) => {
    await visit(admin, path, status);
    await h.checkA11y(admin);
  });

  it('the style guide page with its mounted island (/de/layouts/about)', async () => {
    await visit(admin, '/de/layouts/about');
    await admin.locator('[data-island="demo-counter"][data-island-mounted="true"]').waitFor();
    await h.checkA11y(admin);
  });

  it('the collapsed sidebar', async () => {
    await visit(admin, '/de/benutzer/dashboard');
    await admin.getByRole('button', { name: 'Seitenleiste einklappen' }).click();
    await admin.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().width === 72);
    await h.checkA11y(admin);
    await admin.getByRole('button', { name: 'Seitenleiste ausklappen' }).click();
    await admin.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().width === 256);
  });

  it('the open no-permission dialog', async () => {
    const page = await h.newPage({ theme });
    await h.signIn(page, 'LESER', 'Leser12345');
    await page.goto('/de/bewegungsdaten/einlieferungen');
    expect(pathOf(page)).toBe('/de/benutzer/dashboard');
    await page.waitForFunction(() => document.querySelector('dialog#no-permission-dialog')?.matches(':modal'));
    await h.checkA11y(page);
    await page.close();
  });

  it('the logout toast on the login page', async () => {
    const page = await h.newPage({ theme });
    await h.signIn(page, 'LESER', 'Leser12345');
    await submitAndWait(page, () => page.locator('.sidebar-footer').getByRole('button', { name: 'Abmelden' }).click());
    const toast = page.getByRole('status').filter({ hasText: 'Sie wurden abgemeldet.' });
    // Hovering holds the toast (as it does for a reader), so it stays while axe looks at it.
    await toast.hover();
    expect(await themeOf(page)).toBe(theme);
    await h.checkA11y(page);
    await page.close();
  });
});
