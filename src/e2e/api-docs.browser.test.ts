// The API description's page (/api/docs) in the browser: without sign-in, in both languages, it passes axe in the
// light and the dark theme and fits a phone (390 px) and a laptop (1366 px) without scrolling sideways.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkPages, startBrowserApp, type BrowserHarness } from '../testing/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  for (const width of [390, 1366]) {
    it(`passes axe and fits ${width} px`, async () => {
      const page = await h.newPage({ theme, viewport: { width, height: 900 } });
      await checkPages(h, page, ['/api/docs?lang=de', '/api/docs?lang=en']);
      // Every operation open: its parameter table must fit too.
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => d.setAttribute('open', '')));
      await h.checkA11y(page);
    });
  }
});
