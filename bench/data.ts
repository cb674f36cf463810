// The benchmark's database and data: finds (or creates) the database, refuses one that holds data of other
// tenants unless told which tenant to use, and loads the bench tenant's rows with set-based SQL. Everything
// here touches only the bench tenant, its one user and the rows it generated itself.
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { hashPassword } from '../src/auth/passwords.js';
import type { Config } from '../src/config.js';
import { createDatabase } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { seedScale } from '../src/seeds/scale.js';
import { TenantScope } from '../src/db/scope.js';
import { einlieferungConfig } from '../src/features/lieferungen/einlieferungen.js';
import { COUNT_CAP, pageStatement, parseListState, type ListDefinition } from '../src/records/list/engine.js';
import { benchThgToken, LIST, TANKSTELLE } from '../src/testing/perf-pages.js';
import { explain, type Plan } from '../src/testing/plans.js';
import { isIndexed, resolveReferences } from '../src/records/list/search.js';

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/bench';
export const DEFAULT_PGLITE_DIR = './data/bench-pglite';
export const DEFAULT_TENANT = 'BENCH';

/** The right to generate reports (area reports). */
const REPORT_ROLLE = 18;

export type BenchDb = { kind: 'postgres'; url: string; note: string } | { kind: 'pglite'; dir: string; note: string };

/** PostgreSQL at `url`, creating the database if the server has none of that name; null if the server cannot be reached. */
export async function resolvePostgres(url: string): Promise<{ url: string; created: boolean } | { error: string }> {
  const quiet = { error: () => {}, warn: () => {}, debug: () => {}, deprecate: () => {} };
  const attempt = async (target: string) => {
    // Quiet: an unreachable server is an expected answer here, reported once by the caller.
    const knex = knexFactory({ client: 'pg', connection: target, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 3000, log: quiet });
    try {
      await knex.raw('select 1');
    } finally {
      await knex.destroy();
    }
  };
  try {
    await attempt(url);
    return { url, created: false };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== '3D000') return { error: (err as Error).message || String(code) };
  }
  // 3D000: the server answers but has no such database. Create it from the maintenance database.
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) return { error: `database name ${name} is not a plain identifier` };
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const knex = knexFactory({ client: 'pg', connection: admin.toString(), pool: { min: 0, max: 1 }, acquireConnectionTimeout: 3000 });
  try {
    await knex.raw(`create database "${name}"`);
  } catch (err) {
    return { error: `cannot create database ${name}: ${(err as Error).message}` };
  } finally {
    await knex.destroy();
  }
  return { url, created: true };
}

export function configDb(db: BenchDb): Config['db'] {
  return db.kind === 'postgres' ? { kind: 'postgres', url: db.url } : { kind: 'pglite', dir: db.dir };
}

/** The table behind the list under test, and the tables the load writes (vacuumed and analysed after it). */
const LIST_TABLE = 'einlieferungen';
const BENCH_TABLES = ['einlieferungen', 'einlieferungen_versionen', 'ablieferungen', 'ablieferungen_versionen', 'bestaende', 'bestaende_versionen'];

/** How the bench marks a tenant as its own (it touches no other). */
const benchTenantName = (tenant: string) => `Benchmark ${tenant}`;

/** The bench user's login: global like every login, so named after its tenant. */
export const benchLogin = (tenant: string) => `BENCH-${tenant}`;
const benchEmail = (tenant: string) => `bench-${tenant.toLowerCase()}@bench.invalid`;

export interface Prepared {
  tenant: string;
  login: string;
  /** A fresh random password for this run; the stored hash is replaced each run, so no known password stays behind. */
  password: string;
  rows: number;
  loaded: boolean;
  loadMs: number;
  /** A detail page of a generated record (below /{lang}). */
  detail: string;
}

/**
 * Migrates, checks the database may be used, creates the bench tenant and user, and loads `rows` inbound
 * deliveries and as many outbound (only if the tenant does not already hold exactly that many, or `reload`).
 */
