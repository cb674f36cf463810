// The shell on every screen (issue 20, points 4, 5 and 7): every page of the sidebar at a desktop's 1366 px and a
// phone's 390 px fits the screen's width, keeps "Abmelden" in the window without scrolling the sidebar (on the
// phone once the menu has opened the drawer) and is clean under axe in both themes; the drawer opens and closes by
// keyboard and without JavaScript; toasts keep clear of the header and the page's primary button; the session
// countdown says what it counts; a refused page is explained once; a tenant switch is confirmed.
// Geometry is read from the page (getBoundingClientRect), never through Playwright's clicks, which scroll an
// element into view and so would pass where a user cannot see it.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../permissions/route-tree.js';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf } from './support.js';

let h: BrowserHarness;
// The countdown shows after 2 s without activity (30 min idle time as usual), so its label can be read.
beforeAll(async () => {
  h = await startBrowserApp({ countdownAfterMs: 2_000 });
});
afterAll(() => h?.close());

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const LIST = '/de/bewegungsdaten/einlieferungen';

async function signedIn(viewport: { width: number; height: number }, options: { theme?: 'light' | 'dark'; javaScriptEnabled?: boolean; login?: [string, string] } = {}): Promise<Page> {
  const { theme, javaScriptEnabled, login = ['ADMIN', 'Admin12345'] } = options;
  const page = await h.newPage({ viewport, theme, javaScriptEnabled });
  await h.signIn(page, login[0], login[1], 'DEMO');
  return page;
}

/** Wholly inside the window and the topmost thing at its centre (not covered by anything). */
const inWindow = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside && !!top && (el === top || el.contains(top));
  });

const sidewaysOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const logoutOf = (page: Page) => page.locator('#sidebar .sidebar-footer').getByRole('button', { name: 'Abmelden' });
const menuOf = (page: Page) => page.locator('.app-header [data-drawer-open]');
const drawerShown = (page: Page) => page.locator('#sidebar').evaluate((el) => getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().width > 0);

