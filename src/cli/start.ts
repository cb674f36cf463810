// `npm start`: build the islands if they are not built, migrate, seed the embedded database when empty, serve.
// On PostgreSQL from one worker process per core (src/cluster.ts); the embedded database from this process alone.
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from '../bootstrap.js';
import { runPrimary, serveWorker } from '../cluster.js';
import { loadConfig } from '../config.js';
import { closeDatabase } from '../db/knex.js';
import { DEMO_USERS } from '../seeds/demo.js';
import { BUILD_DIR } from '../http/assets.js';
import { listen } from '../server.js';

function announce(port: number, note: string) {
  console.log(`Portal running at http://localhost:${port}/de/login (${note})`);
  console.log('Demo logins:');
  for (const u of DEMO_USERS) console.log(`  ${u.login.padEnd(8)} ${u.password}`);
}

async function main() {
  const config = loadConfig();
  if (cluster.isWorker) return serveWorker(config);
  if (!existsSync(path.join(BUILD_DIR, '.vite', 'manifest.json'))) {
    console.log('Building the islands (first start)…');
    const { build } = await import('vite');
    await build({ logLevel: 'warn' });
  }
  if (config.db.kind === 'postgres') {
    return runPrimary(config, { onListening: (port, pids) => announce(port, `database: postgres, ${pids.length} worker(s): ${pids.join(', ')}`) });
  }
  // PGlite is a database inside this process: other processes cannot open it at the same time.
  console.log(`The embedded database serves from this one process (it cannot be shared)${config.webConcurrency ? '; WEB_CONCURRENCY applies on PostgreSQL only' : ''}.`);
  const { app, db } = await bootstrap(config, { seedIfEmpty: true });
  const server = await listen(app, { port: config.port, drainTimeoutMs: config.shutdownTimeoutMs, onClose: () => closeDatabase(db.knex) });
  const address = server.address();
  announce(typeof address === 'object' && address ? address.port : config.port, 'database: pglite');
}

main().catch((err) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(cluster.isWorker ? `Worker ${process.pid}: ${message}` : message);
  process.exit(1);
});
