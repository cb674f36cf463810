// `npm start`: build the islands if they are not built, migrate, seed the embedded database when empty, serve.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { closeDatabase } from '../db/knex.js';
import { DEMO_USERS } from '../seeds/demo.js';
import { BUILD_DIR } from '../http/assets.js';
import { listen } from '../server.js';

async function main() {
  const config = loadConfig();
  if (!existsSync(path.join(BUILD_DIR, '.vite', 'manifest.json'))) {
    console.log('Building the islands (first start)…');
    const { build } = await import('vite');
    await build({ logLevel: 'warn' });
  }
  const { app, db } = await bootstrap(config, { seedIfEmpty: config.db.kind === 'pglite' });
  const server = await listen(app, { port: config.port, drainTimeoutMs: config.shutdownTimeoutMs, onClose: () => closeDatabase(db.knex) });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Portal running at http://localhost:${port}/de/login (database: ${db.kind})`);
  console.log('Demo logins:');
  for (const u of DEMO_USERS) console.log(`  ${u.login.padEnd(8)} ${u.password}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
