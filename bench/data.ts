// The benchmark's database and data: finds (or creates) the database, refuses one that holds data of other
// tenants unless told which tenant to use, and loads the bench tenant's rows with set-based SQL. Everything
// here touches only the bench tenant, its one user and the rows it generated itself.
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { hashPassword } from '../src/auth/passwords.js';
import type { Config } from '../src/config.js';
import { createDatabase } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { PRODUKTGRUPPEN } from '../src/domain/fuels.js';
import { LIST } from '../src/testing/perf-pages.js';

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/bench';
export const DEFAULT_PGLITE_DIR = './data/bench-pglite';
export const DEFAULT_TENANT = 'BENCH';

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

/** The bench user's login: global like every login, so named after its tenant. */
export const benchLogin = (tenant: string) => `BENCH-${tenant}`;
const benchEmail = (tenant: string) => `bench-${tenant.toLowerCase()}@bench.invalid`;
/** Numbers of generated products: recognisable, so a reload deletes only what the bench made. */
const NR_PREFIX = 'BENCH';
export const benchNr = (i: number) => `${NR_PREFIX}${String(i).padStart(6, '0')}`;

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
 * Migrates, checks the database may be used, creates the bench tenant and user, and loads `rows` products
 * (only if the tenant does not already hold exactly that many generated ones, or `reload`).
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
    await knex('mandanten').insert({ mandant: tenant, name: `Benchmark ${tenant}`, status: 'active' }).onConflict('mandant').ignore();

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
    // Read rights on the list under test, all locations: what a clerk who looks things up has.
    await knex('rollen').where({ mandant: tenant, benutzer_id: userId }).delete();
    await knex('rollen').insert(LIST.rollen.map((typ) => ({ mandant: tenant, benutzer_id: userId, typ, standort_nr: null })));
    // Sessions of earlier runs are of no use.
    await knex('sessions').where({ benutzer_id: userId }).delete();

    const started = performance.now();
    const loaded = await loadProdukte(knex, tenant, opts.rows, userId, opts.reload, opts.log);
    // What autovacuum does on a PostgreSQL server after a bulk load, and what the embedded database (no
    // background workers) never does by itself: statistics for the planner, and the visibility map that
    // lets a count read an index alone. Quick when nothing changed.
    for (const table of ['produkte', 'produkte_versionen']) await knex.raw(`vacuum analyze ${table}`);
    return { tenant, login, password, rows: opts.rows, loaded, loadMs: performance.now() - started, detail: `${LIST.page}/${benchNr(Math.ceil(opts.rows / 2))}` };
  } finally {
    await knex.destroy();
  }
}

/**
 * Products with set-based SQL (generate_series): 100,000 rows in seconds, in PostgreSQL and in PGlite alike.
 * Varied enough that filters, sorts and the search do real work: six groups, 10 % inactive, names that do
 * not sort like the numbers. Each gets its first version, as records created through the app do.
 * Phase 2 loads Einlieferungen (deliveries) here the same way.
 */
async function loadProdukte(knex: Knex, tenant: string, rows: number, userId: number, reload: boolean, log: (s: string) => void): Promise<boolean> {
  const generated = () => knex('produkte').where({ mandant: tenant }).andWhere('nr', 'like', `${NR_PREFIX}%`);
  const have = Number((await generated().count<{ count: string }[]>({ count: '*' }).first())?.count ?? 0);
  if (have === rows && !reload) {
    log(`bench data: ${rows} products of ${tenant} already loaded`);
    return false;
  }
  log(`bench data: loading ${rows} products into ${tenant}…`);
  await knex.transaction(async (trx) => {
    await trx('produkte_versionen').where({ mandant: tenant }).andWhere('nr', 'like', `${NR_PREFIX}%`).delete();
    await trx('produkte').where({ mandant: tenant }).andWhere('nr', 'like', `${NR_PREFIX}%`).delete();
    const groups = `array[${PRODUKTGRUPPEN.map((g) => `'${g}'`).join(',')}]`;
    await trx.raw(
      `insert into produkte (mandant, nr, name, produktgruppe, produkttyp, biogehalt, lcv, lcv_einheit, beschreibung, kommentar, status, version, updated_by)
       select ?, ? || lpad(i::text, 6, '0'),
              (array['Diesel','Super','Biodiesel','Ethanol','HVO','Rapsöl'])[1 + i % 6] || ' ' || substr(md5(i::text), 1, 10),
              (${groups})[1 + i % 6],
              'EN ' || (590 + i % 7),
              (i % 101)::numeric,
              round((30 + (i % 700) / 100.0)::numeric, 2),
              case when i % 2 = 0 then 'MJ/L' else 'MJ/kg' end,
              'Benchmark-Produkt ' || i || case when i % 5 = 0 then ', Sommerware' else '' end,
              case when i % 7 = 0 then '=nicht als Formel' else null end,
              case when i % 10 = 0 then 'inaktiv' else 'aktiv' end,
              1, ?
       from generate_series(1, ?) as i`,
      [tenant, NR_PREFIX, userId, rows],
    );
    await trx.raw(
      `insert into produkte_versionen (mandant, nr, version, data, changes, benutzer_id)
       select mandant, nr, 1,
              jsonb_build_object('nr', nr, 'version', 1, 'status', status, 'updatedAt', updated_at, 'name', name, 'produktgruppe', produktgruppe,
                'produkttyp', produkttyp, 'biogehalt', biogehalt::text, 'lcv', lcv::text, 'lcvEinheit', lcv_einheit, 'beschreibung', beschreibung,
                'kommentar', kommentar),
              jsonb_build_array(jsonb_build_object('field', 'name', 'before', null, 'after', name)),
              ?
       from produkte where mandant = ? and nr like ?`,
      [userId, tenant, `${NR_PREFIX}%`],
    );
  });
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
