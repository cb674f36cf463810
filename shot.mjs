import { chromium } from 'playwright-core';
const base = process.env.BASE || 'http://localhost:3101';
const [login, pw] = (process.env.WHO || 'ADMIN:Admin12345').split(':');
const pages = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
await page.goto(base + '/de/login');
await page.fill('input[name=login]', login);
await page.fill('input[name=password]', pw);
await page.locator('form:has(input[name=password]) button[type=submit]').click();
await page.waitForLoadState('networkidle');
if (page.url().includes('mandant')) { await page.locator('form:has(input[name=mandant]) button[type=submit]').click(); await page.waitForLoadState('networkidle'); }
console.log('after login', page.url());
for (const p of pages) {
  const [path, name] = p.split('=');
  await page.goto(base + path);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
  console.log(name, page.url());
}
await browser.close();
