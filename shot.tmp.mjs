import { chromium } from 'playwright-core';
const base = 'http://localhost:3911';
const [, , ...paths] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const width of [1366, 390]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(base + '/de/login');
  await page.fill('input[name=login]', 'USER');
  await page.fill('input[name=password]', 'User12345');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Anmelden' }).click()]);
  if (await page.$('form[action$="mandant-selection"]')) await Promise.all([page.waitForNavigation(), page.click('form[action$="mandant-selection"] button[type=submit]')]);
  for (const [i, p] of paths.entries()) {
    const r = await page.goto(base + p);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    console.log(width, p, r.status(), 'overflow', over);
    await page.screenshot({ path: `/tmp/rc/s${i}-${width}.png`, fullPage: true });
  }
  await page.close();
}
await browser.close();
