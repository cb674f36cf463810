import { afterAll, beforeAll, it } from 'vitest';
import { startBrowserApp, type BrowserHarness } from '../testing/browser.js';
let h: BrowserHarness;
beforeAll(async () => { h = await startBrowserApp(); });
afterAll(async () => { await h?.close(); });
const shots = JSON.parse(process.env.SHOTS ?? '[]') as [string, string, string, number][];
it('shots', async () => {
  for (const [login, password, path, width] of shots) {
    const page = await h.newPage({ viewport: { width, height: 900 } });
    await h.signIn(page, login, password, 'DEMO');
    await page.goto(path);
    const name = `${login}-${path.replace(/[^\w]+/g, '_')}-${width}`;
    await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
    await page.context().close();
  }
}, 120000);
