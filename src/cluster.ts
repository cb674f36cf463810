// On PostgreSQL `npm start` serves from one worker process per core (node:cluster). The primary migrates once,
// forks the workers and serves nothing itself; the workers share the port (the primary accepts the connections
// and hands them out in turn). Sessions, CSRF secrets and rate limits live in the database, so any worker can
// answer any request. The embedded database belongs to one process and is served without workers (src/cli/start.ts).
//
// Signals: the primary passes SIGTERM and SIGINT on to every worker as a drain (over the IPC channel, not as a
// signal), a second one as a cut; each worker drains as src/server.ts does, and the primary exits 0 when every
// worker exited 0, 1 otherwise. A worker also drains on a SIGTERM of its own (systemd signals the whole control
// group; the primary's drain then changes nothing), but leaves SIGINT to the primary: Ctrl-C in a terminal
// reaches the whole process group, and the primary's drain following it would count as a second signal and cut.
//
// A worker that dies while no shutdown runs is replaced. Workers that keep dying soon after their start (a
// database that refuses them, a port in use) are not restarted for ever: the primary gives up and exits 1.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { bootstrap, prepareDatabase } from './bootstrap.js';
import type { Config } from './config.js';
import { closeDatabase, createDatabase } from './db/knex.js';
import { listen } from './server.js';

/** A worker that dies sooner than this after it was forked died young: a failed start more likely than a crash. */
const YOUNG_MS = 10_000;
/** This many young deaths within GIVE_UP_WINDOW_MS and the primary gives up. */
const GIVE_UP_AFTER = 3;
const GIVE_UP_WINDOW_MS = 60_000;
/** After the workers' drain timeout, how long the primary still waits (their pools closing) before it kills them. */
const KILL_MARGIN_MS = 10_000;

/**
 * What a worker runs with beyond the primary's own flags and environment, unless the operator set the same
 * (in `node`'s flags, NODE_OPTIONS or the environment): a young generation of 16 MB instead of 32, a JavaScript
 * heap of at most 1 GB (V8 then collects the old generation at 1.6 times what is live instead of 4 times), and
 * one malloc arena for all threads. Together they keep a worker's CSV export of 100,000 rows below 150 MB
 * (docs/decisions.md, "A worker's memory"). The embedded database's process keeps V8's and glibc's defaults:
 * there the database's memory is most of the process's (400 MB and more), and its pages with these settings
 * measured neither clearly faster nor clearly slower on a noisy machine.
 */
export const WORKER_NODE_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=1024'];
export const WORKER_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '1' };

/** `flags` without those the primary already has (by name, in its own flags or NODE_OPTIONS), after its own. */
export function workerExecArgv(own: readonly string[], nodeOptions = '', flags = WORKER_NODE_FLAGS): string[] {
  const name = (flag: string) => flag.split('=')[0].replaceAll('_', '-');
  const given = new Set([...own, ...nodeOptions.split(/\s+/)].filter((f) => f.startsWith('--')).map(name));
  return [...own, ...flags.filter((flag) => !given.has(name(flag)))];
}

/** WORKER_ENV without the variables the environment already sets. */
export function workerEnv(env: NodeJS.ProcessEnv, defaults = WORKER_ENV): Record<string, string> {
  return Object.fromEntries(Object.entries(defaults).filter(([key]) => env[key] === undefined));
}

type ToWorker = { portal: 'drain'; reason: string } | { portal: 'cut' };

function isToWorker(message: unknown): message is ToWorker {
  return typeof message === 'object' && message !== null && ['drain', 'cut'].includes((message as { portal?: unknown }).portal as string);
}

export interface PrimaryOptions {
  /** Called once, when as many workers as were asked for are listening: the port and their pids. */
  onListening: (port: number, pids: number[]) => void;
  log?: (message: string) => void;
}

