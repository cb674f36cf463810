// For the knex CLI (`npx knex --knexfile knexfile.ts migrate:status`). The app itself migrates on start.
import { loadConfig } from './src/config.js';
import { migrationConfig } from './src/db/migrate.js';

const config = loadConfig();
export default config.db.kind === 'postgres'
  ? { client: 'pg', connection: config.db.url, migrations: migrationConfig }
  : { client: 'knex-pglite', dialect: 'postgres', connection: { filename: config.db.dir }, migrations: migrationConfig };
