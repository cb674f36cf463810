import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES_DIR } from '../../http/i18n.js';
import { VIEWS_DIR } from '../../http/render.js';
import { LAYOUT_PAGES } from '../../permissions/route-tree.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn, type Agent } from '../../testing/session.js';
import { SAMPLE_DELIVERIES, pageOfDeliveries } from './samples.js';

type Tree = { [key: string]: string | Tree };
const locale = (lang: string): Tree => JSON.parse(readFileSync(path.join(LOCALES_DIR, lang, 'layouts.json'), 'utf8'));
const flatten = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [prefix + key] : flatten(value, `${prefix}${key}.`)));

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
});
afterAll(() => t.close());

describe('UI kit translations', () => {
  it('has the same keys in German and English', () => {
    expect(flatten(locale('en')).sort()).toEqual(flatten(locale('de')).sort());
  });

  it('has every key the kit views ask for', () => {
    const keys = new Set(flatten(locale('de')));
    const missing: string[] = [];
    const views = [
      ...readdirSync(path.join(VIEWS_DIR, 'layouts')).map((f) => path.join('layouts', f)),
      ...readdirSync(path.join(VIEWS_DIR, 'partials/ui')).map((f) => path.join('partials/ui', f)),
    ];
    for (const view of views) {
      const source = readFileSync(path.join(VIEWS_DIR, view), 'utf8');
      for (const [, key] of source.matchAll(/t\('layouts:([\w.-]*\w)'/g)) if (!keys.has(key)) missing.push(`${view}: ${key}`);
      // Page views use a helper k('key') for t('layouts:<page>.key').
      const page = path.basename(view, '.ejs');
      for (const [, key] of source.matchAll(/\bk\('(\w+)'[,)]/g)) if (!keys.has(`${page}.${key}`)) missing.push(`${view}: ${page}.${key}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('UI kit pages', () => {
  it.each(LAYOUT_PAGES.flatMap((name) => [['de', name], ['en', name]]))('/%s/layouts/%s renders completely', async (lang, name) => {
    const res = await admin.get(`/${lang}/layouts/${name}`);
    expect(res.status).toBe(200);
    expect(res.text.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(res.text).toMatch(new RegExp(`<a href="/${lang}/layouts/${name}" aria-current="page">`));
    // i18next answers a missing key with the key itself.
    expect(res.text).not.toMatch(/layouts:|\b(?:kit|sample|about|accordion|badge|breadcrumb|button|button-group|button-icons|data-display|date-picker|input|pagination|sidebar|table|tabs-group)\.[a-z]\w*\b(?<!\.ejs)/);
  });

  it('sends anonymous visitors to the login page', async () => {
    const res = await admin.get('/de/layouts').redirects(0);
    expect(res.headers.location).toBe('/de/layouts/about');
    const { default: request } = await import('supertest');
    const anonymous = await request(t.app).get('/de/layouts/badge');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toMatch(/^\/de\/login\?redirect=/);
  });

  it('hosts the demo island with translated, attribute-escaped props and a fallback', async () => {
    for (const [lang, reset] of [['de', 'Zurücksetzen'], ['en', 'Reset']]) {
      const res = await admin.get(`/${lang}/layouts/about`);
      const match = res.text.match(/<div data-island="demo-counter" data-props='([^']*)'>/);
      expect(match).not.toBeNull();
      const json = match![1].replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      expect(JSON.parse(json)).toMatchObject({ start: 0, labels: { reset } });
      expect(res.text).toContain('<strong>0</strong>');
      expect(res.text).toMatch(/<script type="module" src="\/build\/[^"]*main[^"]*\.js"|islands\/main/);
    }
    const other = await admin.get('/de/layouts/badge');
    expect(other.text).not.toContain('data-island');
  });

  it('opens the tab named in the URL and falls back to the first', async () => {
    const third = await admin.get('/de/layouts/tabs-group?tab=3');
    expect(third.text).toMatch(/<a id="kit-tabs-3" href="[^"]*\?tab=3#kit-tabs" aria-current="page">/);
    expect(third.text).toContain('aria-labelledby="kit-tabs-3"');
    expect(third.text.match(/aria-current="page"/g)).toHaveLength(2); // the kit nav and the tab
    for (const bad of ['99', 'x', '0']) {
      const res = await admin.get(`/de/layouts/tabs-group?tab=${bad}`);
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/<a id="kit-tabs-1" [^>]*aria-current="page">/);
    }
  });

  it('keeps the segmented control choice from the URL', async () => {
    const res = await admin.get('/en/layouts/button-group?zeitraum=woche&einheit=kg');
    expect(res.text).toMatch(/id="f-zeitraum-woche" name="zeitraum" value="woche" checked/);
    expect(res.text).toMatch(/id="f-einheit-kg" name="einheit" value="kg" checked/);
    expect(res.text).toContain('Current choice: Week, Kilograms');
  });

  it('sorts and pages the sample table through the URL', async () => {
    const res = await admin.get('/de/layouts/table?sort=menge&dir=asc&page=3');
    expect(res.text).toContain('Zeige 21 bis 23 von 23 Ergebnissen');
    expect(res.text).toMatch(/<th scope="col" class="num" aria-sort="ascending">/);
    expect(res.text).toContain('aria-label="Seiten der Einlieferungen"');
    const fallback = await admin.get('/de/layouts/table?sort=drop%20table&dir=sideways&page=-4');
    expect(fallback.status).toBe(200);
    expect(fallback.text).toContain('Zeige 1 bis 10 von 23 Ergebnissen');
    expect(fallback.text).toContain('aria-sort="descending"');
  });

  it('clamps the live pagination example to its last page', async () => {
    const res = await admin.get('/de/layouts/pagination?page=400');
    expect(res.text).toContain('Zeige 91 bis 95 von 95 Ergebnissen');
  });
});

describe('sample deliveries', () => {
  it('sorts by any column in both directions and clamps the page', () => {
    const asc = pageOfDeliveries({ sort: 'menge', dir: 'asc', page: 1 }, 100).rows.map((r) => r.menge);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = pageOfDeliveries({ sort: 'datum', dir: 'desc', page: 1 }, 100).rows.map((r) => r.datum);
    expect(desc).toEqual([...desc].sort().reverse());
    const last = pageOfDeliveries({ sort: 'nr', dir: 'asc', page: 99 });
    expect(last.page).toBe(3);
    expect(last.rows).toHaveLength(SAMPLE_DELIVERIES.length - 20);
  });
});
