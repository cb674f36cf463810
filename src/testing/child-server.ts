// Runs the real server (`npm start`'s src/cli/start.ts) as a child process on a free port, for tests of what
// only a whole process shows: signals, exit codes, several processes sharing one database; and the clients they use.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ChildServer {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** Kills the process if it still runs (cleanup after a failed test). */
  kill(): Promise<void>;
}

/** tsx's loader by its path, so that a tool can also run in another working directory. */
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Runs a TypeScript entry point of src/cli with tsx, as the npm scripts do. */
export function runTs(script: string, args: string[], env: Record<string, string | undefined>, cwd = ROOT): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, path.join(ROOT, script), ...args], {
    cwd,
    env: { ...process.env, TEST_DATABASE_URL: undefined, DATABASE_URL: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs a tool to its end: its exit code and what it printed. */
export function runTool(script: string, args: string[], env: Record<string, string | undefined>, cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = runTs(script, args, env, cwd);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * What `npm start` runs, read from its script (`[VAR=value …] node <args>`), after doing what its prestart
 * does (compiling the server): the environment settings and node's arguments. The tests and the benchmark
 * start the server this way, so they run what production runs.
 */
export function npmStartCommand(): { env: Record<string, string>; args: string[] } {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const words = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string).split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0 || !words.slice(0, node).every((w) => /^[A-Z_]+=\S*$/.test(w))) throw new Error('npm start is no longer `[VAR=value …] node …`: adapt npmStartCommand');
  return { env: Object.fromEntries(words.slice(0, node).map((w) => w.split('=') as [string, string])), args: words.slice(node + 1) };
}

function runCompiled(env: Record<string, string | undefined>): ChildProcess {
  const start = npmStartCommand();
  return spawn(process.execPath, start.args, {
    cwd: ROOT,
    env: { ...process.env, TEST_DATABASE_URL: undefined, DATABASE_URL: undefined, ...start.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts the server with PORT=0 and waits for its "running at" line. `env` selects the database (PGLITE_DIR or
 * DATABASE_URL with SESSION_SECRET). By default the TypeScript through tsx; `compiled` as `npm start` runs it.
 */
export async function startServer(env: Record<string, string | undefined>, startTimeoutMs = 150_000, { compiled = false } = {}): Promise<ChildServer> {
  const serverEnv = { NODE_ENV: 'production', PORT: '0', ...env };
  const child = compiled ? runCompiled(serverEnv) : runTs('src/cli/start.ts', [], serverEnv);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), startTimeoutMs);
    const look = () => {
      const match = output.match(/running at http:\/\/localhost:(\d+)\//);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it started:\n${output}`));
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(what: string, ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A sign-in whose JSON body arrives slowly, as from a client on a bad connection: the server has the request but
 * not yet all of it. `finish()` sends the rest. A connection of its own (`req.socket`).
 */
export function slowSignIn(port: number, login: string, password: string) {
  const body = JSON.stringify({ login, password });
  const req = http.request({
    port, host: '127.0.0.1', method: 'POST', path: '/api/v1/account/login',
    agent: new http.Agent({ keepAlive: true }),
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const reply = new Promise<Reply>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  reply.catch(() => {}); // awaited by the test; a failed test must not also leave an unhandled rejection
  req.write(body.slice(0, 10));
  return { req, reply, finish: () => req.end(body.slice(10)) };
}

/** Null when a connection to the port is accepted, else the error code (ECONNREFUSED). */
export function connectError(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}
