// `npm start` runs the server compiled by scripts/build-server.mjs (dist/server), not the TypeScript: this
// starts it exactly so, on a new embedded database in a temporary folder, and checks what only the compiled
// build could get wrong: that it finds its migrations (compiled, under their TypeScript names), views, locales
// and browser code, seeds the demo data, serves pages, and stops cleanly on SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../db/knex.js';
import { startServer, type ChildServer } from '../testing/child-server.js';

const dir = mkdtempSync(path.join(tmpdir(), 'compiled-start-'));
let server: ChildServer | undefined;
afterAll(async () => {
  await server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start (the compiled server)', () => {
  it('migrates and seeds a new embedded database, serves pages in both languages, and exits 0 on SIGTERM', async () => {
    server = await startServer({ PGLITE_DIR: path.join(dir, 'db') }, 150_000, { compiled: true });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', db: 'pglite' });
    const login = await fetch(`${server.url}/de/login`);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain('Anmelden');
    // The browser code is named from the build's manifest.
    expect(html).toMatch(/src="\/build\/[^"]+\.js"/);
    expect(await (await fetch(`${server.url}/en/login`)).text()).toContain('Sign in');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
    // Every migration ran, under the names the TypeScript sources have (so tsx tools find the schema current).
    const { knex } = createDatabase({ kind: 'pglite', dir: path.join(dir, 'db') });
    try {
      const names: string[] = await knex('knex_migrations').orderBy('id').pluck('name');
      expect(names.length).toBeGreaterThan(5);
      expect(names.every((n) => n.endsWith('.ts'))).toBe(true);
      expect(Number((await knex('einlieferungen').count({ n: '*' }))[0].n)).toBeGreaterThan(0);
    } finally {
      await knex.destroy();
    }
  }, 200_000);
});
