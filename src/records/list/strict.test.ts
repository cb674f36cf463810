// Strict list parameters, for every list the app mounts (mountedLists(): a list added later is checked without
// a line here): an unknown parameter, a malformed value of each filter kind, a bad sort, page or page size is
// a 400 naming the parameter, on the API and inline on the page, which then shows no rows; never the
// unfiltered list, never a 500. A page size above the contract's cap of 500 is capped, not refused. The spec's names standort, partner and produkt filter like standortNr, partnerNr
// and produktNr.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn, type Agent } from '../../testing/session.js';
import { FILTER_ALIASES, FILTER_MAX_LENGTH, type ListFilter } from './engine.js';
import { mountedLists, type MountedList } from './request.js';
import { MAX_PAGE_SIZE, PAGE_SIZES } from './page-size.js';

let t: TestApp;
/** Who reads each list: the system administrator, or support for the audit log. */
const readers: { login: string; password: string; token?: string; agent?: Agent }[] = [
  { login: 'ADMIN', password: 'Admin12345' },
  { login: 'SUPPORT', password: 'Support12345' },
];
const reader = new Map<string, (typeof readers)[number]>();

beforeAll(async () => {
  t = await createTestApp();
  for (const r of readers) {
    r.token = (await request(t.app).post('/api/v1/account/login').send({ login: r.login, password: r.password })).body.token;
    r.agent = await signIn(t.app, r.login, r.password, 'DEMO');
  }
  for (const list of mountedLists()) {
    for (const r of readers) {
      if ((await request(t.app).get(`/api/${list.api}`).set({ Authorization: r.token!, 'X-Mandant': 'DEMO' })).status === 200) {
        reader.set(list.id, r);
        break;
      }
    }
  }
});
afterAll(() => t.close());

const api = (list: MountedList, query: string, lang = 'de') =>
  request(t.app).get(`/api/${list.api}?${query}`).set({ Authorization: reader.get(list.id)!.token!, 'X-Mandant': 'DEMO', 'Accept-Language': lang });
const page = (list: MountedList, query: string) => reader.get(list.id)!.agent!.get(`/de/${list.page}?${query}`);

/** A data row of the table (its first cell is a row header): none when a list refused its parameters. */
const ROW = /scope="row"/;

/** Values each filter kind refuses. */
function malformed(f: ListFilter<never>): string[] {
  const tooLong = 'x'.repeat((f.maxLength ?? FILTER_MAX_LENGTH) + 1);
  switch (f.kind) {
    case 'text':
      return [tooLong, 'a\u0001b', ...(f.pattern ? ['<script>'] : [])];
    case 'select':
      return ['gibt-es-nicht', tooLong];
    case 'dateFrom':
    case 'dateTo':
      return ['2026-02-30', '31.12.2025', 'gestern'];
    case 'boolean':
      return ['vielleicht', '1'];
  }
}

