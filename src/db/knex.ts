// One knex instance per process: real PostgreSQL through `pg`, or embedded PGlite when DATABASE_URL is unset.
import { mkdirSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import type { Config, DbKind } from '../config.js';

// Return NUMERIC and BIGINT as strings (exact decimals stay exact); counts are converted where read.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

export interface Database {
  knex: Knex;
  kind: DbKind;
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
}

export function createDatabase(db: Config['db'], { warn = (m) => console.warn(m) }: DatabaseOptions = {}): Database {
  if (db.kind === 'postgres') {
    const knex = knexFactory({
      client: 'pg', connection: pgConnection(db.url), pool: POOL, acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS, log: { warn },
    });
    return { knex, kind: 'postgres' };
  }
  if (db.dir) mkdirSync(db.dir, { recursive: true });
  const knex = knexFactory({
    client: ClientPgLite as unknown as Knex.Config['client'],
    dialect: 'postgres',
    // `null` dir: in memory, used by the tests.
    connection: db.dir ? { filename: db.dir } : {},
  } as Knex.Config);
  return { knex, kind: 'pglite' };
}

export async function ping(knex: Knex): Promise<boolean> {
  try {
    await knex.raw('select 1');
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
