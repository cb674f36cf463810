// The list machinery against the real database: counting stops at the cap (and says so), sums only when exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantScope } from '../../db/scope.js';
import { ablieferungConfig } from '../../features/lieferungen/ablieferungen.js';
import { einlieferungConfig } from '../../features/lieferungen/einlieferungen.js';
import { seedScale } from '../../seeds/scale.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { fetchPage, isDay, KEYS_FIRST_FROM, listHref, parseListState, type ListDefinition } from './engine.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('fetchPage', () => {
  const def = einlieferungConfig.list;

  it('counts exactly below the cap and sums what the filters show', async () => {
    const scope = new TenantScope(t.db.knex, 'DEMO');
    const { state } = parseListState(def, {}, 10);
    const exact = Number((await t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).count({ c: '*' }))[0].c);
    const page = await fetchPage(def, scope, state);
    expect(page).toMatchObject({ total: exact, totalExact: true, page: 1 });
    expect(page.rows).toHaveLength(10);
    expect(Number(page.totals.summeLiter)).toBeGreaterThan(0);
  });

  it('stops counting at the cap: the total says "at least", the sums are left out, the rows are still right', async () => {
    const scope = new TenantScope(t.db.knex, 'DEMO');
    const { state } = parseListState(def, { page: '3' }, 10);
    const capped = await fetchPage(def, scope, state, 50);
    expect(capped).toMatchObject({ total: 50, totalExact: false, page: 3, totals: { summeLiter: null, summeKg: null } });
    const exact = await fetchPage(def, scope, state);
    expect(capped.rows.map((r) => r.nr)).toEqual(exact.rows.map((r) => r.nr));
  });
});

describe('deep pages read by key (keysFirst)', () => {
  const MANDANT = 'TIEF';
  beforeAll(async () => {
    await seedScale(t.db.knex, { mandant: MANDANT, deliveries: 4000 });
  }, 60_000);

  // Whether a page read by key is the very page the plain read (filtered, ordered, OFFSET over whole rows)
  // gives: rows, their order, every field.
  async function samePages(def: ListDefinition<unknown>, query: Record<string, string>, standorte: 'all' | string[] = 'all') {
    expect(def.keysFirst).toBeDefined();
    const plain = { ...def, keysFirst: undefined };
    const offered = { ...def, filters: def.filters.map((f) => (f.kind === 'select' && query[f.key] && !f.options?.some((o) => o.value === query[f.key]) ? { ...f, options: [{ value: query[f.key], label: query[f.key] }] } : f)) };
    // Five rows a page: the search and the one location's list have enough pages beyond KEYS_FIRST_FROM too.
    const size = 5;
    const first = parseListState(offered, query, size);
    expect(first.errors).toEqual([]);
    const scope = new TenantScope(t.db.knex, MANDANT, standorte);
    const last = Math.ceil((await fetchPage(def, scope, first.state)).total / size);
    // The last page that skips fewer rows than KEYS_FIRST_FROM, the first that skips as many, one between, the
    // last, and one beyond it (shows the last).
    const from = KEYS_FIRST_FROM / size + 1;
    expect(last).toBeGreaterThan(from + 1);
    const pages = [from - 1, from, Math.ceil((from + last) / 2), last, last + 1];
    for (const page of pages) {
      const { state } = parseListState(offered, { ...query, page: String(page) }, size);
      const [byKey, byOffset] = [await fetchPage(def, scope, state), await fetchPage(plain, scope, state)];
      expect(byKey.rows.length, `page ${page}`).toBeGreaterThan(0);
      expect(byKey, `${def.id}: page ${page} of ${JSON.stringify(query)}`).toEqual(byOffset);
    }
  }

  for (const config of [einlieferungConfig, ablieferungConfig]) {
    const def = config.list as ListDefinition<unknown>;
    it(`${def.id}: shows on every sort, both ways, the rows and the order OFFSET over whole rows shows`, async () => {
      for (const col of def.columns.filter((c) => c.sql)) {
        for (const dir of ['asc', 'desc']) await samePages(def, { sort: `${col.key}:${dir}` });
      }
    });
  }

  it('the same with a filter, a search, and a user who sees some locations only', async () => {
    const def = einlieferungConfig.list as ListDefinition<unknown>;
    const alle = (await t.db.knex('standorte').where({ mandant: MANDANT }).orderBy('nr').pluck('nr')) as string[];
    const standorte = alle.slice(0, 3);
    expect(standorte.length).toBeLessThan(alle.length);
    await samePages(def, { status: 'completed', sort: 'entladeneMenge:asc' });
    // A vehicle's first word: found in many deliveries' own texts (the word index), as in the bench.
    const { vehicle_name: vehicle } = await t.db.knex('einlieferungen').where({ mandant: MANDANT }).whereNotNull('vehicle_name').first('vehicle_name');
    await samePages(def, { q: String(vehicle).split(/\s+/)[0] });
    await samePages(def, { sort: 'nr:asc' }, standorte);
  });
});

describe('parseListState', () => {
  const def = einlieferungConfig.list;

  it('takes empty values as no filter, the spec\'s alias as its filter, and refuses by the name that was sent', () => {
    const offered = { ...def, filters: def.filters.map((f) => (f.key === 'standortNr' ? { ...f, options: [{ value: '1001', label: '1001', raw: true }] } : f)) };
    expect(parseListState(offered, { q: '', von: '', standort: '1001' }, 10)).toEqual({
      state: { q: '', filters: { standortNr: '1001' }, sort: def.defaultSort, page: 1, pageSize: 10 },
      errors: [],
      input: { q: '', filters: { von: '', standortNr: '1001' } },
    });
    const { errors } = parseListState(offered, { standortNr: '1001', standort: '1002', partner: ['a', 'b'], Standort: '1' }, 10);
    expect(errors.map((e) => [e.field, e.message])).toEqual([
      ['standort', 'list.errors.twice'],
      ['partner', 'list.errors.once'],
      ['Standort', 'list.errors.unknown'],
    ]);
  });

  it('keeps an asked page size in the links, and leaves a default sort out where asked to', () => {
    const { state } = parseListState(def, { pageSize: '25', page: '2' }, 10);
    expect(listHref('/x', state)).toBe('/x?sort=entladedatum%3Adesc&pageSize=25&page=2');
    expect(listHref('/x', state, { page: 1 }, def.defaultSort)).toBe('/x?pageSize=25');
    expect(listHref('/x', parseListState(def, { pageSize: '10' }, 10).state, {}, def.defaultSort)).toBe('/x');
  });

  it('knows days that exist', () => {
    expect(['2024-02-29', '2025-12-31', '0001-01-01'].map(isDay)).toEqual([true, true, true]);
    expect(['2025-02-29', '2026-02-30', '2025-13-01', '2025-1-1', '31.12.2025', '2025-12-31T00:00'].map(isDay)).toEqual([false, false, false, false, false, false]);
  });
});
