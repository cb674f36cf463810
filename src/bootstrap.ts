// Builds everything the app needs from the configuration: database (migrated, seeded on the first embedded
// start), i18n, the app itself.
import type { Knex } from 'knex';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createDatabase } from './db/knex.js';
import { migrateLatest } from './db/migrate.js';
import { assertTenantIsolation } from './db/rls.js';
import { isEmpty, seedDemo } from './seeds/demo.js';
import { createI18n } from './http/i18n.js';

/** Migrates, then checks that the database's tenant isolation is in force before anything is served (src/db/rls.ts). */
export async function prepareDatabase(knex: Knex): Promise<void> {
  await migrateLatest(knex);
  await assertTenantIsolation(knex);
}

/**
 * `prepared`: the database was migrated and checked already, by a cluster's primary before it forked the workers
 * (src/cluster.ts), so that a start migrates once and not once per worker.
 */
export async function bootstrap(config: Config, opts: { seedIfEmpty: boolean; prepared?: boolean }) {
  const db = createDatabase(config.db);
  let seeded = false;
  try {
    if (!opts.prepared) await prepareDatabase(db.knex);
    if (opts.seedIfEmpty && (await isEmpty(db.knex))) {
      await seedDemo(db.knex);
      seeded = true;
    }
  } catch (err) {
    await db.knex.destroy().catch(() => {});
    throw err;
  }
  const i18n = await createI18n();
  const app = createApp({ config, db, i18n });
  return { app, db, seeded };
}
