// The Tankstelle island in the browser, on the demo data (ADMIN in DEMO, location 1001 first): it switches views
// and locations without loading a page, the address following; it shows exactly the server page's markup for the
// same state; a failed load shows the spec's error and "Erneut versuchen" loads again; the view refreshes a
// minute after its last load, and not while the tab is hidden; without JavaScript the page and its links work;
// axe finds nothing in the tank, pump and chain views in either theme; tabs and location select work by
// keyboard. React is not loaded on a page without islands (the list of inbound deliveries).
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAssets } from '../http/assets.js';
import { startBrowserApp, submitAndWait, type BrowserHarness } from '../testing/browser.js';
import { pathOf } from './support.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserApp();
});
afterAll(() => h?.close());

const PFAD = '/de/bewegungsdaten/tankstelle-bestand';
const ISLAND = '[data-island="tankstelle"]';
const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/** Calls of the tank API (its base call, the pumps, the chain) the page made, by path and query. */
function apiAufrufe(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r: Request) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/tankstelle')) calls.push(url.pathname + url.search);
  });
  return calls;
}

/** The island has answered its first load: the time of the load shows (only the island writes it). */
const geladen = (page: Page) => page.locator(`${ISLAND}[data-island-mounted] .tankstelle-stand`).waitFor();

/** Signed-in page with the island loaded; page errors and API calls collected. `vorher` runs before the page opens. */
async function oeffnen(pfad = PFAD, options: Parameters<BrowserHarness['newPage']>[0] = {}, vorher?: (page: Page) => Promise<void>, warten = true) {
  const page = await h.newPage(options);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await h.signIn(page, 'ADMIN', 'Admin12345', 'DEMO');
  await vorher?.(page);
  const calls = apiAufrufe(page);
  await page.goto(pfad);
  if (warten) await geladen(page);
  return { page, errors, calls };
}

const tab = (page: Page, name: string) => page.locator(`${ISLAND} nav.tabs`).getByRole('link', { name, exact: true });
const aktuellerTab = (page: Page) => page.locator(`${ISLAND} nav.tabs a[aria-current="page"]`).textContent().then(text);
/** The switch has been shown: the panel is no longer busy and names the view. */
async function angezeigt(page: Page, ansicht: string) {
  await page.locator(`${ISLAND} .tankstelle-panel:not([aria-busy])`).waitFor();
  await page.waitForFunction(
    ([sel, name]) => {
      const panel = document.querySelector(`${sel} .tankstelle-panel`);
      const id = panel?.getAttribute('aria-labelledby');
      return !!id && document.getElementById(id)?.textContent?.trim() === name;
    },
    [ISLAND, ansicht] as const,
  );
}
const karten = (page: Page) => page.locator(`${ISLAND} .tank-card h3`).allTextContents().then((t) => t.map(text));
const pumpen = (page: Page) => page.locator(`${ISLAND} section.pumpe h3`).allTextContents().then((t) => t.map(text));

/** What the API says about a location, as ADMIN sees it (the page's own session). */
async function uebersicht(page: Page, standortNr: string) {
  const res = await page.request.get(`/api/tankstelle?standortNr=${standortNr}`, { headers: { 'X-Mandant': 'DEMO', Accept: 'application/json' } });
  expect(res.status()).toBe(200);
  return (await res.json()) as { standorte: { nr: string; name: string }[]; tanks: { produktNr: string; produktName: string }[] };
}

