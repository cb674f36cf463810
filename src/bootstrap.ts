// Builds everything the app needs from the configuration: database (migrated, seeded on the first embedded
// start), i18n, the app itself.
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createDatabase } from './db/knex.js';
import { migrateLatest } from './db/migrate.js';
import { assertTenantIsolation } from './db/rls.js';
import { isEmpty, seedDemo } from './seeds/demo.js';
import { createI18n } from './http/i18n.js';

export async function bootstrap(config: Config, opts: { seedIfEmpty: boolean }) {
  const db = createDatabase(config.db);
  let seeded = false;
  try {
    await migrateLatest(db.knex);
    // The database's tenant isolation must be in force before anything is served (src/db/rls.ts).
    await assertTenantIsolation(db.knex);
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