/** The primary: migrates, forks WEB_CONCURRENCY workers (default one per core), replaces them, passes signals on. */
export async function runPrimary(config: Config, { onListening, log = console.log }: PrimaryOptions): Promise<void> {
  const count = config.webConcurrency ?? availableParallelism();
  const db = createDatabase(config.db);
  try {
    await prepareDatabase(db.knex);
  } finally {
    await db.knex.destroy();
  }
  log(`Database migrated; starting ${count} worker process(es) (${config.webConcurrency ? 'WEB_CONCURRENCY' : 'one per core'}).`);

  const forkedAt = new Map<Worker, number>();
  const listening = new Set<Worker>();
  const replaces = new Map<Worker, number>();
  let youngDeaths: number[] = [];
  let announced = false;
  let stopping: string | null = null;
  let failed = false;

  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });
  const env = workerEnv(process.env);
  const fork = (replacing?: number) => {
    const worker = cluster.fork(env);
    forkedAt.set(worker, Date.now());
    if (replacing) replaces.set(worker, replacing);
  };
  // A worker whose channel is closing cannot be told anything; its exit is counted anyway.
  const tell = (worker: Worker, message: ToWorker) => worker.isConnected() && worker.send(message, () => {});
  const finish = () => {
    log(failed ? 'Not every worker exited cleanly: exit code 1.' : 'All workers exited cleanly.');
    process.exit(failed ? 1 : 0);
  };

  const stop = (reason: string) => {
    if (stopping) {
      log(`${reason} again: cutting the requests still in flight.`);
      for (const worker of listening) tell(worker, { portal: 'cut' });
      return;
    }
    stopping = reason;
    log(`${reason}: draining ${forkedAt.size} worker(s).`);
    // A worker still starting is told when it listens (below): before, it may not be listening for messages yet.
    for (const worker of listening) tell(worker, { portal: 'drain', reason });
    setTimeout(() => {
      log(`Workers still running ${Math.round((config.shutdownTimeoutMs + KILL_MARGIN_MS) / 1000)} s after ${reason}: killing them.`);
      for (const worker of forkedAt.keys()) worker.process.kill('SIGKILL');
    }, config.shutdownTimeoutMs + KILL_MARGIN_MS).unref();
    if (forkedAt.size === 0) finish();
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker);
    if (stopping) return tell(worker, { portal: 'drain', reason: stopping });
    if (!announced) {
      if (listening.size < count) return;
      announced = true;
      return onListening(address.port, [...listening].map((w) => w.process.pid!));
    }
    const replaced = replaces.get(worker);
    log(`Worker ${worker.process.pid} listening${replaced ? ` (replaces ${replaced})` : ''}.`);
  });

  cluster.on('exit', (worker, code, signal) => {
    const pid = worker.process.pid;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const young = Date.now() - forkedAt.get(worker)! < YOUNG_MS;
    forkedAt.delete(worker);
    listening.delete(worker);
    replaces.delete(worker);
    if (stopping) {
      if (code !== 0) failed = true;
      log(`Worker ${pid} exited (${how}).`);
      if (forkedAt.size === 0) finish();
      return;
    }
    if (young) {
      const now = Date.now();
      youngDeaths = [...youngDeaths.filter((t) => now - t < GIVE_UP_WINDOW_MS), now];
      if (youngDeaths.length >= GIVE_UP_AFTER) {
        log(`Worker ${pid} died (${how}): ${GIVE_UP_AFTER} workers died within ${YOUNG_MS / 1000} s of their start in ${GIVE_UP_WINDOW_MS / 1000} s. Giving up: the workers cannot start.`);
        failed = true;
        return stop('Giving up');
      }
    }
    // A young death waits a little before the next try (a second, then two): a crash loop does not spin.
    const delay = young ? 1000 * youngDeaths.length : 0;
    log(`Worker ${pid} died (${how}); starting another${delay ? ` in ${delay / 1000} s` : ''}.`);
    setTimeout(() => stopping || fork(pid), delay);
  });

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < count; i++) fork();
}

/** A worker: builds the app on the migrated database and serves on the shared port until the primary says stop. */
export async function serveWorker(config: Config): Promise<void> {
  const log = (message: string) => console.log(`Worker ${process.pid}: ${message}`);
  // Ctrl-C signals the whole process group, and the primary passes it on as a drain. SIGINT must not end the worker
  // at once (what it does without a listener), nor start a drain of its own (the primary's would then cut).
  process.on('SIGINT', () => {});
  const { app, db } = await bootstrap(config, { seedIfEmpty: false, prepared: true });
  await listen(app, {
    port: config.port,
    drainTimeoutMs: config.shutdownTimeoutMs,
    onClose: () => closeDatabase(db.knex),
    log,
    signals: ['SIGTERM'],
    control: (shutdown) =>
      process.on('message', (message: unknown) => {
        if (!isToWorker(message)) return;
        if (message.portal === 'drain') shutdown.drain(message.reason);
        else shutdown.cut();
      }),
  });
}
