// `npm run db:seed`: migrate, then add the demo data (idempotent).
// `npm run db:seed -- --scale N [--tenant BENCH] [--replace]`: N deliveries with master data and stock for one
// tenant (default BENCH), for load tests; other tenants are never touched.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/knex.js';
import { migrateLatest } from '../db/migrate.js';
import { seedDemo } from '../seeds/demo.js';
import { ScaleRefused, seedScale } from '../seeds/scale.js';

const { values } = parseArgs({
  options: { scale: { type: 'string' }, tenant: { type: 'string', default: 'BENCH' }, replace: { type: 'boolean', default: false } },
});

const db = createDatabase(loadConfig().db);

async function run() {
  await migrateLatest(db.knex);
  if (values.scale === undefined) {
    const { usersCreated } = await seedDemo(db.knex);
    console.log(`Demo data present (${usersCreated} users created).`);
    return;
  }
  const result = await seedScale(db.knex, { mandant: values.tenant, deliveries: Number(values.scale), replace: values.replace });
  const total = result.einlieferungen + result.ablieferungen;
  console.log(`${values.tenant.toUpperCase()}: ${result.einlieferungen} Einlieferungen, ${result.ablieferungen} Ablieferungen, ${result.bestaende} Bestände in ${(result.ms / 1000).toFixed(1)} s (${Math.round(total / (result.ms / 1000))} Lieferungen/s, ${db.kind}).`);
}

run()
  .catch((err) => {
    console.error(err instanceof ScaleRefused ? err.message : err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => db.knex.destroy());
