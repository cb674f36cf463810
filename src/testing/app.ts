// Builds the real app against a real database for a test file: an in-memory PGlite by default, or, when
// TEST_DATABASE_URL is set, a fresh database of its own on that PostgreSQL server (dropped afterwards), so
// test files can run in parallel without seeing each other's rows.
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { createApp } from '../app.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { COUNTDOWN_AFTER_MS, SESSION_IDLE_MS } from '../config.js';
import { createDatabase, type Database } from '../db/knex.js';
import { migrateLatest } from '../db/migrate.js';
import { assertTenantIsolation } from '../db/rls.js';
import { seedDemo } from '../db/seed.js';
import { createI18n } from '../http/i18n.js';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  db: Database;
  config: Config;
  close(): Promise<void>;
}

/** A fresh database of its own on the server of `baseUrl`, and how to drop it. */
export async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  await admin.destroy();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
      await again.raw(`drop database if exists ${name} with (force)`);
      await again.destroy();
    },
  };
}

export async function createTestApp(overrides: Partial<Config> = {}, clock?: Clock): Promise<TestApp> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  const pgDb = baseUrl ? await createPostgresDatabase(baseUrl) : null;
  const config: Config = {
    port: 0,
    env: 'test',
    db: pgDb ? { kind: 'postgres', url: pgDb.url } : { kind: 'pglite', dir: null },
    sessionSecret: randomBytes(32).toString('hex'),
    trustProxy: 0,
    sessionIdleMs: SESSION_IDLE_MS,
    countdownAfterMs: COUNTDOWN_AFTER_MS,
    sso: null,
    shutdownTimeoutMs: 10_000,
    ...overrides,
  };
  const db = createDatabase(config.db);
  await migrateLatest(db.knex);
  await assertTenantIsolation(db.knex);
  await seedDemo(db.knex);
  const i18n = await createI18n();
  // Unexpected errors stay quiet in tests unless DEBUG_ERRORS=1 (expected 500s are asserted, not printed).
  const app = createApp({ config, db, i18n, clock, log: process.env.DEBUG_ERRORS ? (e) => console.error(e) : () => {} });
  return {
    app,
    db,
    config,
    async close() {
      await db.knex.destroy();
      await pgDb?.drop();
    },
  };
}