async function expectRefused(list: MountedList, query: string, field: string) {
  const res = await api(list, query);
  const ctx = `GET /api/${list.api}?${query} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, ctx).toBe(400);
  expect(res.body, ctx).toMatchObject({ success: false, code: 'BAD_REQUEST', message: 'Bitte überprüfen Sie Ihre Eingabe' });
  expect(res.body.errors.map((e: { field: string }) => e.field), ctx).toContain(field);
  expect(res.body.data, ctx).toBeUndefined();
  return res.body.errors as { field: string; message: string }[];
}

async function expectRefusedPage(list: MountedList, query: string, message: string) {
  const res = await page(list, query);
  const ctx = `GET /de/${list.page}?${query} → ${res.status}`;
  expect(res.status, ctx).toBe(400);
  expect(res.text, ctx).toContain('Bitte überprüfen Sie Ihre Eingabe');
  expect(res.text, ctx).toContain(message);
  expect(res.text, ctx).toContain('Die Liste wird angezeigt, sobald alle Angaben gültig sind.');
  expect(res.text, ctx).not.toMatch(ROW);
  return res.text;
}

describe('every mounted list', () => {
  it('is found, with its page and its API, and has rows without parameters (so the checks below are not vacuous)', async () => {
    const ids = mountedLists().map((l) => l.id);
    expect(ids).toEqual(expect.arrayContaining(['produkte', 'standorte', 'tauschpartner', 'einlieferungen', 'ablieferungen', 'bestaende', 'benutzer', 'mandanten', 'logmeldungen']));
    for (const list of mountedLists()) {
      expect(list.page, list.id).toBeTruthy();
      expect(list.api, list.id).toBeTruthy();
      expect(reader.get(list.id), `nobody reads ${list.id}`).toBeDefined();
      const res = await api(list, '');
      expect(res.body.data.length, list.id).toBeGreaterThan(0);
      expect((await page(list, '')).text, list.id).toMatch(ROW);
    }
  });

  it('refuses an unknown parameter by name: 400 on the API (German and English), inline on the page with no rows', async () => {
    for (const list of mountedLists()) {
      // `format` is known where the list has exports (the export writers check its value), so only the unknown
      // one is named; a list without exports refuses `format` too rather than ignoring it.
      const errors = await expectRefused(list, 'format=csv&gibtsnicht=1', 'gibtsnicht');
      const expected = [{ field: 'gibtsnicht', message: 'Unbekannter Parameter „gibtsnicht“.' }];
      if (!list.exports) expected.push({ field: 'format', message: 'Unbekannter Parameter „format“.' });
      expect(errors.sort((a: { field: string }, b: { field: string }) => a.field.localeCompare(b.field)), list.id)
        .toEqual(expected.sort((a, b) => a.field.localeCompare(b.field)));
      const en = await api(list, 'gibtsnicht=1', 'en');
      expect(en.body, list.id).toMatchObject({ message: 'Please check your input', errors: [{ field: 'gibtsnicht', message: 'Unknown parameter “gibtsnicht”.' }] });
      const html = await expectRefusedPage(list, 'gibtsnicht=1', 'Unbekannter Parameter „gibtsnicht“.');
      expect(html, list.id).toMatch(/<div class="alert alert-error" role="alert">/);
    }
  });

  it('refuses a malformed value of every filter, and of its alias, by the name it was sent under', async () => {
    for (const list of mountedLists()) {
      for (const f of list.filters) {
        for (const value of malformed(f)) await expectRefused(list, `${f.key}=${encodeURIComponent(value)}`, f.key);
        await expectRefused(list, `${f.key}=a&${f.key}=b`, f.key);
        const alias = Object.keys(FILTER_ALIASES).find((a) => FILTER_ALIASES[a] === f.key);
        if (alias) await expectRefused(list, `${alias}=${encodeURIComponent(malformed(f)[0])}`, alias);
        // The page marks the field, and keeps what was typed in a text field.
        const value = malformed(f)[0];
        const html = await expectRefusedPage(list, `${f.key}=${encodeURIComponent(value)}`, '');
        expect(html, `${list.id} ${f.key}`).toMatch(/aria-invalid="true"/);
        if (new RegExp(`<input[^>]*name="${f.key}"`).test(html)) expect(html, `${list.id} ${f.key}`).toContain(`value="${value}"`);
      }
    }
  });

  it('refuses a range whose end lies before its start', async () => {
    for (const list of mountedLists()) {
      for (const to of list.filters.filter((f) => f.kind === 'dateTo')) {
        const from = list.filters.find((f) => f.kind === 'dateFrom' && f.sql === to.sql)!;
        const errors = await expectRefused(list, `${from.key}=2025-03-12&${to.key}=2025-03-10`, to.key);
        expect(errors, list.id).toEqual([{ field: to.key, message: 'Das Bis-Datum darf nicht vor dem Von-Datum liegen.' }]);
        expect((await api(list, `${from.key}=2025-03-10&${to.key}=2025-03-10`)).status, list.id).toBe(200);
      }
    }
  });

  it('refuses a bad sort, page, page size or search, and a repeated parameter, naming each', async () => {
    for (const list of mountedLists()) {
      const first = (await api(list, '')).body;
      expect(first.pageSize, list.id).toBe(10);
      for (const sort of ['gibtsnicht:asc', 'passwort:desc', ':', 'sort']) await expectRefused(list, `sort=${sort}`, 'sort');
      for (const p of ['0', '-1', 'abc', '1.5', '1e3', '1000001']) await expectRefused(list, `page=${p}`, 'page');
      for (const size of ['0', '-5', 'abc', '2.5', '1e2']) {
        const errors = await expectRefused(list, `pageSize=${size}`, 'pageSize');
        expect(errors, `${list.id} pageSize=${size}`).toEqual([{ field: 'pageSize', message: `Die Seitengröße muss eine ganze Zahl ab 1 sein (höchstens ${MAX_PAGE_SIZE} Einträge je Seite).` }]);
      }
      for (const size of [1, ...PAGE_SIZES, MAX_PAGE_SIZE]) {
        const res = await api(list, `pageSize=${size}`);
        expect(res.status, `${list.id} pageSize=${size}`).toBe(200);
        expect(res.body.pageSize, list.id).toBe(size);
      }
      // The contract caps pageSize at 500: more is answered with 500 rows a page, and the response says 500.
      for (const size of [MAX_PAGE_SIZE + 1, 100000, 10 ** 12]) {
        const res = await api(list, `pageSize=${size}`);
        expect(res.status, `${list.id} pageSize=${size}`).toBe(200);
        expect(res.body.pageSize, `${list.id} pageSize=${size}`).toBe(MAX_PAGE_SIZE);
        expect(res.body.data.length, `${list.id} pageSize=${size}`).toBeLessThanOrEqual(MAX_PAGE_SIZE);
      }
      await expectRefused(list, 'page=1&page=2', 'page');
      const searches = (await api(list, 'q=a')).status === 200;
      if (searches) await expectRefused(list, `q=${'x'.repeat(FILTER_MAX_LENGTH + 1)}`, 'q');
      else await expectRefused(list, 'q=a', 'q');
      await expectRefusedPage(list, 'sort=gibtsnicht:asc&page=0&pageSize=1000', 'Unbekannte Sortierung.');
    }
  });

  it('answers a page beyond the end on the API as asked (no rows), and shows the last page on the page', async () => {
    for (const list of mountedLists()) {
      const res = await api(list, 'page=100000');
      expect(res.status, list.id).toBe(200);
      expect(res.body, list.id).toMatchObject({ data: [], page: 100000 });
      expect((await page(list, 'page=100000')).text, list.id).toMatch(ROW);
    }
  });
});

describe('the spec\'s filter names', () => {
  it('standort, partner and produkt filter exactly like standortNr, partnerNr and produktNr, on the API and the page', async () => {
    let checked = 0;
    for (const list of mountedLists()) {
      for (const [alias, key] of Object.entries(FILTER_ALIASES)) {
        if (!list.filters.some((f) => f.key === key)) continue;
        const all = (await api(list, 'pageSize=500')).body;
        // The value fewest rows have, so the filtered list is a real part of the whole.
        const counts = new Map<string, number>();
        for (const r of all.data as Record<string, unknown>[]) if (r[key] != null) counts.set(String(r[key]), (counts.get(String(r[key])) ?? 0) + 1);
        const [value] = [...counts].sort((a, b) => a[1] - b[1])[0];
        expect(counts.size, `${list.id} ${key}`).toBeGreaterThan(1);
        const byKey = await api(list, `${key}=${encodeURIComponent(value)}&pageSize=500`);
        const byAlias = await api(list, `${alias}=${encodeURIComponent(value)}&pageSize=500`);
        const ctx = `${list.id} ${alias}=${value}`;
        expect(byAlias.status, ctx).toBe(200);
        expect(byAlias.body.total, ctx).toBe(byKey.body.total);
        expect(byAlias.body.total, ctx).toBeLessThan(all.total);
        expect(byAlias.body.data, ctx).toEqual(byKey.body.data);
        byAlias.body.data.forEach((r: Record<string, unknown>) => expect(r[key], ctx).toBe(value));
        const html = (await page(list, `${alias}=${encodeURIComponent(value)}`)).text;
        expect(html, ctx).toContain(`von ${byKey.body.total.toLocaleString('de-DE')} Ergebnissen`);
        // The form shows the filter under its own name, so the next search keeps it.
        expect(html, ctx).toMatch(new RegExp(`<select id="list-f-${key}" name="${key}"[\\s\\S]*?<option value="${value}"\\s+selected>`));
        // Both names at once: one filter given twice.
        await expectRefused(list, `${key}=${encodeURIComponent(value)}&${alias}=${encodeURIComponent(value)}`, alias);
        checked += 1;
      }
    }
    // Deliveries in and out have all three, stock figures location and product, certificates, proofs and the
    // deliveries to trace (Nachweisverfolgung) the location, Bilanzen location and product, POCs all three.
    expect(checked).toBe(16);
  });

  it('standort=1001 lists the inbound deliveries of that location only, not all of them', async () => {
    const list = mountedLists().find((l) => l.id === 'einlieferungen')!;
    const all = (await api(list, '')).body.total;
    const exact = Number((await t.db.knex('einlieferungen').where({ mandant: 'DEMO', standort_nr: '1001' }).count({ c: '*' }))[0].c);
    expect(exact).toBeGreaterThan(0);
    expect(exact).toBeLessThan(all);
    expect((await api(list, 'standort=1001')).body.total).toBe(exact);
  });
});

describe('users, tenants and the audit log on the list engine', () => {
  const list = (id: string) => mountedLists().find((l) => l.id === id)!;

  it('pages and searches the tenants, 10 a page by default, with the count of all', async () => {
    const mandanten = list('mandanten');
    const ids: string[] = await t.db.knex('mandanten').orderBy('mandant').pluck('mandant');
    const count = ids.length;
    expect(count).toBeGreaterThan(1);
    const first = await api(mandanten, 'pageSize=1');
    expect(first.body).toMatchObject({ total: count, page: 1, pageSize: 1, data: [{ mandant: ids[0] }] });
    expect((await api(mandanten, 'pageSize=1&page=2')).body.data.map((m: { mandant: string }) => m.mandant)).toEqual([ids[1]]);
    const nord = (await api(mandanten, 'q=nord')).body;
    expect(nord.data).toContainEqual(expect.objectContaining({ mandant: 'NORD', benutzer: expect.any(Number) }));
    expect(nord.total).toBeLessThan(count);
    expect((await api(mandanten, 'sort=mandant:desc')).body.data[0].mandant).toBe(ids[count - 1]);
    expect((await page(mandanten, '')).text).toContain(`Zeige 1 bis ${Math.min(count, 10)} von ${count} Ergebnissen`);
  });

  it('keeps the search a user typed on the users page when another parameter is refused', async () => {
    const html = await expectRefusedPage(list('benutzer'), 'q=urban&seite=2', 'Unbekannter Parameter „seite“.');
    expect(html).toContain('value="urban"');
  });
});
