// Builds the real app against a real database for a test file: a database of its own (an in-memory PGlite by
// default, or, when TEST_DATABASE_URL is set, a database of its own on that PostgreSQL server, dropped
// afterwards), started from the run's migrated and seeded snapshot (src/testing/database.ts), so test files run
// in parallel without seeing each other's rows and without each migrating and seeding again.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../app.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { COUNTDOWN_AFTER_MS, SESSION_IDLE_MS } from '../config.js';
import { createDatabase, type Database } from '../db/knex.js';
import { assertTenantIsolation } from '../db/rls.js';
import { createI18n } from '../http/i18n.js';
import { migrateAndSeed, testDatabase } from './database.js';
import { installResponseCheck } from './response-check.js';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  db: Database;
  config: Config;
  /**
   * Serves the app on a free port of 127.0.0.1 for tests that talk HTTP as a browser does (raw bytes, their
   * own cookies); its address as `base`. close() stops it too.
   */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<Config> = {}, clock?: Clock): Promise<TestApp> {
  const own = await testDatabase();
  const config: Config = {
    port: 0,
    env: 'test',
    db: own.db,
    sessionSecret: randomBytes(32).toString('hex'),
    trustProxy: 0,
    sessionIdleMs: SESSION_IDLE_MS,
    countdownAfterMs: COUNTDOWN_AFTER_MS,
    sso: null,
    shutdownTimeoutMs: 10_000,
    ...overrides,
  };
  const db = createDatabase(config.db, own.options);
  // A copy of the snapshot is checked as the app checks its database at every start (src/bootstrap.ts).
  await (own.seeded ? assertTenantIsolation(db.knex) : migrateAndSeed(db.knex));
  const i18n = await createI18n();
  // Unexpected errors stay quiet in tests unless DEBUG_ERRORS=1 (expected 500s are asserted, not printed).
  const app = createApp({ config, db, i18n, clock, log: process.env.DEBUG_ERRORS ? (e) => console.error(e) : () => {} });
  // Every /api answer is checked against the API description; a mismatch fails the test (response-check-setup.ts).
  installResponseCheck(app, i18n);
  let server: Server | undefined;
  return {
    app,
    db,
    config,
    async listen() {
      server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      }
      await db.knex.destroy();
      await own.drop();
    },
  };
}
