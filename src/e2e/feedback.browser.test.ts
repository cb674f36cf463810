// What the app tells the user after something happened: the toast after logging out, and the dialog when a
// page was refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const LOGGED_OUT = 'Sie wurden abgemeldet.';

describe('toast after logout', () => {
  it('shows "Sie wurden abgemeldet." and lets it go after a few seconds', async () => {
    const page = await h.newPage();
    await h.signIn(page, 'LESER', 'Leser12345');
    const logout = page.locator('.sidebar-footer').getByRole('button', { name: 'Abmelden' });
    await submitAndWait(page, () => logout.click());
    expect(pathOf(page)).toBe('/de/login');

    const toast = page.getByRole('region', { name: /Benachrichtigungen/ }).getByRole('listitem').filter({ hasText: LOGGED_OUT });
    await toast.waitFor({ state: 'visible' });
    // Screen readers get it as a status message.
    expect(await toast.getByRole('status').textContent()).toBe(LOGGED_OUT);
    // The shell gives every toast a close button.
    expect(await toast.getByRole('button', { name: 'Schließen' }).count()).toBe(1);
    // The timer is about 4 s; the generous timeout only guards against a slow machine.
    await toast.waitFor({ state: 'detached', timeout: 20_000 });

    // Really signed out: the dashboard asks for a login again.
    await page.goto('/de/benutzer/dashboard');
    expect(new URL(page.url()).pathname).toBe('/de/login');
  });

  it('is rendered by the server, so it shows without JavaScript too', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'LESER', 'Leser12345');
    const response = await submitAndWait(page, () => page.locator('.sidebar-footer').getByRole('button', { name: 'Abmelden' }).click());
    expect(pathOf(page)).toBe('/de/login');
    expect(await response!.text()).toContain(LOGGED_OUT);
    expect(await page.getByRole('status').filter({ hasText: LOGGED_OUT }).isVisible()).toBe(true);
  });
});

describe('no-permission dialog', () => {
  it('sends a reader away from a refused page and explains why in a modal dialog closed with Escape', async () => {
    const page = await h.newPage();
    await h.signIn(page, 'LESER', 'Leser12345');
    await page.goto('/de/bewegungsdaten/einlieferungen');
    expect(pathOf(page)).toBe('/de/benutzer/dashboard');

    const dialog = page.getByRole('dialog', { name: 'Keine Berechtigung' });
    await dialog.waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector('dialog#no-permission-dialog')?.matches(':modal'));
    // Focus is in the dialog, on its close button, so a keyboard user starts there.
    expect(await page.evaluate(() => document.activeElement?.closest('dialog')?.id)).toBe('no-permission-dialog');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Schließen');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Willkommen, Lars Lehmann');
  });

  it('closes with Enter on its focused button as well', async () => {
    const page = await h.newPage();
    await h.signIn(page, 'LESER', 'Leser12345');
    await page.goto('/de/bewegungsdaten/einlieferungen');
    const dialog = page.getByRole('dialog', { name: 'Keine Berechtigung' });
    await page.waitForFunction(() => document.querySelector('dialog#no-permission-dialog')?.matches(':modal'));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });

    // The message is shown once: the dashboard comes back without it.
    await page.reload();
    expect(await dialog.isVisible()).toBe(false);
  });

  it('is shown without JavaScript and closes with its button', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'LESER', 'Leser12345');
    await page.goto('/de/bewegungsdaten/einlieferungen');
    expect(pathOf(page)).toBe('/de/benutzer/dashboard');
    const dialog = page.getByRole('dialog', { name: 'Keine Berechtigung' });
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Schließen' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
  });
});
