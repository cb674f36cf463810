// The island mount loop on the style guide's about page: the server-rendered fallback stands on its own
// without JavaScript; with it, the demo counter mounts and counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserApp, type BrowserHarness } from '../testing/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const ISLAND = '[data-island="demo-counter"]';

describe('demo-counter island on /de/layouts/about', () => {
  it('shows its server-rendered fallback without JavaScript', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'LESER', 'Leser12345');
    await page.goto('/de/layouts/about');
    const island = page.locator(ISLAND);
    expect(await island.count()).toBe(1);
    expect(await island.isVisible()).toBe(true);
    expect((await island.innerText()).trim()).not.toBe('');
    expect(await island.getAttribute('data-island-mounted')).toBeNull();
  });

  it('mounts with JavaScript and counts up on its increment button', async () => {
    const page = await h.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await h.signIn(page, 'LESER', 'Leser12345');
    await page.goto('/de/layouts/about');

    const island = page.locator(`${ISLAND}[data-island-mounted="true"]`);
    await island.waitFor({ state: 'visible' });
    expect(await page.locator(ISLAND).getAttribute('data-island-failed')).toBeNull();

    // The button's name is the translated text the server handed to the island.
    const props = JSON.parse((await page.locator(ISLAND).getAttribute('data-props'))!) as { labels: { increment: string } };
    const count = island.getByTestId('count');
    const before = Number(await count.textContent());
    await island.getByRole('button', { name: props.labels.increment }).click();
    await page.waitForFunction(
      ([selector, expected]) => document.querySelector(`${selector} [data-testid="count"]`)?.textContent === String(expected),
      [ISLAND, before + 1] as const,
    );
    expect(Number(await count.textContent())).toBe(before + 1);
    expect(errors).toEqual([]);
  });
});
