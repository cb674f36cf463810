// Backups of either database and their restore: pg_dump/pg_restore in custom format for PostgreSQL, PGlite's
// tarball of its data folder for the embedded database.
// - A backup is written under a temporary name and renamed when complete, so a failed one never looks good.
// - A restore refuses a target that already holds data unless forced, and is all or nothing: pg_restore runs in
//   one transaction; the embedded database is loaded beside the target and swapped in when complete.
// - A restore ends the sessions it brings back: a logout or deactivation after the backup must not be undone.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../config.js';

type Db = Config['db'];
type Kind = Db['kind'];

/** A failure with a message for the person at the terminal; the CLI prints it without a stack trace. */
export class BackupError extends Error {}

export interface BackupOptions {
  /** Overwrite an existing backup file; restore into a database that holds data. */
  force?: boolean;
}

const EXTENSION: Record<Kind, string> = { postgres: '.dump', pglite: '.tar.gz' };

/** backups/portal-<kind>-<UTC time>.<ext>, e.g. backups/portal-postgres-20261121T112539Z.dump */
export function defaultBackupFile(kind: Kind, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return path.join('backups', `portal-${kind}-${stamp}${EXTENSION[kind]}`);
}

/** For messages: which database, without credentials. */
export function describeDatabase(db: Db): string {
  if (db.kind === 'pglite') return `embedded database in ${db.dir ?? '(memory)'}`;
  const url = new URL(db.url);
  return `PostgreSQL database ${url.pathname.slice(1)} on ${url.hostname}:${url.port || 5432}`;
}

export async function backup(db: Db, file: string, { force = false }: BackupOptions = {}): Promise<{ bytes: number }> {
  if (existsSync(file) && !force) throw new BackupError(`${file} exists already: name another file, or add --force to overwrite it.`);
  // A backup holds password hashes and second-factor secrets: readable by its owner only.
  await mkdir(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial`;
  try {
    // Created before the dump writes to it, so it is never readable by others, not even for a moment.
    await writeFile(partial, '', { mode: 0o600 });
    if (db.kind === 'postgres') await dumpPostgres(db.url, partial);
    else await dumpPglite(folderOf(db), partial);
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return { bytes: (await stat(file)).size };
}

export async function restore(db: Db, file: string, { force = false }: BackupOptions = {}): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const kind = await kindOfFile(file);
  if (!kind) throw new BackupError(`${file} is not a backup of the portal (neither pg_dump's custom format nor an embedded database).`);
  if (kind !== db.kind) {
    throw new BackupError(kind === 'postgres'
      ? `${file} is a PostgreSQL backup: restore it with DATABASE_URL set.`
      : `${file} is a backup of the embedded database: restore it without DATABASE_URL (PGLITE_DIR names the folder).`);
  }
  if (db.kind === 'postgres') await restorePostgres(db.url, file, force);
  else await restorePglite(folderOf(db), file, force);
}

/** Which database a backup file is for, by its first bytes: pg_dump's custom format, or a gzipped tarball. */
async function kindOfFile(file: string): Promise<Kind | null> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(5), 0, 5, 0);
    if (bytesRead === 5 && buffer.toString('latin1') === 'PGDMP') return 'postgres';
    if (bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'pglite';
    return null;
  } finally {
    await handle.close();
  }
}

type Query = (sql: string) => Promise<{ rows: Record<string, unknown>[] }>;

async function endSessions(query: Query): Promise<void> {
  const { rows } = await query(`select to_regclass('public.sessions') as t`);
  if (rows[0]?.t) await query('delete from sessions');
}

// PostgreSQL ------------------------------------------------------------------------------------------------

/** The URL without its password, which reaches the tools through PGPASSWORD instead, so `ps` never shows it. */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(new BackupError(err.code === 'ENOENT' ? `${tool} was not found: install the PostgreSQL client tools (the server's major version or newer).` : `${tool}: ${err.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit code ${code}):\n${stderr.trim()}`))));
  });
}

