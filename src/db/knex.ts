// One knex instance per process: real PostgreSQL through `pg`, or embedded PGlite when DATABASE_URL is unset.
// Both clients are extended in two ways for tenant isolation (src/db/rls.ts, src/db/scope.ts):
// - a transaction opened for a tenant sends its settings (app role and tenant) in the same round trip as BEGIN;
// - a query on the base connection while a tenant transaction is open in the same flow of control fails at
//   once: on PGlite's one session it would wait for that transaction forever, on PostgreSQL it would
//   silently run outside it.
import { mkdirSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config, DbKind } from '../config.js';
import { PGliteThread } from './pglite-thread.js';
import { extendClient, pgClientClass, pgliteThreadClientClass, poolBusy, sendOnPooledConnection, type ClientClass } from './knex-internals.js';
import { TENANT_BEGIN, tenantSettingsSql } from './rls.js';
import { insideTenantTransaction } from './scope.js';

// Return NUMERIC and BIGINT as strings (exact decimals stay exact); counts are converted where read. A DATE is
// a calendar day, not an instant: it stays the ISO text ("2025-12-31"), never a Date at some time zone's midnight.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export interface Database {
  knex: Knex;
  kind: DbKind;
}

/**
 * A client that opens a tenant's transaction with its settings in the BEGIN round trip, and refuses the base
 * connection inside TenantScope.transaction() (how it does so is knex internals: src/db/knex-internals.ts).
 */
function tenantAware<C extends ClientClass>(Base: C, kind: DbKind): C {
  return extendClient(Base, kind, {
    beginWith(config) {
      const mandant = config?.[TENANT_BEGIN];
      return typeof mandant === 'string' ? `BEGIN; ${tenantSettingsSql(mandant)}` : undefined;
    },
    refuseAcquire() {
      return insideTenantTransaction()
        ? new Error('A query on the base connection inside TenantScope.transaction(): use the transaction (tx.table, tx.knex)')
        : undefined;
    },
  });
}

/**
 * When the database is down, a request must get its 503 within seconds instead of hanging until the client
 * gives up: connecting gives up after 4 s, and waiting for a pooled connection after 5 s (so a connection
 * attempt that timed out is reported as such, not left behind to fail the next request).
 */
const CONNECT_TIMEOUT_MS = 4_000;
const ACQUIRE_TIMEOUT_MS = 5_000;
/** min 0: no connections are held open (or re-opened in a loop) while the database is away. */
const POOL = { min: 0, max: 10, idleTimeoutMillis: 30_000 };

function pgConnection(url: string): Knex.PgConnectionConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A server that vanished without closing the connection (host down, network split) is noticed by TCP
    // keepalive rather than never.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // If this process vanishes in the middle of a transaction, the server ends it after a minute and releases
    // its locks, instead of keeping them until TCP notices. The app never waits that long inside one.
    idle_in_transaction_session_timeout: 60_000,
    // Names our sessions in pg_stat_activity (monitoring, and the fault tests that terminate them).
    application_name: 'portal',
  };
}

export interface DatabaseOptions {
  /** Where knex's warnings go (a connection that died, a failed acquire); tests that cause them on purpose mute them. */
  warn?: (message: string) => void;
  /**
   * Embedded only: start from these files (a tarball of dumpEmbedded) instead of an empty database. The tests
   * start each file's database from one migrated and seeded snapshot (src/testing/database.ts).
   */
  loadDataDir?: Blob;
}

export function createDatabase(db: Config['db'], { warn = (m) => console.warn(m), loadDataDir }: DatabaseOptions = {}): Database {
  if (db.kind === 'postgres') {
    const knex = knexFactory({
      client: tenantAware(pgClientClass(), 'postgres') as unknown as Knex.Config['client'],
      connection: pgConnection(db.url), pool: POOL, acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS, log: { warn },
    });
    return { knex, kind: 'postgres' };
  }
  if (db.dir) mkdirSync(db.dir, { recursive: true });
  const knex = knexFactory({
    client: tenantAware(pgliteThreadClientClass(), 'pglite') as unknown as Knex.Config['client'],
    dialect: 'postgres',
    // In a thread of its own (src/db/pglite-thread.ts); `null` dir: in memory, used by the tests.
    connection: { pglite: new PGliteThread({ ...(db.dir ? { dataDir: db.dir } : {}), loadDataDir }) },
  } as Knex.Config);
  return { knex, kind: 'pglite' };
}

/**
 * The embedded database's files as a gzipped tarball (PGlite's dumpDataDir; the whole cluster: schema, data,
 * roles and grants), for createDatabase's `loadDataDir`. knex-pglite keeps the PGlite it was given as the
 * client's `pglite` (src/db/migrate.ts tells the embedded database by it too).
 */
export function dumpEmbedded(knex: Knex): Promise<Blob> {
  const pglite = (knex.client as { pglite?: PGliteThread }).pglite;
  if (!pglite) throw new Error('dumpEmbedded: not an embedded (PGlite) database');
  return pglite.dumpDataDir('gzip');
}

export async function ping(knex: Knex): Promise<boolean> {
  try {
    await sendOnPooledConnection(knex, 'select 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Rows affected by a delete. knex's pg client returns a number, knex-pglite the raw result object;
 * every caller that needs the count goes through here.
 */
export function affectedRows(result: unknown): number {
  if (typeof result === 'number') return result;
  const r = result as { affectedRows?: number; rowCount?: number } | null;
  return r?.affectedRows ?? r?.rowCount ?? 0;
}

/** How long closing waits for the work a request leaves behind (a COMMIT after the answer, a session touch). */
const CLOSE_WAIT_MS = 2_000;

/**
 * Closes the pool once the work requests left behind them has a connection and is done: read transactions
 * commit after the answer is sent (src/db/scope.ts), and a session's expiry is extended after it. Destroying the
 * pool at once aborted those ("Acquire connection error: aborted") when a shutdown came under load.
 */
export async function closeDatabase(knex: Knex): Promise<void> {
  const until = Date.now() + CLOSE_WAIT_MS;
  while (poolBusy(knex) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await knex.destroy();
}