describe('the Tankstelle island', () => {
  it('switches views and locations without loading a page; the address follows', async () => {
    const { page, errors, calls } = await oeffnen();
    const u1001 = await uebersicht(page, '1001');
    const u1002 = await uebersicht(page, '1002');
    expect(await karten(page)).toEqual(u1001.tanks.map((t) => `${t.produktName} ${t.produktNr}`));
    expect(await aktuellerTab(page)).toBe('Tanks');
    // The first load has written the location the server chose into the address.
    expect(pathOf(page)).toBe(`${PFAD}?standort=1001&ansicht=tanks`);
    await page.evaluate(() => ((window as unknown as { __marker: string }).__marker = 'noch da'));
    const marker = () => page.evaluate(() => (window as unknown as { __marker?: string }).__marker);

    await tab(page, 'Zapfsäulen').click();
    expect(await aktuellerTab(page)).toBe('Zapfsäulen');
    await angezeigt(page, 'Zapfsäulen');
    expect((await pumpen(page)).length).toBeGreaterThan(0);
    expect(pathOf(page)).toBe(`${PFAD}?standort=1001&ansicht=zapfsaeulen`);
    await page.getByRole('status').filter({ hasText: 'Zapfsäulen von Tanklager Hamburg-Waltershof geladen.' }).waitFor({ state: 'attached' });

    await page.getByLabel('Standort', { exact: true }).selectOption('1002');
    await angezeigt(page, 'Zapfsäulen');
    await page.waitForFunction(() => location.search === '?standort=1002&ansicht=zapfsaeulen');
    await page.getByRole('status').filter({ hasText: 'Zapfsäulen von Depot Hannover-Linden geladen.' }).waitFor({ state: 'attached' });
    expect(await page.locator(`${ISLAND} .tankstelle-letzte tbody tr`).count()).toBe(10);

    await tab(page, 'Tanks').click();
    await angezeigt(page, 'Tanks');
    expect(await karten(page)).toEqual(u1002.tanks.map((t) => `${t.produktName} ${t.produktNr}`));
    expect(pathOf(page)).toBe(`${PFAD}?standort=1002&ansicht=tanks`);

    // A tank's chain link opens its supply chain in place; the tank select switches it.
    const [erster, zweiter] = u1002.tanks;
    await page.getByRole('link', { name: `Lieferkette von ${zweiter.produktName}` }).click();
    await angezeigt(page, 'Lieferkette');
    expect(pathOf(page)).toBe(`${PFAD}?standort=1002&ansicht=lieferkette&produkt=${zweiter.produktNr}`);
    await expect(page.locator(`${ISLAND} .tankstelle-panel h2`).first().textContent().then(text)).resolves.toBe(`Herkunft des Bio-Inhalts: ${zweiter.produktName}`);
    await page.getByLabel('Tank', { exact: true }).selectOption(erster.produktNr);
    await page.waitForFunction((p) => location.search.endsWith(`&produkt=${p}`), erster.produktNr);
    await page.locator(`${ISLAND} .tankstelle-panel h2`).filter({ hasText: `Herkunft des Bio-Inhalts: ${erster.produktName}` }).waitFor();

    // Nothing of this loaded a page; every switch was one or two API calls.
    expect(await marker()).toBe('noch da');
    expect(calls).toEqual(expect.arrayContaining([
      '/api/tankstelle?standortNr=1001', '/api/tankstelle/zapfsaeulen?standortNr=1001', '/api/tankstelle/zapfsaeulen?standortNr=1002',
      `/api/tankstelle/lieferkette?standortNr=1002&produktNr=${zweiter.produktNr}`, `/api/tankstelle/lieferkette?standortNr=1002&produktNr=${erster.produktNr}`,
    ]));
    // The address, opened anew, is the same view: shareable.
    await page.reload();
    await geladen(page);
    expect(await aktuellerTab(page)).toBe('Lieferkette');
    await expect(page.getByLabel('Tank', { exact: true }).inputValue()).resolves.toBe(erster.produktNr);
    expect(errors).toEqual([]);
  });

  it.each([['de', '1001'], ['en', '1007']] as const)('shows the server page\'s markup for the same state, in every view and every tank\'s chain (%s, %s)', async (lang, standort) => {
    const seite = `/${lang}/bewegungsdaten/tankstelle-bestand`;
    const { page, errors } = await oeffnen(`${seite}?standort=${standort}`);
    const tanks = (await uebersicht(page, standort)).tanks;
    expect(tanks.length).toBeGreaterThan(1);
    /**
     * Elements as tag, sorted attributes and children; text with its whitespace collapsed. Forms are compared on
     * their own below (the island's loads on change, without the button).
     */
    const kanonisch = (selector: string, html?: string) =>
      page.evaluate(([sel, source]) => {
        const canon = (node: Node): string => {
          if (node.nodeType === Node.TEXT_NODE) {
            const t = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
            return t ? JSON.stringify(t) : '';
          }
          if (!(node instanceof Element)) return '';
          if (node.matches('form')) return '<form/>';
          const attrs = [...node.attributes].map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort().join(' ');
          return `<${node.tagName.toLowerCase()} ${attrs}>${[...node.childNodes].map(canon).filter(Boolean).join('')}</>`;
        };
        const root = source ? new DOMParser().parseFromString(source, 'text/html') : document;
        const el = root.querySelector(sel)!.cloneNode(true) as Element;
        el.normalize();
        return [...el.childNodes].map(canon).filter(Boolean).join('\n');
      }, [selector, html ?? null] as const);
    const vergleiche = async (wo: string) => {
      const server = await (await page.request.get(pathOf(page))).text();
      expect(server).toContain('data-props=');
      for (const sel of [`${ISLAND} .tankstelle-panel`, `${ISLAND} .tankstelle-letzte`]) {
        const insel = await kanonisch(sel);
        expect(insel.length, `${wo}: ${sel}`).toBeGreaterThan(200);
        expect(insel, `${wo}: ${sel}`).toBe(await kanonisch(sel, server));
      }
    };
    const namen = lang === 'de' ? ['Tanks', 'Zapfsäulen', 'Lieferkette'] : ['Tanks', 'Pumps', 'Supply chain'];
    await vergleiche('tanks');
    await tab(page, namen[1]).click();
    await angezeigt(page, namen[1]);
    await vergleiche('zapfsaeulen');
    await tab(page, namen[2]).click();
    await angezeigt(page, namen[2]);
    await vergleiche(`lieferkette ${tanks[0].produktNr}`);
    // The chain's tank select: the same label and choices as the server's form; every tank's chain alike.
    const wahl = await page.locator(`${ISLAND} #tankstelle-produkt option`).allTextContents();
    expect(wahl).toEqual(tanks.map((t) => `${t.produktNr} · ${t.produktName}`));
    await expect(page.locator(`${ISLAND} label[for="tankstelle-produkt"]`).textContent()).resolves.toBe('Tank');
    for (const t of tanks.slice(1)) {
      await page.locator(`${ISLAND} #tankstelle-produkt`).selectOption(t.produktNr);
      await page.waitForFunction((p) => location.search.endsWith(`&produkt=${p}`), t.produktNr);
      await angezeigt(page, namen[2]);
      await vergleiche(`lieferkette ${t.produktNr}`);
    }
    expect(errors).toEqual([]);
  });

  it('shows the error of a failed load with "Erneut versuchen", which loads again', async () => {
    let basis = 0;
    let pumpen_ = 0;
    const kaputt = { status: 500, contentType: 'application/json', headers: { 'X-Mandant': 'DEMO' }, body: JSON.stringify({ success: false, code: 'INTERNAL', message: 'kaputt' }) };
    const { page, errors } = await oeffnen(PFAD, {}, async (p) => {
      // The first base call and the first pump call fail; later ones go through.
      await p.route((url) => url.pathname === '/api/tankstelle', (route) => (basis++ === 0 ? route.fulfill(kaputt) : route.continue()));
      await p.route((url) => url.pathname === '/api/tankstelle/zapfsaeulen', (route) => (pumpen_++ === 0 ? route.fulfill(kaputt) : route.continue()));
    }, false);
    const alert = page.locator(`${ISLAND} [role="alert"]`);
    await alert.waitFor();
    expect(await alert.locator('p').allTextContents()).toEqual(['Die Daten der Tankstelle konnten nicht geladen werden.', 'Erneut versuchen']);
    const erneut = page.getByRole('button', { name: 'Erneut versuchen' });
    expect(await erneut.isVisible()).toBe(true);
    // The server's page stays below it, as it came.
    expect(await page.locator(`${ISLAND} .tankstelle-vorab .tank-card`).count()).toBeGreaterThan(0);
    // The live region that will say what was loaded exists already (a region appearing with its text is not announced).
    await page.locator(`${ISLAND} > [role="status"]`).evaluate((el) => el.setAttribute('data-vorher', ''));
    await erneut.click();
    await geladen(page);
    expect(await page.locator(`${ISLAND} > [role="status"][data-vorher]`).count()).toBe(1);
    expect(await alert.count()).toBe(0);
    expect((await karten(page)).length).toBe((await uebersicht(page, '1001')).tanks.length);
    expect(await page.locator(`${ISLAND} .tankstelle-vorab`).count()).toBe(0);
    // The button went away with the error: the focus is on the content, not lost.
    expect(await page.evaluate(() => document.activeElement?.classList.contains('tankstelle-panel'))).toBe(true);
    await page.getByRole('status').filter({ hasText: 'Tanks von Tanklager Hamburg-Waltershof geladen.' }).waitFor({ state: 'attached' });

    // A failed switch: the error instead of the view it left, the tab already on the new view; again loads it.
    await tab(page, 'Zapfsäulen').click();
    await alert.waitFor();
    expect(await page.locator(`${ISLAND} .tank-card`).count()).toBe(0);
    expect(await aktuellerTab(page)).toBe('Zapfsäulen');
    await page.getByRole('button', { name: 'Erneut versuchen' }).click();
    await angezeigt(page, 'Zapfsäulen');
    expect((await pumpen(page)).length).toBeGreaterThan(0);
    expect(await alert.count()).toBe(0);
    // Failed, again; the switch (with its pumps, which failed), again: each load one base call.
    expect(basis).toBe(4);
    expect(pumpen_).toBe(2);
    expect(errors).toEqual([]);
  });

  it('in English: the error and its button in the page\'s language', async () => {
    let n = 0;
    const { page } = await oeffnen('/en/bewegungsdaten/tankstelle-bestand', {}, async (p) => {
      await p.route((url) => url.pathname === '/api/tankstelle', (route) => (n++ === 0 ? route.abort() : route.continue()));
    }, false);
    await page.getByText('The filling station data could not be loaded.').waitFor();
    await page.getByRole('button', { name: 'Try again' }).click();
    await geladen(page);
    expect(text(await page.locator(`${ISLAND} .tankstelle-stand`).textContent())).toMatch(/^Updated at \d\d:\d\d$/);
    await tab(page, 'Pumps').click();
    await angezeigt(page, 'Pumps');
    await page.getByRole('status').filter({ hasText: 'Pumps of Tanklager Hamburg-Waltershof loaded.' }).waitFor({ state: 'attached' });
    expect(pathOf(page)).toBe('/en/bewegungsdaten/tankstelle-bestand?standort=1001&ansicht=zapfsaeulen');
  });

  it('loads the view again a minute after its last load, not while the tab is hidden, at once on return', async () => {
    const knex = h.testApp.db.knex;
    const { page, calls } = await oeffnen(`${PFAD}?standort=1005`, {}, (p) => p.clock.install());
    const basis = () => calls.filter((c) => c === '/api/tankstelle?standortNr=1005').length;
    expect(basis()).toBe(1);
    const stand = () => page.locator(`${ISLAND} .tankstelle-stand`).textContent().then(text);
    const vorher = await stand();
    // A new stock figure for the first tank meanwhile.
    const [tank] = (await uebersicht(page, '1005')).tanks;
    const bestand = await knex('bestaende').where({ mandant: 'DEMO', standort_nr: '1005', produkt_nr: tank.produktNr }).orderBy('datum', 'desc').first('nr', 'volumen');
    await knex('bestaende').where({ mandant: 'DEMO', nr: bestand.nr }).update({ volumen: '123456' });
    try {
      await page.clock.fastForward(50_000);
      expect(basis()).toBe(1);
      await page.clock.fastForward(10_000);
      await page.waitForFunction(() => document.querySelector('.tank-card .tank-level p:nth-child(2)')?.textContent === '123.456\u00a0L');
      expect(basis()).toBe(2);
      // The time of the load moved with the clock.
      expect(await stand()).not.toBe(vorher);
      expect(await stand()).toMatch(/^Aktualisiert um \d\d:\d\d$/);

      // Hidden: no call however long; visible again after more than a minute: at once.
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await page.clock.fastForward(5 * 60_000);
      expect(basis()).toBe(2);
      const antwort = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/tankstelle');
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await antwort;
      expect(basis()).toBe(3);
      await page.locator(`${ISLAND} .tankstelle-panel:not([aria-busy])`).waitFor();
      // Back a few seconds after a load: it waits for the rest of the minute.
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await page.clock.fastForward(30_000);
      expect(basis()).toBe(3);
      await page.clock.fastForward(30_000);
      await expect.poll(basis).toBe(4);
    } finally {
      await knex('bestaende').where({ mandant: 'DEMO', nr: bestand.nr }).update({ volumen: bestand.volumen });
    }
  });

  it('without JavaScript: the server page shows the tanks, and its tabs and location form work', async () => {
    const page = await h.newPage({ javaScriptEnabled: false });
    await h.signIn(page, 'ADMIN', 'Admin12345', 'DEMO');
    await page.goto(PFAD);
    expect(await page.locator(ISLAND).getAttribute('data-island-mounted')).toBeNull();
    const u = await uebersicht(page, '1001');
    expect(await karten(page)).toEqual(u.tanks.map((t) => `${t.produktName} ${t.produktNr}`));
    await submitAndWait(page, () => tab(page, 'Zapfsäulen').click());
    expect(pathOf(page)).toBe(`${PFAD}?standort=1001&ansicht=zapfsaeulen`);
    expect(await aktuellerTab(page)).toBe('Zapfsäulen');
    expect((await pumpen(page)).length).toBeGreaterThan(0);
    await page.getByLabel('Standort', { exact: true }).selectOption('1003');
    await submitAndWait(page, () => page.getByRole('button', { name: 'Anzeigen' }).click());
    expect(pathOf(page)).toBe(`${PFAD}?ansicht=zapfsaeulen&standort=1003`);
    await submitAndWait(page, () => tab(page, 'Tanks').click());
    expect(await karten(page)).toEqual((await uebersicht(page, '1003')).tanks.map((t) => `${t.produktName} ${t.produktNr}`));
    expect(await page.locator('.tankstelle-letzte tbody tr').count()).toBe(10);
  });

  it('is used by keyboard: the location select and the view tabs', async () => {
    const { page } = await oeffnen();
    const fokus = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || '');
    // Reachable with Tab from the top of the page.
    let schritte = 0;
    while ((await fokus()) !== 'tankstelle-standort' && schritte++ < 80) await page.keyboard.press('Tab');
    expect(await fokus()).toBe('tankstelle-standort');
    // An arrow key on the closed select chooses the next location, which loads at once.
    await page.keyboard.press('ArrowDown');
    await angezeigt(page, 'Tanks');
    await page.waitForFunction(() => location.search === '?standort=1002&ansicht=tanks');
    await page.getByRole('status').filter({ hasText: 'Tanks von Depot Hannover-Linden geladen.' }).waitFor({ state: 'attached' });
    expect(await fokus()).toBe('tankstelle-standort');
    // Next in the tab order: the view tabs, followed with Enter.
    await page.keyboard.press('Tab');
    expect(await fokus()).toBe('tankstelle-tabs-1');
    await page.keyboard.press('Tab');
    expect(await fokus()).toBe('tankstelle-tabs-2');
    await page.keyboard.press('Enter');
    await angezeigt(page, 'Zapfsäulen');
    expect(await aktuellerTab(page)).toBe('Zapfsäulen');
    // The focus stays on the tab it was on, and the address follows.
    expect(await fokus()).toBe('tankstelle-tabs-2');
    expect(pathOf(page)).toBe(`${PFAD}?standort=1002&ansicht=zapfsaeulen`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await angezeigt(page, 'Lieferkette');
    // The chain's tank select is next, and loads on change too.
    await page.keyboard.press('Tab');
    expect(await fokus()).toBe('tankstelle-produkt');
  });

  it('fits a phone (390 px) in every view with the island', async () => {
    const { page } = await oeffnen(`${PFAD}?standort=1007`, { viewport: { width: 390, height: 844 } });
    const seitlich = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await seitlich()).toBeLessThanOrEqual(0);
    for (const name of ['Zapfsäulen', 'Lieferkette']) {
      await tab(page, name).click();
      await angezeigt(page, name);
      expect(await seitlich(), name).toBeLessThanOrEqual(0);
    }
  });

  it('loads React on this page only: not on the list of inbound deliveries', async () => {
    // The island's chunks without those the shell shares with it (the API client): React and the island's code.
    const assets = loadAssets();
    const shell = assets.entry('islands/shell.ts');
    const react = assets.island('tankstelle').filter((u) => u !== shell.js && !shell.preload.includes(u));
    expect(react.length).toBeGreaterThan(1);
    const page = await h.newPage();
    await h.signIn(page, 'ADMIN', 'Admin12345', 'DEMO');
    const geholt: string[] = [];
    page.on('request', (r) => geholt.push(new URL(r.url()).pathname));
    await page.goto('/de/bewegungsdaten/einlieferungen');
    await page.locator('table').first().waitFor();
    expect(geholt.filter((u) => u.startsWith('/build/') && u.endsWith('.js')).length).toBeGreaterThan(0);
    expect(geholt.filter((u) => react.includes(u))).toEqual([]);
    expect(await page.locator('[data-island]').count()).toBe(0);
    // The Tankstelle page fetches them all (preloaded with the page).
    geholt.length = 0;
    await page.goto(PFAD);
    await geladen(page);
    expect(react.filter((u) => !geholt.includes(u))).toEqual([]);
  });
});

describe.each(['light', 'dark'] as const)('accessibility of the Tankstelle, %s theme', (theme) => {
  it('passes axe in the tank, pump and chain views with the island, and with its error', async () => {
    const { page } = await oeffnen(PFAD, { theme });
    expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
    await h.checkA11y(page);
    await tab(page, 'Zapfsäulen').click();
    await angezeigt(page, 'Zapfsäulen');
    await h.checkA11y(page);
    await tab(page, 'Lieferkette').click();
    await angezeigt(page, 'Lieferkette');
    await h.checkA11y(page);
    // The error with its button.
    await page.route((url) => url.pathname === '/api/tankstelle', (route) => route.abort(), { times: 1 });
    await tab(page, 'Tanks').click();
    await page.getByRole('button', { name: 'Erneut versuchen' }).waitFor();
    await page.locator(`${ISLAND} .tankstelle-panel:not([aria-busy])`).waitFor();
    await h.checkA11y(page);
  });
});
