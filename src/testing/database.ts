// Where a test file's database comes from. Migrating and seeding took most of every integration test file's
// setup, so the integration project does it once per run (its globalSetup, src/testing/global-setup.ts) and
// each file starts from that snapshot: on the embedded database, a dump of the data folder that each file's
// in-memory PGlite loads; on PostgreSQL (TEST_DATABASE_URL), a template database each file's own database is
// copied from. Files still get a database of their own, so they run in parallel without seeing each other's
// rows. docs/decisions.md ("Tests start from one seeded snapshot") has the choice and its measurements.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { inject } from 'vitest';
import type { Config } from '../config.js';
import { createDatabase, dumpEmbedded, type DatabaseOptions } from '../db/knex.js';
import { migrateLatest } from '../db/migrate.js';
import { assertTenantIsolation } from '../db/rls.js';
import { seedDemo } from '../seeds/demo.js';

/** The migrated and seeded database of a test run, as the integration project's globalSetup made it. */
export type TestSnapshot =
  | { kind: 'pglite'; file: string; seededOn: string }
  | { kind: 'postgres'; template: string; seededOn: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** Provided by the integration project's globalSetup; absent in the other projects (browser). */
    testSnapshot?: TestSnapshot;
  }
}

/** What every test database holds: the schema, the tenant-isolation check the app runs at start, the demo data. */
export async function migrateAndSeed(knex: Knex): Promise<void> {
  await migrateLatest(knex);
  await assertTenantIsolation(knex);
  await seedDemo(knex);
}

/**
 * The demo deliveries and stock are dated back from the day they are seeded (seedBewegungsdaten), and tests
 * count days back from today: a snapshot seeded before midnight (UTC, as the seed counts) is not used after it.
 */
const today = () => new Date().toISOString().slice(0, 10);

/** A fresh database of its own on the server of `baseUrl` (a copy of `template` if given), and how to drop it. */
export async function createPostgresDatabase(baseUrl: string, { template, prefix = 'test' }: { template?: string; prefix?: string } = {}): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const again = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
      await again.raw(`drop database if exists ${name} with (force)`);
      await again.destroy();
    },
  };
}

/**
 * Migrates and seeds the run's snapshot; `remove` deletes it after the run. On PostgreSQL every connection to
 * the template is closed before it is returned: CREATE DATABASE … TEMPLATE refuses a source that is in use.
 */
export async function createSnapshot(baseUrl = process.env.TEST_DATABASE_URL): Promise<{ snapshot: TestSnapshot; remove: () => Promise<void> }> {
  if (baseUrl) {
    const template = await createPostgresDatabase(baseUrl, { prefix: 'test_template' });
    const { knex } = createDatabase({ kind: 'postgres', url: template.url });
    try {
      const seededOn = today();
      await migrateAndSeed(knex);
      await knex.destroy();
      return { snapshot: { kind: 'postgres', template: template.name, seededOn }, remove: template.drop };
    } catch (err) {
      await knex.destroy().catch(() => {});
      await template.drop().catch(() => {});
      throw err;
    }
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-test-snapshot-'));
  const { knex } = createDatabase({ kind: 'pglite', dir: null });
  try {
    const seededOn = today();
    await migrateAndSeed(knex);
    const file = path.join(dir, 'seeded.tar.gz');
    writeFileSync(file, Buffer.from(await (await dumpEmbedded(knex)).arrayBuffer()));
    return { snapshot: { kind: 'pglite', file, seededOn }, remove: async () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    await knex.destroy();
  }
}

export interface TestDatabase {
  db: Config['db'];
  /** For createDatabase: on PGlite, the snapshot to load. */
  options: DatabaseOptions;
  /** Whether it holds the seeded snapshot already; if not, the caller migrates and seeds it (migrateAndSeed). */
  seeded: boolean;
  /** Drops a PostgreSQL database after the file (an in-memory PGlite goes with its connection). */
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: a copy of the run's snapshot, or, without a snapshot for today (the
 * browser project has none), an empty one for the caller to migrate and seed.
 */
export async function testDatabase(): Promise<TestDatabase> {
  const provided = inject('testSnapshot');
  const snapshot = provided?.seededOn === today() ? provided : undefined;
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) {
    const template = snapshot?.kind === 'postgres' ? snapshot.template : undefined;
    const own = await createPostgresDatabase(baseUrl, { template });
    return { db: { kind: 'postgres', url: own.url }, options: {}, seeded: template !== undefined, drop: own.drop };
  }
  const file = snapshot?.kind === 'pglite' ? snapshot.file : undefined;
  return {
    db: { kind: 'pglite', dir: null },
    options: file ? { loadDataDir: new Blob([readFileSync(file)]) } : {},
    seeded: file !== undefined,
    drop: async () => {},
  };
}

/**
 * An embedded database in a folder of its own (what `npm start` and the bench open), migrated and seeded: from
 * the run's snapshot when there is one for today, else migrated and seeded here. For the tests that drive the
 * CLIs or the bench on a database on disk.
 */
export async function seededFolder(dir: string): Promise<void> {
  const provided = inject('testSnapshot');
  const file = provided?.kind === 'pglite' && provided.seededOn === today() ? provided.file : undefined;
  const { knex } = createDatabase({ kind: 'pglite', dir }, file ? { loadDataDir: new Blob([readFileSync(file)]) } : {});
  try {
    if (file) await knex.raw('select 1');
    else await migrateAndSeed(knex);
  } finally {
    await knex.destroy();
  }
}
