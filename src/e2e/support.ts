// Small readers shared by the browser tests: what the user's address bar and <html> element say.
import type { Page } from 'playwright-core';

/** Path and query of the page's current URL, as the address bar shows them below the host. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

export function themeOf(page: Page): Promise<string | null> {
  return page.locator('html').getAttribute('data-theme');
}

/** Relative luminance of the body background (0 black … 1 white): what the eye calls dark or light. */
export function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g)!.slice(0, 3).map(Number);
    const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  });
}