/** The sidebar's pages as the signed-in user sees them; every one is a page of the route tree. */
async function sidebarPaths(page: Page): Promise<string[]> {
  await page.goto('/de/benutzer/dashboard');
  const hrefs = await page.locator('#sidebar-nav a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  const known = new Set(PAGES.filter((p) => p.inSidebar).map((p) => `/de/${p.path}`));
  for (const href of hrefs) expect(known.has(href), href).toBe(true);
  return hrefs;
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('every page of the sidebar on a %s', (label, viewport) => {
  it.each(['light', 'dark'] as const)('fits the width, keeps "Abmelden" in the window and passes axe (%s theme)', async (theme) => {
    const page = await signedIn(viewport, { theme });
    const paths = await sidebarPaths(page);
    // ADMIN in DEMO sees (nearly) the whole tree: the test covers what exists, not a sample.
    expect(paths.length).toBeGreaterThanOrEqual(PAGES.filter((p) => p.inSidebar).length - 2);
    for (const path of paths) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      expect(await sidewaysOf(page), `${path} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(0);
      if (label === 'phone') {
        expect(await drawerShown(page), `${path}: the drawer is closed at first`).toBe(false);
        await menuOf(page).click();
        expect(await drawerShown(page), `${path}: the menu opens the drawer`).toBe(true);
      }
      expect(await inWindow(logoutOf(page)), `${path}: Abmelden in the window`).toBe(true);
      await h.checkA11y(page);
      if (label === 'phone') {
        await page.keyboard.press('Escape');
        expect(await drawerShown(page)).toBe(false);
        await h.checkA11y(page);
      }
    }
    await page.context().close();
  }, 300_000);
});

describe('the drawer on a phone', () => {
  it('opens from the menu button by keyboard, takes focus in and keeps it there, closes with Escape and gives focus back', async () => {
    const page = await signedIn(PHONE, { login: ['USER', 'User12345'] });
    await page.goto(LIST);
    // The 72 px rail is gone: the content starts at the screen's edge.
    expect(await drawerShown(page)).toBe(false);
    expect((await page.locator('main').boundingBox())!.x).toBe(0);

    const menu = menuOf(page);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await drawerShown(page)).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#sidebar'))).toBe(true);
    // Full labels, the current page marked, and the footer at the bottom of the screen.
    expect(await inWindow(page.locator('#sidebar-nav a[aria-current="page"]'))).toBe(true);
    expect(await inWindow(page.locator('#sidebar .user-card'))).toBe(true);
    expect(await inWindow(logoutOf(page))).toBe(true);

    // Focus is trapped while it is open: Tab from its last control ("Abmelden") goes to its first (the close
    // button), Shift+Tab from the first back to the last, and Tab through all its controls never leaves it.
    const focusInDrawer = () => page.evaluate(() => !!document.activeElement?.closest('#sidebar'));
    const focused = () => page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el?.hasAttribute('data-drawer-close') ? 'close' : el?.textContent?.trim() ?? '';
    });
    expect(await focused()).toBe('close');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Abmelden');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('close');
    const stops = await page.locator('#sidebar').evaluate((el) => el.querySelectorAll('a[href], button, summary').length);
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDrawer(), `Tab ${i + 1} stays in the drawer`).toBe(true);
    }
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDrawer(), `Shift+Tab ${i + 1} stays in the drawer`).toBe(true);
    }
    expect(await drawerShown(page)).toBe(true);

    // Escape closes it from wherever focus is inside, and gives focus back to the menu button.
    await page.keyboard.press('Escape');
    expect(await drawerShown(page)).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-drawer-open'))).toBe(true);

    // Space opens it too (the link is a button now), and its close button closes it.
    await page.keyboard.press(' ');
    expect(await drawerShown(page)).toBe(true);
    await page.locator('#sidebar [data-drawer-close]').focus();
    await page.keyboard.press('Enter');
    expect(await drawerShown(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-drawer-open'))).toBe(true);

    // A page chosen in the drawer opens with the drawer closed.
    await menu.click();
    await submitAndWait(page, () => page.locator('#sidebar-nav a', { hasText: 'Ablieferungen' }).click());
    expect(pathOf(page)).toBe('/de/bewegungsdaten/ablieferungen');
    expect(await drawerShown(page)).toBe(false);
  });

  it('opens and closes without JavaScript, by keyboard', async () => {
    const page = await signedIn(PHONE, { javaScriptEnabled: false, login: ['USER', 'User12345'] });
    await page.goto(LIST);
    expect(await drawerShown(page)).toBe(false);
    await menuOf(page).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).hash).toBe('#sidebar');
    expect(await drawerShown(page)).toBe(true);
    expect(await inWindow(logoutOf(page))).toBe(true);
    expect(await inWindow(page.locator('#sidebar-nav a[aria-current="page"]'))).toBe(true);
    // (axe needs scripts in the page, so the open drawer is checked by the pages' test above, with JavaScript.)

    await page.locator('#sidebar [data-drawer-close]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).hash).toBe('#main');
    expect(await drawerShown(page)).toBe(false);
  });

  it('is no drawer on a desktop: the sidebar stands beside the page and there is no menu button', async () => {
    const page = await signedIn(DESKTOP, { login: ['USER', 'User12345'] });
    await page.goto(LIST);
    expect(await menuOf(page).isVisible()).toBe(false);
    expect(await page.locator('#sidebar .drawer-head').isVisible()).toBe(false);
    expect((await page.locator('#sidebar').boundingBox())!.width).toBe(256);
  });
});

describe('list filters', () => {
  it('fold into a "Filter" disclosure on a phone, open while a filter is active; always shown on a desktop', async () => {
    const phone = await signedIn(PHONE, { login: ['USER', 'User12345'] });
    await phone.goto(LIST);
    const summary = phone.locator('details[data-list-filters] > summary');
    expect(await summary.textContent()).toContain('Filter');
    expect(await phone.locator('#list-q').isVisible()).toBe(false);
    await summary.focus();
    await phone.keyboard.press('Enter');
    expect(await phone.locator('#list-q').isVisible()).toBe(true);
    await phone.goto(`${LIST}?q=EL`);
    expect(await phone.locator('#list-q').isVisible()).toBe(true);
    expect(await summary.textContent()).toContain('aktiv');

    const desktop = await signedIn(DESKTOP, { login: ['USER', 'User12345'] });
    await desktop.goto(LIST);
    expect(await desktop.locator('#list-q').isVisible()).toBe(true);
    expect(await desktop.locator('details[data-list-filters] > summary').isVisible()).toBe(false);
  });

  it('keep every row of a list on one line at 1366 px, a cut name with its full text as a tooltip', async () => {
    const page = await signedIn(DESKTOP, { login: ['USER', 'User12345'] });
    await page.goto(LIST);
    const rows = await page.locator('table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(rows.length).toBe(10);
    for (const height of rows) expect(height).toBeLessThan(48);
    expect(await page.locator('.table-wrap').evaluate((w) => w.scrollWidth - w.clientWidth)).toBeLessThanOrEqual(0);
    const cut = await page.locator('table tbody td').evaluateAll((cells) =>
      cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => ({ text: c.textContent!.trim(), title: c.getAttribute('title') })),
    );
    expect(cut.length).toBeGreaterThan(0);
    for (const c of cut) expect(c.title).toBe(c.text);
  });
});

describe('feedback', () => {
  /** Whether two boxes overlap. */
  const overlap = (a: DOMRect | { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('toasts keep clear of the header and the page\'s primary button (%s)', async (_label, viewport) => {
    const page = await signedIn(viewport, { login: ['USER', 'User12345'] });
    await page.goto(LIST);
    await page.evaluate(() => {
      const show = (window as unknown as { portalToast: (o: { title: string; description?: string }) => string }).portalToast;
      for (let i = 1; i <= 3; i++) show({ title: `Meldung ${i}`, description: 'Eine Beschreibung, die etwas länger ist, als eine Zeile fasst.' });
    });
    const toasts = page.locator('#toaster .toast');
    await toasts.nth(2).waitFor({ state: 'visible' });
    const header = (await page.locator('.app-header').boundingBox())!;
    const primary = (await page.locator('.page-head .btn-primary').boundingBox())!;
    // The header's controls one by one (menu, brand, bell, tenant, countdown, theme, language), not only its box.
    const controls = await page.locator('.app-header').evaluate((el) =>
      Array.from(el.querySelectorAll('a, button, [role="timer"]')).map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })),
    );
    expect(controls.length).toBeGreaterThan(3);
    for (let i = 0; i < 3; i++) {
      const box = (await toasts.nth(i).boundingBox())!;
      expect(overlap(box, header), `toast ${i + 1} over the header`).toBe(false);
      for (const c of controls) expect(overlap(box, c), `toast ${i + 1} over a header control`).toBe(false);
      expect(overlap(box, primary), `toast ${i + 1} over "Neu anlegen"`).toBe(false);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    expect(await inWindow(page.locator('.page-head .btn-primary'))).toBe(true);
  });

  it('confirms a tenant switch with a translated toast below the header', async () => {
    for (const [lang, text] of [['de', 'Mandant gewechselt.'], ['en', 'Tenant switched.']] as const) {
      const page = await signedIn(DESKTOP);
      await page.goto(`/${lang}/benutzer/dashboard`);
      await submitAndWait(page, () => page.locator('.mandant-chip').click());
      await page.locator('input[name="mandant"][value="NORD"]').check();
      await submitAndWait(page, () => page.locator('form[action$="/mandant-selection"] button[type="submit"]').click());
      expect(await page.locator('.mandant-chip').textContent()).toContain('NORD');
      const toast = page.locator('#toaster .toast', { hasText: text });
      await toast.waitFor({ state: 'visible' });
      expect(await toast.getByRole('status').textContent()).toBe(text);
      const header = (await page.locator('.app-header').boundingBox())!;
      expect(overlap((await toast.boundingBox())!, header)).toBe(false);
      // Choosing the tenant after sign-in is no switch: no toast then.
      await page.context().close();
    }
    const fresh = await h.newPage({ viewport: DESKTOP });
    await h.signIn(fresh, 'ADMIN', 'Admin12345', 'DEMO');
    expect(await fresh.locator('#toaster .toast').count()).toBe(0);
  });

  it('explains a refused page with the dialog alone, not with a toast as well', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const page = await signedIn(DESKTOP, { javaScriptEnabled, login: ['LESER', 'Leser12345'] });
      await page.goto(LIST);
      expect(pathOf(page)).toBe('/de/benutzer/dashboard');
      await page.getByRole('dialog', { name: 'Keine Berechtigung' }).waitFor({ state: 'visible' });
      expect(await page.locator('#toaster .toast').count()).toBe(0);
    }
  });

  it.each([
    ['desktop', DESKTOP, true],
    ['phone', PHONE, false],
  ] as const)('labels the session countdown and explains it in a tooltip (%s)', async (_label, viewport, wordsShown) => {
    const page = await signedIn(viewport, { login: ['USER', 'User12345'] });
    await page.goto(LIST);
    const countdown = page.locator('#session-countdown');
    await countdown.waitFor({ state: 'visible', timeout: 8_000 });
    expect((await countdown.textContent())!.trim()).toMatch(/^Abmeldung in \d\d:\d\d$/);
    expect(await countdown.getAttribute('title')).toMatch(/abgemeldet/);
    expect(await countdown.getAttribute('aria-label')).toBe('Verbleibende Sitzungszeit');
    expect(await countdown.locator('svg.icon').isVisible()).toBe(true);
    expect(await countdown.locator('.session-countdown-label').evaluate((el) => el.getBoundingClientRect().width > 1)).toBe(wordsShown);
    expect(await sidewaysOf(page)).toBeLessThanOrEqual(0);
    await h.checkA11y(page);
  });
});
