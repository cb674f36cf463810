// `npm start` on PostgreSQL as a cluster (src/cluster.ts), run as production runs it (the compiled server) with
// WEB_CONCURRENCY=2: one session served by both workers, a killed worker replaced while the port keeps
// answering, SIGTERM draining both workers and the primary exiting 0.
//
// Which worker answered is read from the operating system (workerOf), not from the response: a header for tests
// would be production code that serves nobody, and the responses rightly do not say which process made them.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../db/knex.js';
import { seedDemo } from '../seeds/demo.js';
import { connectError, sleep, slowSignIn, startServer, until, type ChildServer } from '../testing/child-server.js';
import { createPostgresDatabase } from '../testing/database.js';
import { CookieJar } from '../testing/page-weight.js';
import { csrfFrom } from '../testing/session.js';

const PG = process.env.TEST_DATABASE_URL;

/**
 * Which of `pids` holds the server's end of a TCP connection, known by its client port: the connection's socket
 * inode from /proc/net/tcp and tcp6, and the process whose open files include that socket (Linux).
 */
function workerOf(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const port = (n: number) => `:${n.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, remote, , , , , , , inode] = line.trim().split(/\s+/);
      if (local?.endsWith(port(serverPort)) && remote?.endsWith(port(clientPort)) && inode !== '0') inodes.add(inode);
    }
  }
  const socketOf = (link: string) => {
    try {
      return readlinkSync(link).match(/^socket:\[(\d+)\]$/)?.[1] ?? '';
    } catch {
      return ''; // closed since the folder was read
    }
  };
  const holds = (pid: number) => {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      return false; // a worker that has died
    }
    return fds.some((fd) => inodes.has(socketOf(`/proc/${pid}/fd/${fd}`)));
  };
  return pids.find(holds);
}

/** The workers serving now: those the start line names, with replacements put in place of the replaced. */
function workerPids(output: string): number[] {
  const started = output.match(/running at http:\/\/localhost:\d+\/de\/login \(database: postgres, \d+ worker\(s\): ([\d, ]+)\)/);
  if (!started) throw new Error(`no start line with the workers:\n${output}`);
  let pids = started[1].split(', ').map(Number);
  for (const [, pid, replaced] of output.matchAll(/Worker (\d+) listening \(replaces (\d+)\)/g)) {
    pids = pids.map((p) => (p === Number(replaced) ? Number(pid) : p));
  }
  return pids;
}

interface Visit {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The worker that answered. */
  worker: number | undefined;
}

/**
 * One request on a new connection (so the primary hands it to the next worker), with the browser's cookies. The
 * connection is kept open until its worker has been looked up.
 */
async function visit(server: ChildServer, jar: CookieJar, path: string, form?: Record<string, string>): Promise<Visit> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = form && new URLSearchParams(form).toString();
  const headers: Record<string, string> = {};
  if (jar.header()) headers.cookie = jar.header();
  if (body) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) });
  try {
    return await new Promise<Visit>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path, method: form ? 'POST' : 'GET', agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          try {
            jar.store(res.headers);
            const worker = workerOf(server.port, req.socket!.localPort!, workerPids(server.output()));
            resolve({ status: res.statusCode!, headers: res.headers, text, worker });
          } catch (err) {
            reject(err);
          }
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  } finally {
    agent.destroy();
  }
}

// Whole server processes on a machine that may be busy.
const PROCESS_TIMEOUT_MS = 180_000;

// PostgreSQL only: on the embedded database `npm start` serves from one process, because PGlite lives inside the
// process that opened it and cannot be shared (shutdown.test.ts and compiled-start.test.ts cover that path).
describe.skipIf(!PG)('npm start on PostgreSQL: a cluster of workers', { timeout: PROCESS_TIMEOUT_MS }, () => {
  let server: ChildServer;
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await createPostgresDatabase(PG!);
    server = await startServer(
      // A drain timeout far off: exit code 0 then says the drain ended by itself, not by the cut.
      { DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('hex'), WEB_CONCURRENCY: '2', SHUTDOWN_TIMEOUT_MS: String(PROCESS_TIMEOUT_MS) },
      PROCESS_TIMEOUT_MS,
      { compiled: true },
    );
    // The primary migrated the empty database; the demo data goes in afterwards, as `npm run db:seed` would.
    const db = createDatabase({ kind: 'postgres', url: database.url });
    await seedDemo(db.knex);
    await db.knex.destroy();
  }, PROCESS_TIMEOUT_MS);
  afterAll(async () => {
    await server?.kill(); // the workers end with their primary
    await database?.drop();
  }, PROCESS_TIMEOUT_MS);

  it('migrates once in the primary and starts two workers', () => {
    expect(server.output().match(/Database migrated; starting 2 worker process\(es\) \(WEB_CONCURRENCY\)\./g)).toHaveLength(1);
    expect(new Set(workerPids(server.output())).size).toBe(2);
    expect(workerPids(server.output())).not.toContain(server.child.pid);
  });

  it('runs the workers with the memory settings of a worker (src/cluster.ts), the primary without them', () => {
    const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    for (const pid of workerPids(server.output())) {
      expect(cmdline(pid)).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--max-old-space-size=1024']));
      expect(environ(pid)).toContain('MALLOC_ARENA_MAX=1');
    }
    expect(cmdline(server.child.pid!)).not.toContain('--max-old-space-size=1024');
    expect(environ(server.child.pid!)).not.toContain('MALLOC_ARENA_MAX=1');
  });

  it('serves one session from both workers: its pages, and a form from one worker posted to the other', async () => {
    const jar = new CookieJar();
    const go = (path: string, form?: Record<string, string>) => visit(server, jar, path, form);
    const login = await go('/de/login');
    const signedIn = await go('/de/login', { _csrf: csrfFrom(login.text), login: 'ADMIN', password: 'Admin12345' });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.location).toContain('/de/mandant-selection');
    const selection = await go('/de/mandant-selection');
    const chosen = await go('/de/mandant-selection', { _csrf: csrfFrom(selection.text), mandant: 'DEMO' });
    expect(chosen.status).toBe(302);
    const pages: Visit[] = [];
    for (let i = 0; i < 6; i++) pages.push(await go('/de/stammdaten/standorte'));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.text).toContain('Zeige 1 bis 10 von 12 Ergebnissen');
    }
    const visits = [login, signedIn, selection, chosen, ...pages];
    expect(visits.every((v) => v.worker !== undefined)).toBe(true);
    expect(new Set(visits.map((v) => v.worker))).toEqual(new Set(workerPids(server.output())));

    // The primary hands new connections out in turn, so a form and its post rarely meet the same worker twice.
    let crossed: [Visit, Visit] | undefined;
    for (let i = 0; i < 6 && !crossed; i++) {
      const form = await go('/de/stammdaten/standorte/neu');
      const created = await go('/de/stammdaten/standorte', { _csrf: csrfFrom(form.text), nr: `560${i}`, name: 'Depot zweier Worker' });
      expect(created.status).toBe(302);
      if (form.worker !== created.worker) crossed = [form, created];
    }
    expect(crossed).toBeDefined();
  });

  it('replaces a killed worker while the other answers, and the new one serves', async () => {
    const [victim, survivor] = workerPids(server.output());
    const health = () => visit(server, new CookieJar(), '/healthz');
    process.kill(victim, 'SIGKILL');
    // The primary learns of the death within milliseconds. Requests the worker had, or that the primary handed to it
    // in those milliseconds, are lost with it (no process can answer for a killed one), so the requests begin once
    // the primary knows; from then on the port answers while the replacement starts.
    await until('the primary to see the death', () => server.output().includes(`Worker ${victim} died (signal SIGKILL); starting another`), 10_000);
    const meanwhile: Visit[] = [];
    while (!server.output().includes(`(replaces ${victim})`)) {
      meanwhile.push(await health());
      await sleep(50);
    }
    // Starting a worker takes a while: requests came and were all answered by the worker left.
    expect(meanwhile.length).toBeGreaterThan(0);
    for (const v of meanwhile) expect([v.status, v.worker]).toEqual([200, survivor]);

    const replacement = workerPids(server.output()).find((p) => p !== survivor)!;
    expect(replacement).not.toBe(victim);
    const after: Visit[] = [];
    for (let i = 0; i < 4; i++) after.push(await health());
    expect(after.map((v) => v.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(after.map((v) => v.worker))).toEqual(new Set([survivor, replacement]));
  });

  it('on SIGTERM drains both workers, each finishing its request in flight, and exits 0', async () => {
    const pids = workerPids(server.output());
    const inFlight = [slowSignIn(server.port, 'USER', 'User12345'), slowSignIn(server.port, 'LESER', 'Leser12345')];
    await sleep(300); // the workers have their headers and the first bytes of their bodies
    expect(new Set(inFlight.map((r) => workerOf(server.port, r.req.socket!.localPort!, pids)))).toEqual(new Set(pids));

    server.child.kill('SIGTERM');
    for (const pid of pids) {
      await until(`worker ${pid} to drain`, () => server.output().includes(`Worker ${pid}: SIGTERM: accepting no new connections, finishing 1 request(s) in flight.`), 30_000);
    }
    // The primary closes the shared port when the last worker has left it.
    const refusedBy = Date.now() + 5000;
    while ((await connectError(server.port)) !== 'ECONNREFUSED') {
      expect(Date.now()).toBeLessThan(refusedBy);
      await sleep(20);
    }
    await sleep(300);
    expect(server.child.exitCode).toBeNull(); // still waiting for the two

    for (const r of inFlight) r.finish();
    for (const reply of await Promise.all(inFlight.map((r) => r.reply))) {
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body).token).toMatch(/^Bearer /);
      expect(reply.headers.connection).toBe('close');
    }
    expect(await server.exited).toBe(0);
    const log = server.output();
    for (const pid of pids) {
      expect(log).toContain(`Worker ${pid}: Database pool closed.`);
      expect(log).toContain(`Worker ${pid} exited (exit code 0).`);
    }
    expect(log).toContain('All workers exited cleanly.');
  });
});
