// One knex instance per process: real PostgreSQL through `pg`, or embedded PGlite when DATABASE_URL is unset.
import { mkdirSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config, DbKind } from '../config.js';

// Return NUMERIC and BIGINT as strings (exact decimals stay exact); counts are converted where read. A DATE is
// a calendar day, not an instant: it stays the ISO text ("2025-12-31"), never a Date at some time zone's midnight.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
const PG_DATE_OID = 1082;

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
  const knex = knexFactory({
    client: ClientPgLite as unknown as Knex.Config['client'],
    dialect: 'postgres',
    // `null` dir: in memory, used by the tests.
    connection: { pglite: new PGlite({ ...(db.dir ? { dataDir: db.dir } : {}), parsers: { [PG_DATE_OID]: (v: string) => v } }) },
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
