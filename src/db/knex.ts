// One knex instance per process: real PostgreSQL through `pg`, or embedded PGlite when DATABASE_URL is unset.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config, DbKind } from '../config.js';

// Return NUMERIC and BIGINT as strings (exact decimals stay exact); counts are converted where read.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

export interface Database {
  knex: Knex;
  kind: DbKind;
}

export function createDatabase(db: Config['db']): Database {
  if (db.kind === 'postgres') {
    const knex = knexFactory({
      client: 'pg',
      connection: db.url,
      pool: { min: 0, max: 10 },
      acquireConnectionTimeout: 5000,
    });
    return { knex, kind: 'postgres' };
  }
  if (db.dir) mkdirSync(db.dir, { recursive: true });
  // Loaded only here: a server on PostgreSQL need not load and transpile PGlite's bundle (measured: 6 MB of
  // resident memory under tsx). knex-pglite is CommonJS, so a synchronous require keeps this function synchronous.
  const ClientPgLite = createRequire(import.meta.url)('knex-pglite');
  const knex = knexFactory({
    client: (ClientPgLite.default ?? ClientPgLite) as Knex.Config['client'],
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
