// The list machinery against the real database: counting stops at the cap (and says so), sums only when exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantScope } from '../db/scope.js';
import { einlieferungConfig } from '../features/einlieferungen/config.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { fetchPage, parseListState } from './list.js';

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
