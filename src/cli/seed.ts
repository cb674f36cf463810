// `npm run db:seed`: migrate, then add the demo data (idempotent).
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/knex.js';
import { migrateLatest } from '../db/migrate.js';
import { seedDemo } from '../db/seed.js';

const db = createDatabase(loadConfig().db);
migrateLatest(db.knex)
  .then(() => seedDemo(db.knex))
  .then(({ usersCreated }) => console.log(`Demo data present (${usersCreated} users created).`))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => db.knex.destroy());
