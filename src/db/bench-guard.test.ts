// The benchmark's data step (bench/data.ts) on a database that holds real tenants: it refuses unless told
// which tenant to use, refuses a tenant it did not create, and otherwise fills only its own tenant.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepare } from '../../bench/data.js';
import { createDatabase } from './knex.js';
import { seededFolder } from '../testing/database.js';

let dir: string;
const db = () => ({ kind: 'pglite' as const, dir, note: '' });
const counts = async () => {
  const { knex } = createDatabase({ kind: 'pglite', dir });
  try {
    const rows = (await knex('einlieferungen').select('mandant').count({ n: '*' }).groupBy('mandant').orderBy('mandant')) as { mandant: string; n: string }[];
    return Object.fromEntries(rows.map((r) => [r.mandant, Number(r.n)]));
  } finally {
    await knex.destroy();
  }
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'bench-guard-'));
  await seededFolder(dir);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run bench on a database with real data', () => {
  it('refuses without --tenant, and refuses a tenant it did not create, changing nothing', async () => {
    const before = await counts();
    expect(before.DEMO).toBeGreaterThan(0);
    await expect(prepare(db(), { tenant: null, rows: 20, reload: false, log: () => {} })).rejects.toThrow(/other tenants/);
    await expect(prepare(db(), { tenant: 'DEMO', rows: 20, reload: false, log: () => {} })).rejects.toThrow(/not created by the benchmark/);
    expect(await counts()).toEqual(before);
  });

  it('fills a tenant of its own with --tenant and touches no other', async () => {
    const before = await counts();
    const bench = await prepare(db(), { tenant: 'lasttest', rows: 20, reload: false, log: () => {} });
    expect(bench.tenant).toBe('LASTTEST');
    const after = await counts();
    expect(after).toEqual({ ...before, LASTTEST: 20 });
    // Run again: its own tenant, already loaded, stays as it is.
    expect((await prepare(db(), { tenant: 'LASTTEST', rows: 20, reload: false, log: () => {} })).loaded).toBe(false);
    expect(await counts()).toEqual(after);
  });
});
