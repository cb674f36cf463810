// Browser tests: the real app (createTestApp, so the same database choice as the integration tests) on a free
// port of 127.0.0.1, driven by Debian's Chromium through playwright-core. The pages load the Vite build from
// public/build, so `npm run test:browser` builds first. Each newPage() gets its own browser context: its own
// cookies, so one test's sign-in or theme never leaks into another's.
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Result as AxeResult } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Config } from '../config.js';
import { BUILD_DIR } from '../http/assets.js';
import { createTestApp, type TestApp } from './app.js';
import { ICON_HREF } from './sprite.js';

/** Debian's Chromium; never a browser downloaded by Playwright. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without --disable-background-networking Chromium keeps trying to reach Google's hosts, which this machine's
// closed network refuses; --no-sandbox because CI runs as root.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** WCAG 2.2 AA, as far as axe can check it automatically. */
export const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface NewPageOptions extends BrowserContextOptions {
  /** Starts with this theme cookie, as if the user had chosen it before (the toggle itself is tested separately). */
  theme?: 'light' | 'dark';
}

export interface BrowserHarness {
  /** http://127.0.0.1:PORT; pages also accept paths relative to it (`page.goto('/de/login')`). */
  baseUrl: string;
  testApp: TestApp;
  browser: Browser;
  /** A page in a fresh context (no cookies), 1280×800, German locale. */
  newPage(options?: NewPageOptions): Promise<Page>;
  /**
   * Signs in through the HTML login form like a user. Uses the login page the page is on (keeping its
   * ?redirect=), else opens /de/login. If sent to the tenant selection and `mandant` is given, picks it.
   */
  signIn(page: Page, login: string, password: string, mandant?: string): Promise<void>;
  /**
   * Runs axe with the WCAG 2.x A/AA tags; throws a readable list of the violations. `disableRules`: rules a page
   * answers otherwise, each with its reason where it is called. Then checks that every visible icon draws
   * (checkIcons).
   */
  checkA11y(page: Page, options?: { disableRules?: string[] }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens each path and checks what every page owes a user: the expected status, no axe violation, and nothing
 * that makes the page scroll sideways at the page's width.
 */
export async function checkPages(h: Pick<BrowserHarness, 'checkA11y'>, page: Page, paths: (string | [string, number])[]): Promise<void> {
  const width = page.viewportSize()?.width;
  for (const entry of paths) {
    const [path, status] = typeof entry === 'string' ? [entry, 200] : entry;
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(status);
    await h.checkA11y(page);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  }
}

function listen(testApp: TestApp): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = testApp.app.listen(0, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(server)));
  });
}

/** The next document the page loads (form posts and their redirects included). */
export async function submitAndWait(page: Page, click: () => Promise<void>) {
  const [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), click()]);
  return response;
}

/**
 * Every icon a user can see draws, from the one sprite file: an icon the server wrote, or one an island rendered
 * after mounting. Its symbol comes from another file (src/http/assets.ts), so a wrong address draws nothing, and an
 * icon button (a dialog's close, the theme's toggle) is then a button a sighted user cannot see. Waits for the
 * sprite, which the browser may still be fetching; names every icon that stays empty.
 */
export async function checkIcons(page: Page): Promise<void> {
  const undrawn = () =>
    page.locator('svg use').evaluateAll((uses, iconHref) =>
      uses
        .filter((u) => u.closest('svg')!.checkVisibility({ visibilityProperty: true }))
        .map((u) => ({ href: u.getAttribute('href') ?? '', width: (u as SVGUseElement).getBBox().width }))
        .filter((i) => !new RegExp(iconHref).test(i.href) || i.width === 0)
        .map((i) => i.href),
    ICON_HREF.source);
  await expect.poll(undrawn, { message: `icons that do not draw on ${page.url()}`, timeout: 5000 }).toEqual([]);
}

/**
 * Every visible required mark (`<span class="required">`, the field partials, the API-key form, the Bilanz
 * editor) stands on the line of the text before it: a lone asterisk at the start of a line, as the Stammdaten
 * import's legend had at 390 px, reads as belonging to nothing. Names each mark that wrapped.
 */
export async function checkRequiredMarks(page: Page): Promise<void> {
  const alone = await page.locator('.required').evaluateAll((marks) =>
    marks
      .filter((m) => m.checkVisibility({ visibilityProperty: true }))
      .filter((m) => {
        const before = document.createRange();
        before.setStart(m.parentNode!, 0);
        before.setEndBefore(m);
        const lines = [...before.getClientRects()].filter((r) => r.width > 0);
        const own = m.getClientRects()[0];
        // Nothing before it (a mark on its own by design) is not a wrapped one.
        return lines.length > 0 && own !== undefined && Math.abs(lines[lines.length - 1].top - own.top) > 2;
      })
      .map((m) => (m.parentElement?.textContent ?? '').trim().slice(0, 60)));
  expect(alone, `required marks alone on a line on ${page.url()}`).toEqual([]);
}