export async function prepare(db: BenchDb, opts: { tenant: string | null; rows: number; reload: boolean; log: (s: string) => void }): Promise<Prepared> {
  const { knex } = createDatabase(configDb(db));
  try {
    const tenant = (opts.tenant ?? DEFAULT_TENANT).toUpperCase();
    if (!/^[A-Z0-9_-]{1,32}$/.test(tenant)) throw new Error(`tenant ${tenant}: letters, digits, - and _ only`);
    // Look before migrating: a database of someone else's is left exactly as it was.
    if (await knex.schema.hasTable('mandanten')) {
      const others: string[] = (await knex('mandanten').whereNot({ mandant: tenant }).pluck('mandant')) as string[];
      if (others.length && !opts.tenant) {
        throw new Error(
          `the database holds data of other tenants (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}); ` +
            'the benchmark runs only in a database of its own, or in one tenant you name with --tenant NAME (it touches nothing else)',
        );
      }
    }
    await migrateLatest(knex);
    // The bench replaces its tenant's movement data when it reloads: only in a tenant it created itself.
    const existingTenant = await knex('mandanten').where({ mandant: tenant }).first('name');
    if (existingTenant && existingTenant.name !== benchTenantName(tenant)) {
      throw new Error(`tenant ${tenant} exists and was not created by the benchmark; name a new one with --tenant NAME (the benchmark fills it and may replace its movement data)`);
    }
    await knex('mandanten').insert({ mandant: tenant, name: benchTenantName(tenant), status: 'active' }).onConflict('mandant').ignore();

    const login = benchLogin(tenant);
    const password = `${randomBytes(12).toString('base64url')}Aa1`;
    const hash = await hashPassword(password);
    const existing = await knex('benutzer').where({ login }).first('id', 'email');
    if (existing && existing.email !== benchEmail(tenant)) throw new Error(`a user ${login} exists that the benchmark did not create; not touching it`);
    let userId: number;
    if (existing) {
      userId = existing.id;
      await knex('benutzer').where({ id: userId }).update({ password_hash: hash, status: 'active', mfa_enabled: false });
    } else {
      [{ id: userId }] = await knex('benutzer')
        .insert({ login, email: benchEmail(tenant), vorname: 'Bench', nachname: tenant, password_hash: hash })
        .returning('id');
    }
    const memberships = await knex('benutzer_mandanten').where({ benutzer_id: userId }).whereNot({ mandant: tenant }).first('mandant');
    if (memberships) throw new Error(`${login} belongs to tenant ${memberships.mandant} as well; not touching it`);
    await knex('benutzer_mandanten').insert({ mandant: tenant, benutzer_id: userId, admin_kz: false }).onConflict(['mandant', 'benutzer_id']).ignore();
    // Read rights on the list under test and on the stock (the filling-station view), all locations: what a clerk
    // who looks things up has.
    await knex('rollen').where({ mandant: tenant, benutzer_id: userId }).delete();
    // And the report right (18), for the large report of `--reports`.
    await knex('rollen').insert([...new Set([...LIST.rollen, ...TANKSTELLE.rollen, REPORT_ROLLE])].map((typ) => ({ mandant: tenant, benutzer_id: userId, typ, standort_nr: null })));
    // The tenant publishes its THG display, so the public display's JSON can be measured.
    await knex('mandanten').where({ mandant: tenant }).update({ thg_anzeige_token: benchThgToken(tenant), thg_anzeige_seit: new Date() });
    // Sessions of earlier runs are of no use.
    await knex('sessions').where({ benutzer_id: userId }).delete();

    const started = performance.now();
    const loaded = await loadLieferungen(knex, tenant, opts.rows, opts.reload, opts.log);
    // What autovacuum does on a PostgreSQL server after a bulk load, and what the embedded database (no
    // background workers) never does by itself: statistics for the planner, and the visibility map that
    // lets a count read an index alone. Quick when nothing changed.
    for (const table of BENCH_TABLES) await knex.raw(`vacuum analyze ${table}`);
    // A delivery from the middle of the list, for the detail page.
    const middle = await knex(LIST_TABLE).where({ mandant: tenant }).orderBy('nr').offset(Math.floor(opts.rows / 2)).first('nr');
    return { tenant, login, password, rows: opts.rows, loaded, loadMs: performance.now() - started, detail: `${LIST.page}/${encodeURIComponent(middle.nr)}` };
  } finally {
    await knex.destroy();
  }
}

