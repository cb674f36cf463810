// Sign-in as a user does it: the code step of the second factor, tenant selection, the way back to the page
// the user came from, and the session countdown running out (with a shortened idle timeout).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor } from '../auth/mfa.js';
import { DEMO_TOTP_SECRET } from '../seeds/demo.js';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  // 12 s idle timeout, countdown after 2 s: the countdown reaches zero within the test.
  h = await startBrowserApp({ sessionIdleMs: 12_000, countdownAfterMs: 2_000 });
});
afterAll(() => h?.close());

async function credentials(page: Page, login: string, password: string) {
  const form = page.locator('form[action$="/login"]');
  await form.locator('input[name="login"]').fill(login);
  await form.locator('input[name="password"]').fill(password);
  await submitAndWait(page, () => form.locator('button[type="submit"]').click());
}

describe('sign-in in the browser', () => {
  it('asks a user with a second factor for the code, refuses a wrong one, and signs in with the right one', async () => {
    const page = await h.newPage();
    await page.goto('/de/hilfe/faq');
    expect(pathOf(page)).toBe('/de/login?redirect=%2Fde%2Fhilfe%2Ffaq');
    await credentials(page, 'mfa', 'Mfa12345');
    const code = page.getByLabel('Bestätigungscode');
    await expect(code.isVisible()).resolves.toBe(true);
    await h.checkA11y(page);

    await code.fill('000000');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Code bestätigen' }).click());
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('Ungültiger Code oder abgelaufener Token.');

    await page.getByLabel('Bestätigungscode').fill(await codeFor(DEMO_TOTP_SECRET, Date.now()));
    await submitAndWait(page, () => page.getByRole('button', { name: 'Code bestätigen' }).click());
    expect(pathOf(page)).toBe('/de/hilfe/faq');
    await expect(page.locator('h1').textContent()).resolves.toBe('FAQ');
  });

  it('lets a user with several tenants choose one and shows it in the header', async () => {
    const page = await h.newPage();
    await page.goto('/de/login');
    await credentials(page, 'USER', 'User12345');
    expect(pathOf(page)).toMatch(/^\/de\/mandant-selection/);
    await h.checkA11y(page);
    await page.getByLabel('NORD').check();
    await submitAndWait(page, () => page.getByRole('button', { name: 'Weiter' }).click());
    expect(pathOf(page)).toBe('/de/benutzer/dashboard');
    await expect(page.locator('.mandant-chip').textContent()).resolves.toContain('NORD');
    await expect(page.getByText('Sie arbeiten im Mandanten NORD.').isVisible()).resolves.toBe(true);
  });
});

describe('session countdown', () => {
  it('appears after the idle time, ticks, restarts on activity, and at zero logs out with the way back', async () => {
    const page = await h.newPage();
    await page.goto('/de/hilfe/dokumentation');
    await h.signIn(page, 'LESER', 'Leser12345');
    expect(pathOf(page)).toBe('/de/hilfe/dokumentation');

    const countdown = page.locator('#session-countdown');
    await countdown.waitFor({ state: 'visible', timeout: 6_000 });
    const first = await countdown.textContent();
    expect(first).toMatch(/^Abmeldung in 00:(0\d|1[0-2])$/);
    await page.waitForFunction((before) => document.getElementById('session-countdown')?.textContent !== before, first, { timeout: 3_000 });

    // Activity hides it again.
    await page.mouse.move(200, 300);
    await page.mouse.move(400, 500);
    await countdown.waitFor({ state: 'hidden', timeout: 2_000 });

    // Left alone, it runs out: logged out, on the login page, with the page to come back to.
    await page.waitForURL(/\/de\/login\?redirect=/, { timeout: 20_000 });
    expect(pathOf(page)).toBe('/de/login?redirect=%2Fde%2Fhilfe%2Fdokumentation&expired=1');
    await expect(page.getByText('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.').isVisible()).resolves.toBe(true);
    await page.goto('/de/hilfe/dokumentation');
    expect(pathOf(page)).toMatch(/^\/de\/login\?redirect=/);

    // Signing in again goes back to where the user was.
    await h.signIn(page, 'LESER', 'Leser12345');
    expect(pathOf(page)).toBe('/de/hilfe/dokumentation');
  });
});
