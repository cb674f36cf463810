// `npm run db:backup` and `npm run db:restore`, run as the CLIs they are, on both databases: a seeded database is
// backed up and restored into an empty one, and every table (enumerated from information_schema, so tables
// added later are covered without touching this test) is compared row by row, with the sequences. Sessions are
// the one planned difference: a restore ends them.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../db/knex.js';
import { migrateLatest } from '../db/migrate.js';
import { seedDemo } from '../seeds/demo.js';
import { seededFolder } from '../testing/database.js';
import { createPostgresDatabase } from '../testing/database.js';
import { runTool } from '../testing/child-server.js';

const PG = process.env.TEST_DATABASE_URL;

interface Snapshot {
  tables: Record<string, string[]>;
  sequences: Record<string, string>;
}

/** Every row of every table of the public schema as JSON text (sorted), and where every sequence stands. */
async function snapshot(knex: Knex): Promise<Snapshot> {
  const names = async (sql: string) => ((await knex.raw(sql)).rows as { name: string }[]).map((r) => r.name);
  const tables: Snapshot['tables'] = {};
  for (const table of await names(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)) {
    const { rows } = await knex.raw('select row_to_json(t)::text as row from ?? t', [table]);
    tables[table] = (rows as { row: string }[]).map((r) => r.row).sort();
  }
  const sequences: Snapshot['sequences'] = {};
  for (const sequence of await names(`select sequence_name as name from information_schema.sequences where sequence_schema = 'public'`)) {
    const { rows } = await knex.raw('select last_value, is_called from ??', [sequence]);
    sequences[sequence] = JSON.stringify(rows[0]);
  }
  return { tables, sequences };
}

async function snapshotOf(db: Database): Promise<Snapshot> {
  try {
    return await snapshot(db.knex);
  } finally {
    await db.knex.destroy();
  }
}

/** The demo data, and a signed-in session that the restore must end. */
async function seed(db: Database): Promise<void> {
  await migrateLatest(db.knex);
  await seedDemo(db.knex);
  await signedInSession(db);
}

/** A signed-in session of ADMIN, which a restore must end. */
async function signedInSession(db: Database): Promise<void> {
  const admin = await db.knex('benutzer').where({ login: 'ADMIN' }).first('id');
  await db.knex('sessions').insert({ sid: 'backup-test', benutzer_id: admin.id, sess: JSON.stringify({ passport: { user: admin.id } }), expires_at: new Date(Date.now() + 3_600_000) });
}

/** The restored database equals the source in every table but sessions, which the restore emptied. */
function expectRestored(restored: Snapshot, source: Snapshot) {
  expect(source.tables.sessions).toHaveLength(1);
  expect(restored.tables.sessions).toEqual([]);
  const withoutSessions = (s: Snapshot) => ({ ...s, tables: { ...s.tables, sessions: [] } });
  expect(withoutSessions(restored)).toEqual(withoutSessions(source));
}

const backupCli = (args: string[], env: Record<string, string | undefined>, cwd?: string) => runTool('src/cli/backup.ts', args, env, cwd);
const restoreCli = (args: string[], env: Record<string, string | undefined>) => runTool('src/cli/restore.ts', args, env);

