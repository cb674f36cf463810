// The public THG display in the browser: DEMO's display and its large-screen mode in the light and the dark
// theme pass axe, run no script and raise no error; at 1920 × 1080 the three figures are at least 96 px high,
// inside their tiles and on the screen; the theme link works without JavaScript; the administrators' page
// passes axe in both themes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, type BrowserHarness } from '../testing/browser.js';
import { backgroundLuminance, themeOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const DISPLAY = '/de/thg-anzeige/demo-thg-anzeige';
const WALL = { width: 1920, height: 1080 };

/** A page that records every script request, page error and console error. */
async function oeffnen(theme: 'light' | 'dark', options: Parameters<BrowserHarness['newPage']>[0] = {}) {
  const page = await h.newPage({ theme, ...options });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    if (r.resourceType() === 'script') problems.push(`script: ${r.url()}`);
  });
  return { page, problems };
}

/** The three figures: their text, font size and whether they fit their tile and the viewport. */
const zahlen = (page: Page) =>
  page.locator('.thg-zahl').evaluateAll((els) => els.map((el) => {
    const box = el.getBoundingClientRect();
    const tile = el.parentElement!.getBoundingClientRect();
    return {
      text: el.textContent,
      px: parseFloat(getComputedStyle(el).fontSize),
      passt: el.scrollWidth <= el.clientWidth + 1 && box.left >= tile.left && box.right <= tile.right + 1,
      sichtbar: box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth && box.height > 0,
    };
  }));

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  it('the display: figures, equivalents with their sources, axe clean, no script and no error', async () => {
    const { page, problems } = await oeffnen(theme);
    const res = await page.goto(DISPLAY);
    expect(res?.status()).toBe(200);
    expect(await themeOf(page)).toBe(theme);
    expect((await zahlen(page)).map((z) => z.text)).toHaveLength(3);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Demo Energiehandel GmbH');
    expect(await page.getByText('Autofahrten à 100 km').isVisible()).toBe(true);
    expect(await page.getByText('Schätzung je Pkw, nicht je Person', { exact: false }).isVisible()).toBe(true);
    await h.checkA11y(page);
    expect(problems).toEqual([]);
  });

  it('the large-screen mode at 1920 × 1080: figures of at least 96 px, within their tiles and on the screen; axe clean', async () => {
    const { page, problems } = await oeffnen(theme, { viewport: WALL });
    await page.goto(`${DISPLAY}?vollbild=1`);
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe('300');
    expect(await page.locator('header.app-header').count()).toBe(0);
    const z = await zahlen(page);
    expect(z).toHaveLength(3);
    // The whole display on one screen: its last line too.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(WALL.height);
    for (const x of z) {
      expect(x.px, x.text!).toBeGreaterThanOrEqual(96);
      expect(x.passt, `${x.text} fits its tile`).toBe(true);
      expect(x.sichtbar, `${x.text} is on the screen`).toBe(true);
    }
    // The strongest contrast each theme has: white on black, black on white.
    expect(await backgroundLuminance(page)).toBe(theme === 'dark' ? 0 : 1);
    // The reload every five minutes is this mode's purpose, chosen by a link that says so, and the page offers the
    // way out of it ("Automatische Aktualisierung beenden", WCAG 2.2.1: the user can turn it off): axe's rule
    // against any timed refresh is answered that way.
    expect(await page.getByRole('link', { name: 'Automatische Aktualisierung beenden' }).isVisible()).toBe(true);
    await h.checkA11y(page, { disableRules: ['meta-refresh'] });
    expect(problems).toEqual([]);
  });

  it('the page that explains the display, and the administrators\' page', async () => {
    const { page, problems } = await oeffnen(theme);
    await page.goto('/de/thg-anzeige');
    await h.checkA11y(page);
    expect(problems).toEqual([]);

    const admin = await h.newPage({ theme });
    await h.signIn(admin, 'TADMIN', 'Tadmin12345');
    await admin.goto('/de/benutzer/thg-anzeige');
    expect(await admin.getByLabel('Link der Anzeige').inputValue()).toMatch(/\/de\/thg-anzeige\/demo-thg-anzeige$/);
    await h.checkA11y(admin);
    // On a phone nothing sticks out sideways (the publication badge with its date and time wraps).
    const phone = await h.newPage({ theme, viewport: { width: 390, height: 900 } });
    await h.signIn(phone, 'TADMIN', 'Tadmin12345');
    await phone.goto('/de/benutzer/thg-anzeige');
    const ueberstand = await phone.evaluate(() => [...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((e) => `${e.tagName}.${e.className}`));
    expect(ueberstand).toEqual([]);
  });
});

it('switches the theme with a plain link, without JavaScript', async () => {
  const page = await h.newPage({ javaScriptEnabled: false });
  await page.goto(DISPLAY);
  expect(await themeOf(page)).toBe('light');
  await page.getByRole('link', { name: 'Dunkles Farbschema' }).click();
  await page.waitForURL(/thema=dunkel/);
  expect(await themeOf(page)).toBe('dark');
  expect(await backgroundLuminance(page)).toBeLessThan(0.1);
  await page.getByRole('link', { name: 'Vollbild für Wandanzeigen' }).click();
  await page.waitForURL(/vollbild=1/);
  expect(new URL(page.url()).search).toBe('?vollbild=1&thema=dunkel');
  expect(await themeOf(page)).toBe('dark');
});
