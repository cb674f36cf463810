// `npm run db:restore -- <file> [--force]`: restores a backup of `npm run db:backup` into the configured database
// (DATABASE_URL, else the embedded database in PGLITE_DIR), which must be empty unless --force. Sessions of the
// backup are ended; `npm start` migrates a backup of an older version forward.
import { loadDbConfig } from '../config.js';
import { describeDatabase, restore } from '../db/backup.js';
import { runCli } from './run.js';

const USAGE = `Usage: npm run db:restore -- <file> [--force]
  <file>    a backup written by npm run db:backup
  --force   replace what the target database holds (without it, the target must be empty)`;

runCli(USAGE, async ({ file, force }) => {
  if (!file) throw new Error(`Name the backup to restore.\n${USAGE}`);
  const db = loadDbConfig();
  await restore(db, file, { force });
  console.log(`Restored ${file} into the ${describeDatabase(db)}. Signed-in sessions of the backup were ended: everyone signs in again.`);
});
