// The Tankstelle's pages in Chromium: the three views and the settings form pass axe (WCAG 2.x A/AA) in the
// light and the dark theme, and fit a phone (390 px) and a laptop beside the sidebar (1366 px) without scrolling
// sideways; without JavaScript the gauge is as high as the fill level. (axe runs as a script, so the pages are
// checked as a browser with JavaScript shows them.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPages, startBrowserApp, type BrowserHarness } from '../testing/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const SEITEN = [
  '/de/bewegungsdaten/tankstelle-bestand?standort=1007&ansicht=tanks',
  '/de/bewegungsdaten/tankstelle-bestand?standort=1007&ansicht=zapfsaeulen',
  '/de/bewegungsdaten/tankstelle-bestand?standort=1007&ansicht=lieferkette&produkt=P021',
  '/en/bewegungsdaten/tankstelle-bestand?standort=1007&ansicht=lieferkette&produkt=P024',
  '/de/bewegungsdaten/tankstelle-bestand/einstellungen',
];

describe('the Tankstelle in the browser', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [390, 1366]) {
      it(`passes axe and fits ${width} px in the ${theme} theme`, async () => {
        const page = await h.newPage({ theme, viewport: { width, height: 900 } });
        await h.signIn(page, 'TADMIN', 'Tadmin12345');
        await checkPages(h, page, SEITEN);
      }, 120_000);
    }
  }

  it('without JavaScript, the gauge shows the fill level as its height', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'TADMIN', 'Tadmin12345');
    await page.goto(SEITEN[0]);
    const gauges = page.locator('.tank-gauge[role="img"]');
    expect(await gauges.count()).toBe(7);
    const [aussen, innen] = await gauges.first().evaluate((g) => [g.clientHeight, (g.firstElementChild as HTMLElement).getBoundingClientRect().height]);
    const label = (await gauges.first().getAttribute('aria-label'))!;
    const prozent = Number(/([\d,]+) %/.exec(label)![1].replace(',', '.'));
    expect(Math.abs(innen / aussen - prozent / 100)).toBeLessThan(0.02);
  });
});
