// `npm run db:backup [-- file] [--force]`: backs up the configured database: with DATABASE_URL through pg_dump
// (custom format), else the embedded database in PGLITE_DIR (stop the portal first). Without a file name:
// backups/portal-<postgres|pglite>-<UTC time>.<dump|tar.gz>.
import { loadDbConfig } from '../config.js';
import { backup, defaultBackupFile, describeDatabase } from '../db/backup.js';
import { runCli } from './run.js';

const USAGE = `Usage: npm run db:backup [-- <file>] [--force]
  <file>    where to write the backup (default: backups/portal-<kind>-<UTC time>.<dump|tar.gz>)
  --force   overwrite <file> if it exists`;

runCli(USAGE, async ({ file, force }) => {
  const db = loadDbConfig();
  const target = file ?? defaultBackupFile(db.kind);
  const { bytes } = await backup(db, target, { force });
  console.log(`Backup of the ${describeDatabase(db)} written to ${target} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
});
