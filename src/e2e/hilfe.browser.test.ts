// Help pages in the browser: the guide's search without JavaScript (the form, the results, a result's link to
// its section), the FAQ's search with its questions open, the videos page (nothing of a recording loads until
// played; playing shows the page language's captions), each axe-clean in both themes and nothing sticking out
// sideways at 390 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const PAGES = ['/de/hilfe/dokumentation?q=Importcode', '/de/hilfe/faq?q=Import', '/de/hilfe/hilfevideos', '/en/hilfe/dokumentation', '/de/benutzer/release-notes'];

/**
 * Elements of the main area whose right edge lies beyond the viewport, leaving out what is inside a box that
 * scrolls on its own (a wide table or code block scrolls in its frame; the frame itself must fit).
 */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const scrolls = (e: Element | null): boolean => {
      for (let p = e?.parentElement; p && p.tagName !== 'MAIN'; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !scrolls(e))
      .map((e) => `${e.tagName}.${e.className}`);
  });

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  let desk: Page;
  let phone: Page;
  beforeAll(async () => {
    desk = await h.newPage({ theme });
    await h.signIn(desk, 'USER', 'User12345', 'DEMO');
    phone = await h.newPage({ theme, viewport: { width: 390, height: 844 } });
    await h.signIn(phone, 'USER', 'User12345', 'DEMO');
  });

  it.each(PAGES)('%s passes axe at 1280 and at 390 px, where nothing sticks out sideways', async (path) => {
    await desk.goto(path);
    await h.checkA11y(desk);
    await phone.goto(path);
    // At this width tables and code scroll in their frames: still axe-clean (reachable by keyboard).
    await h.checkA11y(phone);
    expect(await overflowing(phone), path).toEqual([]);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }, 120_000);
});

it('searches the guide without JavaScript and follows a result to its section', async () => {
  const page = await h.newPage({ javaScriptEnabled: false });
  await h.signIn(page, 'USER', 'User12345', 'DEMO');
  await page.goto('/de/hilfe/dokumentation');
  await page.getByRole('searchbox', { name: 'In der Dokumentation suchen' }).fill('Importcode');
  await submitAndWait(page, () => page.getByRole('button', { name: 'Suchen' }).click());
  expect(pathOf(page)).toBe('/de/hilfe/dokumentation?q=Importcode');
  const results = page.getByRole('heading', { name: /Abschnitte enthalten „Importcode“/ });
  expect(await results.isVisible()).toBe(true);
  const first = page.locator('.treffer-liste li a').first();
  expect(await first.innerHTML()).toBe('<mark>Import-Code</mark>');
  await first.click();
  await page.waitForURL(/#import-code$/);
  // The section's heading is on screen, below the sticky header.
  const box = await page.locator('h2#import-code').boundingBox();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeLessThan(400);
});

it('the FAQ: a search opens the matching questions; without one they open by keyboard', async () => {
  const page = await h.newPage();
  await h.signIn(page, 'USER', 'User12345', 'DEMO');
  await page.goto('/de/hilfe/faq?q=Passwort');
  // The FAQ's own <details> (the sidebar's groups are details too).
  const open = page.locator('.faq details[open]');
  expect(await open.count()).toBeGreaterThan(0);
  expect(await open.count()).toBe(await page.locator('.faq details').count());
  expect(await open.first().locator('.accordion-body').isVisible()).toBe(true);
  await page.goto('/de/hilfe/faq');
  expect(await page.locator('.faq details[open]').count()).toBe(0);
  await page.locator('.faq details summary').first().focus();
  await page.keyboard.press('Enter');
  expect(await page.locator('.faq details').first().getAttribute('open')).toBe('');
});

it('the videos page loads no recording until one is played; playing shows the page language\'s captions', async () => {
  const page = await h.newPage();
  await h.signIn(page, 'USER', 'User12345', 'DEMO');
  const loaded: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/hilfevideos/')) loaded.push(new URL(r.url()).pathname);
  });
  await page.goto('/en/hilfe/hilfevideos');
  await page.waitForLoadState('networkidle');
  expect(loaded.filter((u) => u.endsWith('.webm'))).toEqual([]);
  const video = page.locator('video').first();
  const state = await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
    await new Promise((r) => setTimeout(r, 1500));
    v.pause();
    return { time: v.currentTime, error: v.error?.code ?? null, tracks: [...v.textTracks].map((t) => `${t.language}:${t.mode}`) };
  });
  expect(state.error).toBeNull();
  expect(state.time).toBeGreaterThan(0.5);
  expect(state.tracks).toEqual(['en:showing', 'de:disabled']);
  expect(loaded.filter((u) => u.endsWith('.webm'))).toEqual(['/hilfevideos/anmeldung.webm']);
});