/**
 * The bench tenant's movement data: `rows` inbound deliveries (the list under test) and as many outbound, with
 * master data and 90 days of stock, generated as `npm run db:seed -- --scale` does (src/seeds/scale.ts), so
 * filters, sorts and sums meet the same spread of dates, locations, products and statuses as real data.
 * Loaded again only if the tenant does not hold exactly that many, or with `reload`; only this tenant's
 * movement data is replaced.
 */
async function loadLieferungen(knex: Knex, tenant: string, rows: number, reload: boolean, log: (s: string) => void): Promise<boolean> {
  const count = async (table: string) => Number((await knex(table).where({ mandant: tenant }).count<{ count: string }[]>({ count: '*' }).first())?.count ?? 0);
  if (!reload && (await count('einlieferungen')) === rows && (await count('ablieferungen')) === rows) {
    log(`bench data: ${rows} inbound and ${rows} outbound deliveries of ${tenant} already loaded`);
    return false;
  }
  log(`bench data: loading ${rows} inbound and ${rows} outbound deliveries into ${tenant}…`);
  await seedScale(knex, { mandant: tenant, deliveries: 2 * rows, replace: true });
  return true;
}

/** After the run: the bench user's sessions go (its audit entries stay, as every audit entry does). */
export async function cleanUp(db: BenchDb, login: string): Promise<void> {
  const { knex } = createDatabase(configDb(db));
  try {
    const user = await knex('benutzer').where({ login }).first('id');
    if (user) await knex('sessions').where({ benutzer_id: user.id }).delete();
  } finally {
    await knex.destroy();
  }
}

export interface ListPlan {
  query: string;
  /**
   * Sequential scans in the list page's statement, with the rows each read: the planner may read the first
   * rows of the table in storage order when most rows match and the count stops at its cap; a scan that reads
   * the whole table would show all its rows here.
   */
  seqScans: { table: string; rowsRead: number; tableRows: number }[];
  /** The statement when the count must be taken (first view of a filter) and when it is remembered. */
  counted: { planningMs: number; executionMs: number };
  remembered: { planningMs: number; executionMs: number };
}

/**
 * EXPLAIN ANALYZE of the list page's statement for the bench query, as the app sends it (pageStatement):
 * once with the count taken, once with it remembered (the counter unchanged). Run as the app role in the
 * bench tenant; reads only.
 */