// Each case runs the tools as processes and opens embedded databases: slow on a busy machine.
const TOOLS_TIMEOUT_MS = 180_000;

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'portal-backup-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('embedded database (PGlite)', { timeout: TOOLS_TIMEOUT_MS }, () => {
  let sourceDir: string;
  let source: Snapshot;
  let file: string;
  beforeAll(async () => {
    sourceDir = path.join(work, 'pglite-source');
    // The run's seeded snapshot, in a folder as npm start keeps it.
    await seededFolder(sourceDir);
    const db = createDatabase({ kind: 'pglite', dir: sourceDir });
    await signedInSession(db);
    source = await snapshotOf(db);
  }, TOOLS_TIMEOUT_MS);

  it('backs up to a timestamped file under ./backups and restores into an empty folder with every row', async () => {
    // What a real seeded database holds, so that the comparison below compares something.
    expect(Object.keys(source.tables).length).toBeGreaterThanOrEqual(15);
    expect(source.tables.standorte.length).toBeGreaterThan(10);

    const made = await backupCli([], { PGLITE_DIR: sourceDir }, work);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const named = made.stdout.match(/written to (backups\/portal-pglite-\d{8}T\d{6}Z\.tar\.gz)/);
    expect(named, made.stdout).not.toBeNull();
    file = path.join(work, named![1]);
    expect(statSync(file).mode & 0o777).toBe(0o600); // password hashes and TOTP secrets inside

    const restored = await restoreCli([file], { PGLITE_DIR: path.join(work, 'pglite-target') });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expectRestored(await snapshotOf(createDatabase({ kind: 'pglite', dir: path.join(work, 'pglite-target') })), source);
  });

  it('replaces a database only with --force, and refuses an open database, an existing file and damaged files', async () => {
    const target = path.join(work, 'pglite-target');
    const changed = createDatabase({ kind: 'pglite', dir: target });
    await changed.knex('standorte_versionen').where({ mandant: 'DEMO', nr: '1001' }).delete();
    await changed.knex.destroy();

    const refused = await restoreCli([file], { PGLITE_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('holds a database already');
    expect(refused.stderr).toContain('--force');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const still = createDatabase({ kind: 'pglite', dir: target });
    expect(await still.knex('standorte_versionen').where({ mandant: 'DEMO', nr: '1001' }).first()).toBeUndefined();
    await still.knex.destroy();

    expect((await restoreCli([file, '--force'], { PGLITE_DIR: target })).code).toBe(0);
    expectRestored(await snapshotOf(createDatabase({ kind: 'pglite', dir: target })), source);

    // Open in another process (here: this one): backing it up or restoring over it would damage it.
    const open = createDatabase({ kind: 'pglite', dir: target });
    await open.knex.raw('select 1');
    try {
      for (const run of [backupCli([path.join(work, 'open.tar.gz')], { PGLITE_DIR: target }), restoreCli([file, '--force'], { PGLITE_DIR: target })]) {
        const res = await run;
        expect(res.code).toBe(1);
        expect(res.stderr).toContain('is open: stop the portal first');
      }
    } finally {
      await open.knex.destroy();
    }

    const damaged = path.join(work, 'damaged.tar.gz');
    writeFileSync(damaged, readFileSync(file).subarray(0, 50_000));
    const pgDump = path.join(work, 'other.dump');
    writeFileSync(pgDump, 'PGDMP and more');
    const elsewhere = { PGLITE_DIR: path.join(work, 'pglite-never') };
    const [exists, fromDamaged, wrongKind, missing] = await Promise.all([
      backupCli([file], { PGLITE_DIR: sourceDir }),
      restoreCli([damaged], elsewhere),
      restoreCli([pgDump], elsewhere),
      restoreCli([], elsewhere),
    ]);
    expect(exists).toMatchObject({ code: 1, stderr: expect.stringContaining('exists already') });
    expect(fromDamaged).toMatchObject({ code: 1, stderr: expect.stringContaining('is damaged') });
    expect(wrongKind).toMatchObject({ code: 1, stderr: expect.stringContaining('is a PostgreSQL backup: restore it with DATABASE_URL set') });
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('Usage: npm run db:restore') });
    expect(existsSync(elsewhere.PGLITE_DIR)).toBe(false);
  });
});

describe.skipIf(!PG)('PostgreSQL', { timeout: TOOLS_TIMEOUT_MS }, () => {
  const databases: { url: string; drop: () => Promise<void> }[] = [];
  let source: Snapshot;
  let sourceUrl: string;
  let targetUrl: string;
  const file = () => path.join(work, 'postgres.dump');
  beforeAll(async () => {
    const [a, b] = [await createPostgresDatabase(PG!), await createPostgresDatabase(PG!)];
    databases.push(a, b);
    sourceUrl = a.url;
    targetUrl = b.url;
    const db = createDatabase({ kind: 'postgres', url: sourceUrl });
    await seed(db);
    source = await snapshotOf(db);
  }, TOOLS_TIMEOUT_MS);
  afterAll(async () => {
    for (const d of databases) await d.drop();
  });

  it('backs up with pg_dump and restores into an empty database with every row', async () => {
    expect(source.tables.standorte.length).toBeGreaterThan(10);
    const made = await backupCli([file()], { DATABASE_URL: sourceUrl });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`written to ${file()}`);
    expect(statSync(file()).mode & 0o777).toBe(0o600);

    const restored = await restoreCli([file()], { DATABASE_URL: targetUrl });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expectRestored(await snapshotOf(createDatabase({ kind: 'postgres', url: targetUrl })), source);
  });

  it('replaces a database that holds data only with --force', async () => {
    const changed = createDatabase({ kind: 'postgres', url: targetUrl });
    await changed.knex('standorte_versionen').where({ mandant: 'DEMO', nr: '1001' }).delete();
    await changed.knex('benutzer').where({ login: 'USER' }).update({ vorname: 'Geändert' });
    await changed.knex.destroy();

    const refused = await restoreCli([file()], { DATABASE_URL: targetUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not empty \(\d+ tables\).*--force/);
    const still = createDatabase({ kind: 'postgres', url: targetUrl });
    expect((await still.knex('benutzer').where({ login: 'USER' }).first('vorname')).vorname).toBe('Geändert');
    await still.knex.destroy();

    const forced = await restoreCli([file(), '--force'], { DATABASE_URL: targetUrl });
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expectRestored(await snapshotOf(createDatabase({ kind: 'postgres', url: targetUrl })), source);
  });

  it('says what went wrong when the server cannot be reached, and leaves no file behind', async () => {
    const unreachable = 'postgres://postgres@127.0.0.1:1/portal';
    const out = path.join(work, 'unreachable.dump');
    const made = await backupCli([out], { DATABASE_URL: unreachable });
    expect(made.code).toBe(1);
    expect(made.stderr).toContain('pg_dump failed');
    expect(made.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
    const restored = await restoreCli([file()], { DATABASE_URL: unreachable });
    expect(restored.code).toBe(1);
    expect(restored.stderr).toContain('Cannot connect to the PostgreSQL database portal on 127.0.0.1:1');
  });
});
