// The sidebar on long pages, as a user sees it: its column runs down to the bottom of the page, and its footer
// (the signed-in user's full name and e-mail, and the logout button) is in the window without scrolling
// anything, at the top of the page and at its bottom, on a desktop and on a phone (in the drawer the header's menu
// opens, src/e2e/shell.browser.test.ts); logging out from there
// works. Geometry is read from the page, never through Playwright's clicks, which would scroll a hidden
// footer into view and so pass where a user cannot see it. Plus axe on those pages in both themes.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const NAME = 'Ulrike Urban';
const EMAIL = 'user@demo-portal.example';
/** A list of 100 deliveries: many screens long. */
const LONG_LIST = '/de/bewegungsdaten/einlieferungen?pageSize=100';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

async function signedIn(viewport: { width: number; height: number }, theme?: 'light' | 'dark'): Promise<Page> {
  const page = await h.newPage({ viewport, theme });
  await h.signIn(page, 'USER', 'User12345', 'DEMO');
  return page;
}

/** Where the sidebar ends and how tall the page is, in page coordinates. */
const sidebarAndPage = (page: Page) =>
  page.evaluate(() => ({
    sidebarBottom: document.getElementById('sidebar')!.getBoundingClientRect().bottom + window.scrollY,
    pageHeight: document.documentElement.scrollHeight,
    pageWidth: document.documentElement.scrollWidth,
    windowHeight: window.innerHeight,
  }));

/** Whether the element lies wholly inside the window and is the topmost thing at its centre (not covered). */
const inWindow = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside && !!top && (el === top || el.contains(top));
  });

const scrollTo = (page: Page, where: 'top' | 'bottom') =>
  page.evaluate((w) => window.scrollTo(0, w === 'top' ? 0 : document.documentElement.scrollHeight), where);

const footerOf = (page: Page) => page.locator('#sidebar .sidebar-footer');
const logoutOf = (page: Page) => footerOf(page).getByRole('button', { name: 'Abmelden' });

/** The address of the first delivery of the long list (a detail page with its version history). */
async function firstDeliveryOf(page: Page): Promise<string> {
  await page.goto(LONG_LIST);
  return (await page.locator('table tbody a').first().getAttribute('href'))!;
}

async function expectLoggedOutAfterClick(page: Page) {
  await submitAndWait(page, () => logoutOf(page).click());
  expect(pathOf(page)).toBe('/de/login');
  await page.goto('/de/benutzer/dashboard');
  expect(new URL(page.url()).pathname).toBe('/de/login');
}

describe('desktop (1366 px)', () => {
  it('runs the sidebar to the bottom of a long page and keeps name, e-mail and logout in the window', async () => {
    const page = await signedIn(DESKTOP);
    const detail = await firstDeliveryOf(page);
    expect(detail).toMatch(/^\/de\/bewegungsdaten\/einlieferungen\/EL-\d+$/);
    for (const path of [LONG_LIST, detail]) {
      await page.goto(path);
      const size = await sidebarAndPage(page);
      expect(size.pageHeight, path).toBeGreaterThan(size.windowHeight * 1.5);
      expect(Math.abs(size.sidebarBottom - size.pageHeight), path).toBeLessThanOrEqual(1);

      const footer = footerOf(page);
      for (const where of ['top', 'bottom'] as const) {
        await scrollTo(page, where);
        expect(await inWindow(footer.getByText(NAME, { exact: true })), `${path}, name at the ${where}`).toBe(true);
        expect(await inWindow(footer.getByText(EMAIL, { exact: true })), `${path}, e-mail at the ${where}`).toBe(true);
        expect(await inWindow(logoutOf(page)), `${path}, logout at the ${where}`).toBe(true);
        // At the bottom of the window, not somewhere in the middle.
        const box = (await footer.boundingBox())!;
        expect(Math.abs(box.y + box.height - DESKTOP.height), `${path}, footer at the ${where}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('logs out with a POST form that carries the CSRF token', async () => {
    const page = await signedIn(DESKTOP);
    await page.goto(LONG_LIST);
    const form = footerOf(page).locator('form[action="/de/logout"]');
    expect(await form.getAttribute('method')).toBe('post');
    expect(await form.locator('input[name="_csrf"]').inputValue()).not.toBe('');
    await scrollTo(page, 'bottom');
    expect(await inWindow(logoutOf(page))).toBe(true);
    await expectLoggedOutAfterClick(page);
  });

  it('shows name and e-mail beside the collapsed sidebar while the logout button has focus', async () => {
    const page = await signedIn(DESKTOP);
    await page.goto(LONG_LIST);
    await page.getByRole('button', { name: 'Seitenleiste einklappen' }).click();
    await page.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().width === 72);
    const size = await sidebarAndPage(page);
    expect(Math.abs(size.sidebarBottom - size.pageHeight)).toBeLessThanOrEqual(1);
    await scrollTo(page, 'bottom');
    await logoutOf(page).focus();
    expect(await inWindow(footerOf(page).getByText(NAME, { exact: true }))).toBe(true);
    expect(await inWindow(footerOf(page).getByText(EMAIL, { exact: true }))).toBe(true);
    await h.checkA11y(page);
    await page.getByRole('button', { name: 'Seitenleiste ausklappen' }).click();
    await page.waitForFunction(() => document.getElementById('sidebar')!.getBoundingClientRect().width === 256);
  });
});

describe('phone (390 px)', () => {
  it('gives the page the whole width, and the menu opens the sidebar as a drawer with name, e-mail and logout in the window', async () => {
    const page = await signedIn(PHONE);
    await page.goto(LONG_LIST);
    const size = await sidebarAndPage(page);
    expect(size.pageWidth).toBe(PHONE.width);
    // No 72 px rail beside the content: the sidebar waits behind the header's menu button.
    expect(await page.locator('#sidebar').isVisible()).toBe(false);
    for (const where of ['top', 'bottom'] as const) {
      await scrollTo(page, where);
      await page.locator('.app-header [data-drawer-open]').click();
      expect(await inWindow(logoutOf(page)), `logout at the ${where}`).toBe(true);
      expect(await inWindow(footerOf(page).getByText(NAME, { exact: true })), `name at the ${where}`).toBe(true);
      expect(await inWindow(footerOf(page).getByText(EMAIL, { exact: true })), `e-mail at the ${where}`).toBe(true);
      await page.keyboard.press('Escape');
    }
    await page.locator('.app-header [data-drawer-open]').click();
    await expectLoggedOutAfterClick(page);
  });

  it('fits a delivery with its history into the width of the screen', async () => {
    const page = await signedIn(PHONE);
    await page.goto(`${await firstDeliveryOf(page)}?tab=versionen`);
    expect(await page.getByRole('heading', { name: 'Versionen' }).isVisible()).toBe(true);
    expect((await sidebarAndPage(page)).pageWidth).toBe(PHONE.width);
    await h.checkA11y(page);
  });
});

describe.each(['light', 'dark'] as const)('axe, %s theme', (theme) => {
  it.each([
    ['a long list on a desktop', DESKTOP],
    ['a long list on a phone', PHONE],
  ])('%s', async (_label, viewport) => {
    const page = await signedIn(viewport, theme);
    await page.goto(LONG_LIST);
    await scrollTo(page, 'bottom');
    await h.checkA11y(page);
    await page.close();
  });
});
