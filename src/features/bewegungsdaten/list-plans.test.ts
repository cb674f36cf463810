// Every filter and every sort the movement-data lists offer is served by an index: checked with EXPLAIN on
// the very statement a list page sends (pageStatement), in a tenant with a few thousand deliveries and
// certificates and fresh
// statistics, on both databases. What it holds:
// - no list page reads a movement table sequentially (sequential scans are switched off for the check, so
//   one appears in the plan only where no index could serve);
// - a filter narrows through an index on its column (its Index Cond names the column; a filter computed from
//   linked records through the linked table's index);
// - a sort needs no sort step over the rows: an index delivers them in order (an incremental sort of rows
//   that already arrive ordered by a prefix is fine: it sorts the few rows that share a value).
// Each check holds for the custom plan (the statement planned with its values, as an unnamed statement runs)
// and for the generic plan (planned without them, as the page statement runs where it is prepared: prepared()
// with generic, src/db/knex-internals.ts).
// How fast this is on 100,000 deliveries is measured by `npm run bench` (which prints the bench query's plan).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScale } from '../../seeds/scale.js';
import { seedScaleNachweise } from '../../seeds/scale-nachweise.js';
import { setTenant } from '../../db/rls.js';
import { TenantScope } from '../../db/scope.js';
import { KEYS_FIRST_FROM, parseListState, pageStatement, type ListDefinition } from '../../records/list/engine.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { explain, explainGeneric, type PlanNode } from '../../testing/plans.js';
import { isIndexed } from '../../records/list/search.js';
import { BEWEGUNGSDATEN_ENTITIES } from './registry.js';

const MANDANT = 'PLANS';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedScale(t.db.knex, { mandant: MANDANT, deliveries: 4000 });
  await seedScaleNachweise(t.db.knex, { mandant: MANDANT, count: 3000 });
  await seedScaleAbholungen(t.db.knex, MANDANT, 1500);
}, 120_000);

/**
 * Collections at scale: each with one certificate, some cancelled, and a third of the inbound deliveries linked
 * to one, so the planner sees linked and unlinked deliveries as a working tenant has them.
 */
async function seedScaleAbholungen(knex: import('knex').Knex, mandant: string, count: number) {
  await knex.transaction(async (trx) => {
    await setTenant(trx, mandant);
    const standorte = (await trx('standorte').where({ mandant }).orderBy('nr').pluck('nr')) as string[];
    const list = `array[${standorte.map((nr) => `'${nr}'`).join(',')}]`;
    await trx.raw(
      `insert into abholungen (mandant, nr, lieferdatum, lieferstelle_nr, lieferant, produktgruppe, kraftstoffmenge, einheit, nachweise, storniert)
       select ?, 'AB-' || i, current_date - (i % 365), (${list})[1 + i % ${standorte.length}], 'Lieferant ' || (i % 40),
         (array['biodiesel','hvo','bioethanol'])[1 + i % 3], 1000 + (i % 97) * 100, 'L', jsonb_build_array('S-' || i), i % 31 = 0
       from generate_series(1, ?) as i`,
      [mandant, count],
    );
    await trx.raw(`insert into abholung_nachweise (mandant, abholung_nr, nachweis_nr) select ?, 'AB-' || i, 'S-' || i from generate_series(1, ?) as i`, [mandant, count]);
    await trx.raw(`update einlieferungen set abholung_nr = 'AB-' || (1 + abs(hashtext(nr)) % ?) where mandant = ? and abs(hashtext(nr)) % 3 = 0`, [count, mandant]);
  });
  for (const table of ['abholungen', 'abholung_nachweise', 'einlieferungen']) await knex.raw(`analyze ${table}`);
}
afterAll(() => t?.close());

type PlanKind = 'custom' | 'generic';

/** The plan of the list page for this query string, with the planner told to avoid what `avoid` names. */
async function planOf(kind: PlanKind, def: ListDefinition<unknown>, query: Record<string, string>, avoid: string[]): Promise<PlanNode[]> {
  // Filters whose choices come from the tenant's data (withChoices at request time) accept the sample value.
  const offered = { ...def, filters: def.filters.map((f) => (f.kind === 'select' && query[f.key] ? { ...f, options: [...(f.options ?? []), { value: query[f.key], label: query[f.key] }] } : f)) };
  const { state, errors } = parseListState(offered, query, 10);
  expect(errors).toEqual([]);
  return new TenantScope(t.db.knex, MANDANT).transaction(async (tx) => {
    for (const setting of avoid) await tx.knex.raw(`set local ${setting} = off`);
    return (await (kind === 'generic' ? explainGeneric : explain)(tx, pageStatement(def, tx, state))).nodes;
  });
}