export function formatViolations(url: string, theme: string | null, violations: AxeResult[]): string {
  const lines = [`${violations.length} accessibility violation(s) on ${url} (theme: ${theme ?? 'unknown'}):`];
  for (const v of violations) {
    lines.push(`- ${v.id} [${v.impact ?? 'n/a'}]: ${v.help} (${v.helpUrl})`);
    for (const node of v.nodes) {
      lines.push(`    at ${node.target.map(String).join(' > ')}`);
      const summary = node.failureSummary?.split('\n').slice(1).join(' ').trim();
      if (summary) lines.push(`       ${summary.slice(0, 300)}`);
    }
  }
  return lines.join('\n');
}

/** `overrides` change the app's configuration, as for createTestApp (e.g. a short session idle time). */
export async function startBrowserApp(overrides: Partial<Config> = {}): Promise<BrowserHarness> {
  if (!existsSync(path.join(BUILD_DIR, '.vite', 'manifest.json'))) {
    throw new Error('public/build is missing: run the browser tests with `npm run test:browser` (it runs `vite build` first)');
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  }
  const testApp = await createTestApp(overrides);
  const server = await listen(testApp);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }).catch(async (err) => {
    server.close();
    await testApp.close();
    throw err;
  });
  const contexts = new Set<BrowserContext>();

  async function newPage({ theme, ...options }: NewPageOptions = {}): Promise<Page> {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1280, height: 800 },
      locale: 'de-DE',
      ...options,
    });
    contexts.add(context);
    context.on('close', () => contexts.delete(context));
    if (theme) await context.addCookies([{ name: 'theme', value: theme, url: baseUrl }]);
    // The server reads the build's manifest once at start; a `vite build` while the suite runs replaces the
    // hashed files, and pages then run without their scripts. Say so, instead of leaving a puzzling failure.
    context.on('response', (response) => {
      if (response.url().startsWith(`${baseUrl}/build/`) && response.status() >= 400) {
        console.warn(`browser tests: ${response.url()} answered ${response.status()}; was public/build rebuilt during the run?`);
      }
    });
    return context.newPage();
  }

  async function signIn(page: Page, login: string, password: string, mandant?: string): Promise<void> {
    const onLoginPage = page.url().startsWith(baseUrl) && /^\/(de|en)\/login$/.test(new URL(page.url()).pathname);
    if (!onLoginPage) await page.goto('/de/login');
    const form = page.locator('form[action$="/login"]');
    await form.locator('input[name="login"]').fill(login);
    await form.locator('input[name="password"]').fill(password);
    await submitAndWait(page, () => form.locator('button[type="submit"]').click());

    const after = new URL(page.url());
    if (/^\/(de|en)\/login$/.test(after.pathname)) {
      const alert = await page.locator('[role="alert"]').allTextContents();
      throw new Error(`sign-in of ${login} failed: ${alert.join(' ').trim() || 'still on the login page'}`);
    }
    if (/^\/(de|en)\/mandant-selection$/.test(after.pathname) && mandant) {
      const choice = page.locator(`input[type="radio"][name="mandant"][value="${mandant}"]`);
      if ((await choice.count()) === 0) throw new Error(`${login} cannot choose tenant ${mandant}`);
      await choice.check();
      await submitAndWait(page, () => page.locator('form[action$="/mandant-selection"] button[type="submit"]').click());
      if (new URL(page.url()).pathname.endsWith('/mandant-selection')) throw new Error(`choosing tenant ${mandant} failed`);
    }
  }

  async function checkA11y(page: Page, { disableRules = [] }: { disableRules?: string[] } = {}): Promise<void> {
    const results = await new AxeBuilder({ page }).withTags(A11Y_TAGS).disableRules(disableRules).analyze();
    if (results.violations.length > 0) {
      const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? null);
      throw new Error(formatViolations(page.url(), theme, results.violations));
    }
    await checkIcons(page);
    await checkRequiredMarks(page);
  }

  async function close(): Promise<void> {
    await Promise.allSettled([...contexts].map((c) => c.close()));
    await browser.close().catch(() => {});
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await testApp.close();
  }

  return { baseUrl, testApp, browser, newPage, signIn, checkA11y, close };
}