export async function explainList(db: BenchDb, tenant: string): Promise<ListPlan> {
  const { knex } = createDatabase(configDb(db));
  try {
    const def = einlieferungConfig.list as unknown as ListDefinition<unknown>;
    const query = Object.fromEntries(new URLSearchParams(LIST.benchQuery));
    const { state } = parseListState(def, query, 10);
    return await new TenantScope(knex, tenant).transaction(async (tx) => {
      const stand = (await tx.table('tabellenstaende').where({ tabelle: LIST_TABLE }).first('stand'))?.stand ?? 0;
      const run = (known?: string) => explain(tx, pageStatement(def, tx, state, COUNT_CAP, known), { analyze: true });
      const counted = await run();
      const remembered = await run(String(stand));
      const tableRows = Number((await tx.table(LIST_TABLE).count<{ count: string }[]>({ count: '*' }).first())?.count ?? 0);
      const ms = (p: Plan) => ({ planningMs: round(p.planningMs ?? 0), executionMs: round(p.executionMs ?? 0) });
      return {
        query: LIST.benchQuery,
        seqScans: [...counted.nodes, ...remembered.nodes]
          .filter((n) => n['Node Type'] === 'Seq Scan')
          .map((n) => ({ table: n['Relation Name'] ?? '?', rowsRead: (n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0), tableRows })),
        counted: ms(counted),
        remembered: ms(remembered),
      };
    });
  } finally {
    await knex.destroy();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** One search of the bench: the indexed search against today's ILIKE over the list's own columns. */
export interface SearchPlan {
  q: string;
  /** What the word finds through (said in the output). */
  via: string;
  indexed: { executionMs: number; planningMs: number; total: string; seqScans: string[] };
  ilike: { executionMs: number; planningMs: number; total: string; seqScans: string[] };
}

/**
 * EXPLAIN ANALYZE of the list page's one statement (count taken, page 1, newest first) for some searches, under
 * the app's role and row-level security as a page runs it: once with the indexed search (src/records/list/search.ts)
 * and once with the search as it was before (ILIKE '%…%' over number, contract number and vehicle), in the same
 * run, so the ratio is of one machine's moment. Also the text plan of the first search, for bench/README.md.
 */
export async function explainSearch(db: BenchDb, tenant: string): Promise<{ plans: SearchPlan[]; text: string }> {
  const { knex } = createDatabase(configDb(db));
  try {
    const def = einlieferungConfig.list as unknown as ListDefinition<unknown>;
    // Today's search, kept here to compare with: the columns the definition named before the indexed search.
    const before: ListDefinition<unknown> = { ...def, search: ['d.nr', 'd.contract_number', 'd.vehicle_name'] };
    return await new TenantScope(knex, tenant).transaction(async (tx) => {
      const sample = await tx.table(LIST_TABLE).orderBy('nr').offset(50_000).first('nr', 'vehicle_name', 'contract_number');
      const partner = await tx.table('tauschpartner').orderBy('nr').first('name');
      const searches: [string, string][] = [
        [String(partner.name).split(' ')[0], 'partner name'],
        ['Bremen', 'location name'],
        ['Diesel', 'product name (many products)'],
        [String(sample.nr), 'document number'],
        [String(sample.vehicle_name).split(/\s+/)[0], 'vehicle'],
        ['Quatschwort', 'nothing'],
        ['a', 'one letter: the worst case'],
      ];
      const plans: SearchPlan[] = [];
      let text = '';
      const stateOf = async (d: ListDefinition<unknown>, q: string) => {
        const { state } = parseListState(d, { q }, 10);
        // As a request does (readListRequest): the master numbers the words find, as constants.
        if (isIndexed(d.search)) state.references = await resolveReferences(d.search, tx, q);
        return state;
      };
      const run = async (d: ListDefinition<unknown>, q: string) => {
        const state = await stateOf(d, q);
        const stmt = pageStatement(d, tx, state, COUNT_CAP);
        const plan = await explain(tx, stmt, { analyze: true });
        const count = (await stmt) as { __count?: string }[];
        return {
          planningMs: round(plan.planningMs ?? 0), executionMs: round(plan.executionMs ?? 0),
          total: String(count[0]?.__count ?? '0').replace(/^10001$/, '> 10000'),
          seqScans: plan.nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => `${n['Relation Name']} (${(n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)} rows read)`),
        };
      };
      for (const [q, via] of searches) {
        // Each statement twice, the first to warm the cache; the second is reported.
        await run(def, q);
        const indexed = await run(def, q);
        await run(before, q);
        const ilike = await run(before, q);
        plans.push({ q, via, indexed, ilike });
        if (!text) {
          const { sql, bindings } = pageStatement(def, tx, await stateOf(def, q), COUNT_CAP).toSQL();
          const { rows } = await tx.knex.raw(`explain (analyze, costs off, summary on) ${sql}`, bindings);
          text = `q=${q}\n` + rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        }
      }
      return { plans, text };
    });
  } finally {
    await knex.destroy();
  }
}
