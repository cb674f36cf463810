// Display preferences in the header and the sidebar: they switch at once with JavaScript, work as plain form
// posts without it, and the server renders the next page the same way from its first byte.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { SPRITE_FILE } from '../testing/sprite.js';
import { backgroundLuminance, pathOf, themeOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const HTML_THEME = (theme: string) => new RegExp(`<html[^>]*\\sdata-theme="${theme}"`);

describe('dark mode', () => {
  it('switches at once and comes back dark from the server after a reload', async () => {
    const page = await h.newPage();
    await page.goto('/de/login');
    expect(await themeOf(page)).toBe('light');
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.5);

    // A marker on the window survives only if the page is not reloaded.
    await page.evaluate(() => Object.assign(window, { samePage: true }));
    await page.getByRole('banner').getByRole('button', { name: 'Dunkles Farbschema' }).click();
    expect(await themeOf(page)).toBe('dark');
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    expect(await backgroundLuminance(page)).toBeLessThan(0.1);
    expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('true');
    // The button now offers the way back.
    expect(await page.getByRole('banner').getByRole('button', { name: 'Helles Farbschema' }).isVisible()).toBe(true);

    // The first HTML of the next page already says dark: no flash of the light theme.
    const reloaded = await page.reload();
    expect(await reloaded!.text()).toMatch(HTML_THEME('dark'));
    expect(await themeOf(page)).toBe('dark');

    await page.getByRole('banner').getByRole('button', { name: 'Helles Farbschema' }).click();
    expect(await themeOf(page)).toBe('light');
    const again = await page.reload();
    expect(await again!.text()).toMatch(HTML_THEME('light'));
  });

  it('works without JavaScript: the toggle posts and comes back to the same page', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await page.goto('/de/login?redirect=%2Fde%2Fhilfe%2Ffaq');
    expect(await themeOf(page)).toBe('light');

    const response = await submitAndWait(page, () => page.getByRole('button', { name: 'Dunkles Farbschema' }).click());
    expect(pathOf(page)).toBe('/de/login?redirect=%2Fde%2Fhilfe%2Ffaq');
    expect(await response!.text()).toMatch(HTML_THEME('dark'));
    expect(await themeOf(page)).toBe('dark');
    expect(await backgroundLuminance(page)).toBeLessThan(0.1);

    const reloaded = await page.reload();
    expect(await reloaded!.text()).toMatch(HTML_THEME('dark'));
  });
});

/** The icons of the page's header: where each points, and whether it draws (a symbol not loaded draws nothing). */
const headerIcons = (page: Page) =>
  page.locator('.app-header svg.icon use').evaluateAll((uses) =>
    uses.map((u) => ({ href: u.getAttribute('href') ?? '', drawn: (u as SVGUseElement).getBBox().width > 0 })),
  );

describe('icons', () => {
  it('are drawn from the one sprite file, also the theme icon the script swaps', async () => {
    const page = await h.newPage();
    await page.goto('/de/login');
    const before = await headerIcons(page);
    expect(before.length).toBeGreaterThan(0);
    const sprite = before[0].href.split('#')[0];
    expect(sprite).toMatch(SPRITE_FILE);
    await expect.poll(() => headerIcons(page)).toEqual(before.map((i) => ({ href: i.href, drawn: true })));
    expect(before.map((i) => i.href)).toContain(`${sprite}#i-moon`);

    await page.getByRole('banner').getByRole('button', { name: 'Dunkles Farbschema' }).click();
    await expect.poll(() => headerIcons(page)).toContainEqual({ href: `${sprite}#i-sun`, drawn: true });
  });
});

describe('sidebar', () => {
  const sidebarWidth = (page: Page) =>
    page.locator('#sidebar').evaluate((el) => el.getBoundingClientRect().width);
  /** Widths of the sidebar's text labels: a visually hidden label is at most 1 px wide. */
  const labelWidths = (page: Page) =>
    page.locator('#sidebar .label').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));

  it('collapses to icons with tooltips and stays collapsed after a reload', async () => {
    const page = await h.newPage();
    await h.signIn(page, 'ADMIN', 'Admin12345', 'DEMO');
    expect(pathOf(page)).toBe('/de/benutzer/dashboard');
    expect(await sidebarWidth(page)).toBe(256);
    expect(Math.min(...(await labelWidths(page)))).toBeGreaterThan(1);

    const collapse = page.getByRole('button', { name: 'Seitenleiste einklappen' });
    expect(await collapse.getAttribute('aria-expanded')).toBe('true');
    await collapse.click();
    await page.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().width === 72);

    const expand = page.getByRole('button', { name: 'Seitenleiste ausklappen' });
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    expect(Math.max(...(await labelWidths(page)))).toBeLessThanOrEqual(1);

    // The group titles keep their names for screen readers and show them as a tooltip on hover.
    const group = page.locator('#sidebar summary').first();
    const name = (await group.locator('.label').textContent())!.trim();
    expect(await group.getAttribute('data-tooltip')).toBe(name);
    await group.hover();
    expect(await group.evaluate((el) => getComputedStyle(el, '::after').content)).toBe(JSON.stringify(name));

    const reloaded = await page.reload();
    expect(await reloaded!.text()).toMatch(/<body class="[^"]*\bsidebar-collapsed\b/);
    expect(await sidebarWidth(page)).toBe(72);
    expect(await page.getByRole('button', { name: 'Seitenleiste ausklappen' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Seitenleiste ausklappen' }).click();
    await page.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().width === 256);
  });

  it('collapses without JavaScript too', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'ADMIN', 'Admin12345', 'DEMO');
    await page.goto('/de/hilfe/faq');
    const response = await submitAndWait(page, () => page.getByRole('button', { name: 'Seitenleiste einklappen' }).click());
    expect(pathOf(page)).toBe('/de/hilfe/faq');
    expect(await response!.text()).toMatch(/<body class="[^"]*\bsidebar-collapsed\b/);
    expect(await sidebarWidth(page)).toBe(72);
  });
});