async function dumpPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = libpq(url);
  await runTool('pg_dump', ['--format=custom', '--no-password', `--file=${file}`, `--dbname=${dbname}`], env);
}

async function withClient<T>(url: string, fn: (query: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(`Cannot connect to the ${describeDatabase({ kind: 'postgres', url })}: ${(err as Error).message}`);
  }
  try {
    return await fn((sql) => client.query(sql));
  } finally {
    await client.end();
  }
}

async function restorePostgres(url: string, file: string, force: boolean): Promise<void> {
  const tables = await withClient(url, async (query) => {
    const { rows } = await query(`select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`);
    return rows[0].n as number;
  });
  if (tables > 0 && !force) {
    throw new BackupError(`The ${describeDatabase({ kind: 'postgres', url })} is not empty (${tables} tables): restore into an empty database (createdb), or add --force to replace what the backup contains.`);
  }
  const { dbname, env } = libpq(url);
  // --no-owner: the restored objects belong to the user who restores (the portal's database user), whatever
  // role owned them where the backup was made. --clean only where there is something to replace.
  const replace = tables > 0 ? ['--clean', '--if-exists'] : [];
  await runTool('pg_restore', ['--no-owner', '--no-password', '--exit-on-error', '--single-transaction', ...replace, `--dbname=${dbname}`, file], env);
  await withClient(url, endSessions);
}

// Embedded database (PGlite) --------------------------------------------------------------------------------

function folderOf(db: Extract<Db, { kind: 'pglite' }>): string {
  if (!db.dir) throw new BackupError('The embedded database lives in memory only: there is nothing to back up or restore.');
  return path.resolve(db.dir);
}

const hasEntries = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

/** PGlite keeps postmaster.pid while the database is open; opening it from a second process would damage it. */
function refuseIfOpen(dir: string): void {
  const pid = path.join(dir, 'postmaster.pid');
  if (!existsSync(pid)) return;
  throw new BackupError(
    `The embedded database in ${dir} is open: stop the portal first. If it is not running, it did not shut down cleanly: start and stop it once (npm start, then Ctrl+C).`,
  );
}

async function dumpPglite(dir: string, file: string): Promise<void> {
  if (!hasEntries(dir)) throw new BackupError(`There is no embedded database in ${dir}.`);
  refuseIfOpen(dir);
  const db = new PGlite(dir);
  try {
    await db.waitReady;
    const tarball = await db.dumpDataDir('gzip');
    await writeFile(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await db.close();
  }
}

/**
 * The tarball inside the gzip file. Unpacked here because a damaged (cut short) file makes PGlite's own gunzip
 * throw where no caller can catch it; PGlite takes the plain tarball as well.
 */
async function unpack(file: string): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return gunzipSync(await readFile(file)) as Uint8Array<ArrayBuffer>;
  } catch (err) {
    throw new BackupError(`${file} is damaged (${(err as Error).message}): it cannot be restored.`);
  }
}

async function restorePglite(dir: string, file: string, force: boolean): Promise<void> {
  if (existsSync(dir)) refuseIfOpen(dir);
  if (hasEntries(dir) && !force) throw new BackupError(`${dir} holds a database already: restore into another folder (PGLITE_DIR), or add --force to replace it.`);
  const tar = await unpack(file);
  const staging = `${dir}.restoring`;
  await rm(staging, { recursive: true, force: true });
  try {
    const db = new PGlite(staging, { loadDataDir: new Blob([tar]) });
    try {
      await db.waitReady;
      await endSessions((sql) => db.query(sql));
    } finally {
      await db.close().catch(() => {});
    }
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw new BackupError(`${file} could not be loaded: ${(err as Error).message}`);
  }
  const replaced = `${dir}.replaced`;
  await rm(replaced, { recursive: true, force: true });
  if (existsSync(dir)) await rename(dir, replaced);
  await mkdir(path.dirname(dir), { recursive: true });
  await rename(staging, dir);
  await rm(replaced, { recursive: true, force: true });
}
