import { loadConfig } from '../config.js';
import { createDatabase } from '../db/knex.js';
import { migrateLatest } from '../db/migrate.js';

const db = createDatabase(loadConfig().db);
migrateLatest(db.knex)
  .then((applied) => console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date'))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => db.knex.destroy());
