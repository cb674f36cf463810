// Runs the migrations in /migrations. Our own migration source imports the files itself, so the same
// TypeScript migrations run under tsx, under vitest and from the knex CLI (knexfile.ts); the compiled server
// (npm start) imports their compiled copies in dist/server/migrations under the same names, so a database
// migrated by one is up to date for the other.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { COMPILED, COMPILED_DIR, ROOT } from '../paths.js';
import { isPglite, withRawConnection } from './knex-internals.js';

export const MIGRATIONS_DIR = path.join(ROOT, 'migrations');
const COMPILED_MIGRATIONS = path.join(COMPILED_DIR, 'migrations');

const source: Knex.MigrationSource<string> = {
  async getMigrations() {
    return readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{14}_.+\.ts$/.test(f))
      .sort();
  },
  getMigrationName(name) {
    return name;
  },
  async getMigration(name) {
    const file = COMPILED ? path.join(COMPILED_MIGRATIONS, name.replace(/\.ts$/, '.js')) : path.join(MIGRATIONS_DIR, name);
    return import(pathToFileURL(file).href);
  },
};

export const migrationConfig: Knex.MigratorConfig = { migrationSource: source, tableName: 'knex_migrations' };

/** Any number, the same in every process: the advisory lock that lets one instance migrate at a time. */
const MIGRATION_LOCK = 7_358_221;

/**
 * Brings the schema up to date. Several instances starting at once against one PostgreSQL server take turns
 * (a session advisory lock held on a connection of its own while the migrations run on others), so none of
 * them trips over a half-created migrations table; the later ones find nothing left to do. The embedded
 * database belongs to one process and has one connection: it migrates directly.
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  if (isPglite(knex)) return (await knex.migrate.latest(migrationConfig))[1] as string[];
  return withRawConnection(knex, async (connection) => {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return (await knex.migrate.latest(migrationConfig))[1] as string[];
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  });
}
