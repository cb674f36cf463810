// SIGTERM under load, on the real server process (src/cli/start.ts on an embedded database in a temporary
// folder): requests in flight finish, new connections are refused, idle keep-alive connections do not hold the
// process, the pool is closed, and the exit code says whether the drain was clean.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../db/knex.js';
import { connectError, sleep, slowSignIn, startServer, until, type ChildServer } from '../testing/child-server.js';

/** A keep-alive connection that has served one request and now sits idle, as browsers keep them. */
async function idleKeepAlive(port: number): Promise<{ closed: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => {
    socket.on('data', (d) => d.toString().includes('"status":"ok"') && resolve());
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
  });
  return { closed };
}

// Whole server processes on a machine that may be busy: starting one (and seeding its database) can take long.
const PROCESS_TIMEOUT_MS = 180_000;

describe('SIGTERM', { timeout: PROCESS_TIMEOUT_MS }, () => {
  let dir: string;
  let server: ChildServer | undefined;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-shutdown-'));
  });
  afterAll(async () => {
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the requests in flight, refuses new connections, closes idle ones and the pool, and exits 0', async () => {
    const pglite = path.join(dir, 'pglite');
    // A drain timeout far off: exit code 0 then says the drain ended by itself, not by the cut.
    server = await startServer({ PGLITE_DIR: pglite, SHUTDOWN_TIMEOUT_MS: String(PROCESS_TIMEOUT_MS) });
    const { port } = server;
    const idle = await idleKeepAlive(port);
    const inFlight = [slowSignIn(port, 'USER', 'User12345'), slowSignIn(port, 'LESER', 'Leser12345'), slowSignIn(port, 'TADMIN', 'Tadmin12345')];
    await sleep(300); // the server has their headers and the first bytes of their bodies

    server.child.kill('SIGTERM');
    await until('the shutdown to begin', () => server!.output().includes('SIGTERM: accepting no new connections, finishing 3 request(s) in flight.'), 30_000);
    expect(await connectError(port)).toBe('ECONNREFUSED');
    await idle.closed; // an idle keep-alive connection does not hold the process up
    await sleep(300);
    expect(server.child.exitCode).toBeNull(); // still waiting for the three

    for (const r of inFlight) r.finish();
    const replies = await Promise.all(inFlight.map((r) => r.reply));
    const answered = Date.now();
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body).token).toMatch(/^Bearer /);
      expect(reply.headers.connection).toBe('close');
    }
    // Their keep-alive connections are closed with the responses, not after Node's 5 s keep-alive timeout.
    await until('the server to close', () => server!.output().includes('All requests finished.'), 30_000);
    expect(Date.now() - answered).toBeLessThan(4000);

    expect(await server.exited).toBe(0);
    const log = server.output();
    const order = ['SIGTERM:', 'All requests finished.', 'Database pool closed.'].map((line) => log.indexOf(line));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // The three sign-ins were written, and the embedded database opens cleanly again.
    const db = createDatabase({ kind: 'pglite', dir: pglite });
    try {
      const logins = await db.knex('sessions as s').join('benutzer as b', 'b.id', 's.benutzer_id').pluck('b.login');
      expect(logins).toEqual(expect.arrayContaining(['USER', 'LESER', 'TADMIN']));
    } finally {
      await db.knex.destroy();
    }
  });

  it('cuts a request that outlasts the drain timeout and exits 1', async () => {
    // A copy of the first test's database: already seeded, so this server starts quickly.
    const pglite = path.join(dir, 'pglite-2');
    cpSync(path.join(dir, 'pglite'), pglite, { recursive: true });
    server = await startServer({ PGLITE_DIR: pglite, SHUTDOWN_TIMEOUT_MS: '1000' });
    const stuck = slowSignIn(server.port, 'USER', 'User12345');
    await sleep(300);

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await expect(stuck.reply).rejects.toThrow(); // its connection was cut
    expect(await server.exited).toBe(1);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1000);
    expect(server.output()).toContain('Shutdown: cutting 1 request(s) still in flight.');
    expect(server.output()).toContain('Database pool closed.');
  });
});