/** A value each filter can take in the seeded tenant. */
async function sampleValue(def: ListDefinition<unknown>, key: string, kind: string, table: string, column: string): Promise<string> {
  if (kind === 'boolean') return 'true';
  if (kind === 'dateFrom' || kind === 'dateTo') return kind === 'dateFrom' ? '2026-06-01' : '2026-03-01';
  const filter = def.filters.find((f) => f.key === key)!;
  if (filter.options?.length) return filter.options[0].value;
  const row = await t.db.knex(table).where({ mandant: MANDANT }).first({ v: column });
  return String(row.v);
}

for (const [entity, kind] of BEWEGUNGSDATEN_ENTITIES.flatMap((e) => (['custom', 'generic'] as const).map((k) => [e, k] as const))) {
  const def = entity.list as ListDefinition<unknown>;
  const table = entity.store.spec.table;
  const column = (sql: string) => sql.split('.').pop()!;
  const seqScans = (plan: PlanNode[]) => plan.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);

  describe(`the ${table} list (${kind} plan)`, () => {
    for (const filter of def.filters) {
      it(`filters by ${filter.key} through an index`, async () => {
        const value = await sampleValue(def, filter.key, filter.kind, table, column(filter.sql));
        const plan = await planOf(kind, def, { [filter.key]: value }, ['enable_seqscan']);
        expect(seqScans(plan)).toEqual([]);
        // An index scan of the table, or a bitmap index scan of one of its indexes (a filter that keeps many rows
        // is counted through the bitmap, its page read in date order). A filter computed from linked records (a
        // condition of its own, `where`) narrows through the linked table's index on the column its `sql` names
        // (e.g. an outbound delivery's assignments by delivery).
        const indexes = new Set(await t.db.knex('pg_indexes').where({ tablename: table }).pluck('indexname'));
        const conditions = plan.filter((n) => (filter.where || n['Relation Name'] === table || indexes.has(n['Index Name'])) && n['Index Cond']).map((n) => n['Index Cond']!);
        expect(conditions.some((c) => c.includes(column(filter.sql))), JSON.stringify(plan.map((n) => [n['Node Type'], n['Index Name'], n['Index Cond']]))).toBe(true);
      });
    }

    for (const col of def.columns.filter((c) => c.sql && !c.csvOnly)) {
      for (const dir of ['asc', 'desc']) {
        it(`sorts by ${col.key} ${dir} from an index`, async () => {
          const plan = await planOf(kind, def, { sort: `${col.key}:${dir}` }, ['enable_seqscan', 'enable_sort']);
          expect(seqScans(plan)).toEqual([]);
          expect(plan.filter((n) => n['Node Type'] === 'Sort').length).toBe(0);
        });
      }
    }

    // A deep page of a list that reads its keys first (keysFirst): the keys from an index in the list's order, as
    // for the first page, then each row by the primary key; the table is never read in whole.
    if (def.keysFirst) {
      for (const query of [{}, { status: 'completed' }] as Record<string, string>[]) {
        it(`reads a deep page's keys from an index, then its rows by key (${JSON.stringify(query)})`, async () => {
          const plan = await planOf(kind, def, { ...query, page: String(KEYS_FIRST_FROM / 10 + 5) }, ['enable_seqscan']);
          const shape = JSON.stringify(plan.map((n) => [n['Node Type'], n['Index Name'], n['Index Cond']]));
          expect(seqScans(plan)).toEqual([]);
          const reads = plan.filter((n) => n['Relation Name'] === table);
          expect(reads.some((n) => /^Index (Only )?Scan/.test(n['Node Type']) && n['Index Name'] !== `${table}_pkey`), shape).toBe(true);
          expect(reads.some((n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === `${table}_pkey` && /\(nr\)::text = \(\w+\.nr\)/.test(n['Index Cond'] ?? '')), shape).toBe(true);
        });
      }
    }

    // Under row-level security only leakproof conditions can be index conditions: the word's prefix range is one
    // (docs/decisions.md, "Search under row-level security").
    it('searches through indexes: the word as a prefix range on the word index', async () => {
      const row = await t.db.knex(table).where({ mandant: MANDANT }).first('nr');
      const plan = await planOf(kind, def, { q: String(row.nr) }, ['enable_seqscan']);
      expect(seqScans(plan)).toEqual([]);
      expect(isIndexed(def.search)).toBe(true);
      if (isIndexed(def.search) && def.search.words.length) {
        expect(plan.some((n) => n['Relation Name'] === 'suchwoerter' && n['Index Cond']?.includes('~>=~')), JSON.stringify(plan.map((n) => [n['Node Type'], n['Relation Name'], n['Index Cond']]))).toBe(true);
      }
    });
  });
}
