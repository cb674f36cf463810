// `npm run bench`: throughput, latency and database round trips of the portal, and (unless --no-lighthouse)
// Lighthouse scores under slow 4G. See bench/README.md for what it measures, the targets and how to read it.
// Only addresses of this machine are used; every load runs for a bounded time and stops by itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { QUERY_COUNTS_PATH, type QueryCounts } from '../src/db/query-count.js';
import { BENCH_WINDOW_HEADER, type LatencyProbeLine } from '../src/http/latency-probe.js';
import { npmStartCommand } from '../src/testing/child-server.js';
import { rawRequest, signInWithForms } from '../src/testing/page-weight.js';
import { benchThgToken, LIST, LOGIN_PAGE, TANKSTELLE } from '../src/testing/perf-pages.js';
import {
  cleanUp, DEFAULT_PG_URL, DEFAULT_PGLITE_DIR, explainList, explainSearch, prepare, resolvePostgres, type BenchDb, type ListPlan, type Prepared,
} from './data.js';
import { chromePath, runLighthouse, type LighthouseResult } from './lighthouse.js';
import { summarizeProfile } from './profile.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results.json');

const { values: args } = parseArgs({
  options: {
    tenant: { type: 'string' },
    rows: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '20' },
    embedded: { type: 'boolean', default: false },
    reload: { type: 'boolean', default: false },
    lighthouse: { type: 'boolean', default: false },
    'no-lighthouse': { type: 'boolean', default: false },
    exports: { type: 'boolean', default: false },
    reports: { type: 'boolean', default: false },
    search: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    load: { type: 'boolean', default: false },
    server: { type: 'string' },
    scenario: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log(`npm run bench [-- options]
  --tenant NAME      run in this tenant (required when the database holds other tenants; only it is touched)
  --rows N           inbound deliveries (the list under test) to load, and as many outbound (default 100000)
  --duration S       seconds of load per scenario (default 10), after --warmup S (default 2)
  --connections N    concurrent connections (default 20)
  --embedded         use the embedded database (PGlite) even if PostgreSQL answers
  --reload           load the bench data again even if it is there
  --lighthouse       only the Lighthouse part
  --no-lighthouse    everything but Lighthouse
  --exports          only the exports of every row (CSV and XLSX, three each, each format on a fresh server)
  --reports          only the large report: latency of simple requests with and without a year's Mengenbilanz running
  --search           only the search: EXPLAIN ANALYZE of the list page with the indexed search and with ILIKE, some words
  --profile          only a CPU profile (node --cpu-prof) of the list page under load, summed by owner (package, app folder)
  --load             only the list page under load as \`npm start\` serves it (every worker): its latency spread, and the
                     CPU per request of the server, the database and the load generator (this process)
  --scenario NAME    with --profile or --load: another scenario than the list page, by its name in the table (e.g. healthz)
  --server DIR       with --profile, --load or --exports: the compiled server of another checkout (its own build), e.g. the commit before a change
environment: BENCH_DATABASE_URL (default ${DEFAULT_PG_URL}), BENCH_PGLITE_DIR (default ${DEFAULT_PGLITE_DIR}), CHROME_PATH`);
  process.exit(0);
}

const ROWS = Number(args.rows);
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
for (const [name, v] of [['rows', ROWS], ['duration', DURATION], ['connections', CONNECTIONS], ['warmup', WARMUP]] as const) {
  if (!Number.isFinite(v) || v < 0 || (name !== 'warmup' && v === 0)) throw new Error(`--${name}: a positive number`);
}

const log = (s: string) => console.log(`· ${s}`);


// ---------------------------------------------------------------------------------------------- processes

interface Proc {
  child: ChildProcess;
  port: number;
  /** The processes that serve: on PostgreSQL the cluster's workers (named in the start line), else the child. */
  pids: number[];
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` (so the pid is the server's own, for its memory; on PostgreSQL its workers' pids are read
 * from its start line) and waits for its port; TypeScript entry points (the baselines) through tsx's loader.
 */
function startNode(script: string[], env: NodeJS.ProcessEnv, ready: RegExp, cwd = ROOT): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const loader = script[0].endsWith('.ts') ? ['--import', 'tsx'] : [];
    const child = spawn(process.execPath, [...loader, ...script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`${script.join(' ')} did not start in 120 s\n${out}${err}`)), 120_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    // Drained (a full pipe would stall the server), the start kept for an error message.
    child.stderr!.on('data', (d) => (err = (err + d).slice(0, 20_000)));
    child.stdout!.on('data', (d) => {
      if (out.length < 20_000) out += d;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          child,
          port: Number(m[1]),
          pids: out.match(/worker\(s\): ([\d, ]+)\)/)?.[1].split(', ').map(Number) ?? [child.pid!],
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
            }),
        });
      }
    });
    child.once('exit', (code) => fail(new Error(`${script.join(' ')} exited with ${code}\n${out}${err}`)));
  });
}

function startApp(start: ReturnType<typeof npmStartCommand>, db: BenchDb, secret: string, countQueries: boolean, extra: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Proc> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    SESSION_SECRET: secret,
    BENCH_COUNT_QUERIES: countQueries ? '1' : '0',
  };
  // The counts are kept in the memory of the process that serves: one worker, so that one reading has them all.
  if (countQueries) env.WEB_CONCURRENCY = '1';
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;
  if (db.kind === 'postgres') env.DATABASE_URL = db.url;
  else env.PGLITE_DIR = db.dir;
  return startNode([...(extra.nodeArgs ?? []), ...start.args], { ...env, ...start.env, ...extra.env }, /Portal running at http:\/\/localhost:(\d+)/, extra.cwd);
}

// ------------------------------------------------------------------------------------------------ loading

interface Scenario {
  name: string;
  /** Target of the app server, or a baseline process. */
  on: 'app' | 'node' | 'express' | 'express-served';
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  expect: number;
  /** Each request another path (the first is `path`): a page no process can have remembered. */
  paths?: () => string;
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  ratioToExpress?: number;
  /** The same against bare Express served as the app is. */
  ratioToServedExpress?: number;
  roundTrips?: { avg: number; max: number };
}

/**
 * What Chromium sends: every page and JSON answer is then compressed as a browser gets it. Until 2026-11-29 the
 * load sent no Accept-Encoding, and every figure before then is of uncompressed answers (bench/README.md).
 */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

async function load(base: string, s: Scenario, seconds: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  return autocannon({
    url: `${base}${s.path}`,
    method: s.method ?? 'GET',
    headers: { 'x-bench-label': s.name, 'accept-encoding': BROWSER_ACCEPT_ENCODING, ...s.headers },
    body: s.body,
    connections,
    duration: seconds,
    timeout: 10,
    ...(s.paths ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: s.paths!() }) }] } : {}),
  });
}

async function measure(base: string, s: Scenario): Promise<Measured> {
  // A first look: the scenario must answer as expected before it is measured.
  const probe = await rawRequest(`${base}${s.path}`, { method: s.method, headers: s.headers, body: s.body });
  if (probe.status !== s.expect) throw new Error(`${s.name}: ${s.method ?? 'GET'} ${s.path} answered ${probe.status}, expected ${s.expect}`);
  if (WARMUP > 0) await load(base, s, WARMUP);
  const r = await load(base, s, DURATION);
  const byClass: Record<number, number> = { 1: r['1xx'], 2: r['2xx'], 3: r['3xx'], 4: r['4xx'], 5: r['5xx'] };
  const answered = Object.values(byClass).reduce((a, b) => a + b, 0);
  const expected = byClass[Math.floor(s.expect / 100)];
  return {
    name: s.name,
    requestsPerSecond: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + (answered - expected),
    requests: r.requests.total,
  };
}

// ------------------------------------------------------------------------------------------------ exports

/** The exports measured: CSV, and XLSX through exceljs's streaming writer (same row source). */
type ExportFormat = 'csv' | 'xlsx';

interface ExportMeasure {
  rows: number;
  bytesOnWire: number;
  firstByteMs: number;
  totalMs: number;
  peakRssMb: number;
  rssBeforeMb: number;
  peakFrom: 'VmHWM' | 'sampled VmRSS';
}

/** The median run of three (by total time), with the median first byte and the highest peak of the three. */
type ExportSummary = ExportMeasure & { runs: ExportMeasure[]; roundTrips?: number };

function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

/** The highest of the processes' values: the process that serves a request is the one whose memory grows. */
const highestKb = (pids: number[], field: 'VmRSS' | 'VmHWM') => Math.max(...pids.map((pid) => procStatusKb(pid, field)));

/**
 * One export of every row as a browser fetches it (compressed, where the format is compressible), with the
 * server's peak memory while it runs (of the worker that serves it, on PostgreSQL). An XLSX must end with the
 * zip's end record: a whole file, not a cut one.
 */
async function measureExport(base: string, pids: number[], cookie: string, format: ExportFormat): Promise<ExportMeasure> {
  let hwmReset = true;
  try {
    // Linux: writing 5 resets the peak resident set (VmHWM) of our own child process (and of its workers).
    for (const pid of pids) writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    hwmReset = false;
  }
  const rssBefore = highestKb(pids, 'VmRSS');
  let sampled = rssBefore;
  const sampler = setInterval(() => (sampled = Math.max(sampled, highestKb(pids, 'VmRSS'))), 10);
  const started = performance.now();
  const result = await new Promise<{ first: number; bytes: number; tail: Buffer }>((resolve, reject) => {
    const req = http.get(`${base}/de/${LIST.page}?format=${format}`, { headers: { cookie, 'accept-encoding': BROWSER_ACCEPT_ENCODING } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${format} export answered ${res.statusCode}`));
      let first = 0;
      let bytes = 0;
      let tail: Buffer = Buffer.alloc(0);
      res.on('data', (chunk: Buffer) => {
        if (!first) first = performance.now() - started;
        bytes += chunk.length;
        tail = chunk.length >= 22 ? chunk.subarray(-22) : Buffer.concat([tail, chunk]).subarray(-22);
      });
      res.on('end', () => resolve({ first, bytes, tail }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  const totalMs = performance.now() - started;
  clearInterval(sampler);
  if (format === 'xlsx' && result.tail.readUInt32LE(0) !== 0x06054b50) throw new Error('XLSX export did not end with the zip end record');
  const peak = hwmReset ? Math.max(highestKb(pids, 'VmHWM'), sampled) : sampled;
  return {
    rows: ROWS,
    bytesOnWire: result.bytes,
    firstByteMs: Math.round(result.first),
    totalMs: Math.round(totalMs),
    peakRssMb: Math.round(peak / 1024),
    rssBeforeMb: Math.round(rssBefore / 1024),
    peakFrom: hwmReset ? 'VmHWM' : 'sampled VmRSS',
  };
}

/** Three exports of a format, one after another on the same server. */
async function measureExports(base: string, pids: number[], cookie: string, format: ExportFormat, roundTrips?: number): Promise<ExportSummary> {
  const runs: ExportMeasure[] = [];
  for (let i = 0; i < 3; i++) {
    log(`${format.toUpperCase()} export of all ${ROWS} rows (${i + 1}/3)`);
    runs.push(await measureExport(base, pids, cookie, format));
  }
  const byTime = [...runs].sort((a, b) => a.totalMs - b.totalMs);
  return {
    ...byTime[1],
    firstByteMs: [...runs].sort((a, b) => a.firstByteMs - b.firstByteMs)[1].firstByteMs,
    peakRssMb: Math.max(...runs.map((c) => c.peakRssMb)),
    runs: byTime,
    roundTrips,
  };
}

// ---------------------------------------------------------------------------------------------- reporting

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function machine() {
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    load: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

/** The search scenario (--search): both searches' plans side by side, written to results.json under runs.<kind>.search. */
async function reportSearch(db: BenchDb, tenant: string) {
  const { plans, text } = await explainSearch(db, tenant);
  console.log(`plan of the list page with the indexed search (EXPLAIN ANALYZE, as the app's role under row-level security), ${text}\n`);
  const ms = (x: { executionMs: number; planningMs: number }) => `${x.executionMs} + ${x.planningMs}`;
  console.log(table(
    ['q', 'finds by', 'indexed: ms (+ planning)', 'found', 'seq scans', 'ILIKE: ms (+ planning)', 'found', 'seq scans', 'ILIKE ÷ indexed'],
    plans.map((p) => [p.q, p.via, ms(p.indexed), p.indexed.total, p.indexed.seqScans.join(', ') || 'none', ms(p.ilike), p.ilike.total, p.ilike.seqScans.join(', ') || 'none',
      (p.ilike.executionMs / Math.max(p.indexed.executionMs, 0.01)).toFixed(1)]),
  ));
  writeResults((r) => {
    const runs = (r.runs ??= {}) as Record<string, Record<string, unknown>>;
    (runs[db.kind] ??= {}).search = { at: new Date().toISOString(), machine: machine(), plans };
  });
}

function writeResults(update: (r: Record<string, unknown>) => void) {
  const current: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  current.note = 'Provisional until taken on a quiet machine: see bench/README.md. Each run replaces the part of its database kind.';
  update(current);
  writeFileSync(RESULTS, `${JSON.stringify(current, null, 2)}\n`);
}

// ------------------------------------------------------------------------------------------------- main

async function chooseDb(): Promise<BenchDb> {
  // Absolute: a server started in another checkout (--server) must open this database, not one of its own.
  const dir = path.resolve(ROOT, process.env.BENCH_PGLITE_DIR ?? DEFAULT_PGLITE_DIR);
  if (args.embedded) return { kind: 'pglite', dir, note: 'embedded database (PGlite), as asked with --embedded' };
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_PG_URL;
  const pg = await resolvePostgres(url);
  if ('error' in pg) {
    return { kind: 'pglite', dir, note: `PostgreSQL at ${new URL(url).host} cannot be reached (${pg.error}): falling back to the embedded database (PGlite) in ${dir}` };
  }
  const shown = new URL(url);
  shown.password = '';
  return { kind: 'postgres', url, note: `PostgreSQL ${shown.host}${shown.pathname}${pg.created ? ' (database created)' : ''}` };
}

async function signInBench(base: string, bench: Prepared) {
  const jar = await signInWithForms(base, bench.login, bench.password);
  // A browser keeps the cookies of the first page after sign-in: among them the CSRF cookie bound to the new
  // session (src/http/csrf.ts), whose token every later page checks and reuses. Without it each page would draw
  // and sign a new token.
  const first = await rawRequest(`${base}/de/${LIST.page}`, { jar });
  if (first.status !== 200) throw new Error(`first page after sign-in of ${bench.login} answered ${first.status}`);
  const login = await rawRequest(`${base}/api/v1/account/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: bench.login, password: bench.password }),
  });
  const token = JSON.parse(login.body.toString()).token as string;
  if (!token) throw new Error(`API login of ${bench.login} failed: ${login.status}`);
  // The login form's CSRF cookie and token of an anonymous visitor: reusable for every login post.
  const anonymous = await rawRequest(`${base}${LOGIN_PAGE}`);
  const csrfCookie = (anonymous.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const csrf = anonymous.body.toString().match(/name="_csrf" value="([^"]*)"/)?.[1] ?? '';
  return { cookie: jar.header(), token, csrfCookie, csrf };
}

/** The path with page=1, 2, … `pages`, 1, … on each call. */
function cyclingPages(path: string, pages: number): () => string {
  let n = 0;
  return () => path.replace(/([?&]page=)\d+/, `$1${(n++ % pages) + 1}`);
}

function scenarios(bench: Prepared, auth: Awaited<ReturnType<typeof signInBench>>): Scenario[] {
  const page = { cookie: auth.cookie, accept: 'text/html' };
  return [
    { name: 'bare node:http', on: 'node', path: '/', expect: 200 },
    { name: 'bare Express', on: 'express', path: '/', expect: 200 },
    // The same, served as the app is (src/server.ts): the like-for-like baseline of what the app's chain adds.
    { name: 'bare Express, served as the app', on: 'express-served', path: '/', expect: 200 },
    { name: 'healthz (chain + select 1)', on: 'app', path: '/healthz', expect: 200 },
    { name: 'list page', on: 'app', path: `/de/${LIST.page}?${LIST.benchQuery}`, headers: page, expect: 200 },
    // The same list, each request the next of its first 200 pages: more pages than a process keeps
    // (src/records/list/pages.ts), so every one is read and rendered (the list page above is remembered).
    { name: 'list page, another page each time', on: 'app', path: `/de/${LIST.page}?${LIST.benchQuery}`, paths: cyclingPages(`/de/${LIST.page}?${LIST.benchQuery}`, 200), headers: page, expect: 200 },
    { name: 'list JSON', on: 'app', path: `${LIST.api}?${LIST.benchQuery}`, headers: { authorization: auth.token, 'x-mandant': bench.tenant }, expect: 200 },
    { name: 'detail page', on: 'app', path: `/de/${bench.detail}`, headers: page, expect: 200 },
    { name: 'Tankstelle JSON', on: 'app', path: TANKSTELLE.api, headers: { authorization: auth.token, 'x-mandant': bench.tenant }, expect: 200 },
    { name: 'THG display JSON (public)', on: 'app', path: `/api/thg-anzeige/${benchThgToken(bench.tenant)}`, expect: 200 },
    {
      name: 'login (argon2id)', on: 'app', path: LOGIN_PAGE, method: 'POST', expect: 302,
      headers: { cookie: auth.csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: auth.csrf, login: bench.login, password: bench.password }).toString(),
    },
  ];
}

async function main() {
  const db = await chooseDb();
  console.log(`Benchmark of the portal: ${db.note}`);
  const m = machine();
  console.log(`machine: ${m.nproc} cores, ${m.cpu}, ${m.memoryGb} GB, node ${m.node}, load ${m.load.join(' ')}`);
  const bench = await prepare(db, { tenant: args.tenant ?? null, rows: ROWS, reload: args.reload, log });
  // The server as `npm start` runs it: compiled (its prestart), with its script's settings.
  const start = npmStartCommand();
  if (bench.loaded) log(`loaded ${ROWS} inbound and ${ROWS} outbound deliveries in ${(bench.loadMs / 1000).toFixed(1)} s`);
  if (args.profile || args.load) {
    try {
      await (args.profile ? profileList(start, db, bench) : loadOnly(start, db, bench));
    } finally {
      await cleanUp(db, bench.login);
    }
    return;
  }
  if (args.search) {
    try {
      await reportSearch(db, bench.tenant);
    } finally {
      await cleanUp(db, bench.login);
    }
    return;
  }
  const plan = await explainList(db, bench.tenant);
  if (!args.exports && !args.reports) console.log(
    `list page statement (EXPLAIN ANALYZE, ${plan.query}): counted ${plan.counted.executionMs} ms + ${plan.counted.planningMs} ms planning, ` +
      `count remembered ${plan.remembered.executionMs} ms + ${plan.remembered.planningMs} ms planning; sequential scans: ` +
      (plan.seqScans.map((x) => `${x.table} (${x.rowsRead} of ${x.tableRows} rows read)`).join(', ') || 'none'),
  );
  const secret = randomBytes(32).toString('hex');
  const runLh = !args.exports && !args.reports && (args.lighthouse || !args['no-lighthouse']);
  const runLoad = !args.lighthouse && !args.exports && !args.reports;

  let lighthouse: LighthouseResult[] | null = null;
  try {
    if (runLoad) {
      // 1. Round trips per request: a server that counts, a few requests of each kind one after another.
      log('counting database round trips');
      const counting = await startApp(start, db, secret, true);
      const countBase = `http://127.0.0.1:${counting.port}`;
      let roundTrips: Record<string, QueryCounts> = {};
      let csvRoundTrips: QueryCounts | undefined;
      try {
        const auth = await signInBench(countBase, bench);
        await rawRequest(`${countBase}${QUERY_COUNTS_PATH}`);
        for (const s of scenarios(bench, auth).filter((x) => x.on === 'app')) {
          for (let i = 0; i < (s.method === 'POST' ? 3 : 20); i++) {
            await rawRequest(`${countBase}${s.paths ? s.paths() : s.path}`, { method: s.method, headers: { 'x-bench-label': s.name, ...s.headers }, body: s.body });
          }
        }
        await rawRequest(`${countBase}/de/${LIST.page}?format=csv`, { headers: { cookie: auth.cookie, 'x-bench-label': 'csv' } });
        roundTrips = JSON.parse((await rawRequest(`${countBase}${QUERY_COUNTS_PATH}`)).body.toString());
        csvRoundTrips = roundTrips.csv;
      } finally {
        await counting.stop();
      }

      // 2. Throughput and latency: baselines and the app, each in its own process, one after another.
      const results: Measured[] = [];
      const app = await startApp(start, db, secret, false);
      const appBase = `http://127.0.0.1:${app.port}`;
      let csvSummary: ExportSummary;
      try {
        const auth = await signInBench(appBase, bench);
        // The CSV export of every row, three times, first: on a fresh server, so its peak memory is the
        // export's and not what argon2 left in the allocator during the login load.
        csvSummary = await measureExports(appBase, app.pids, auth.cookie, 'csv', csvRoundTrips?.max);
        for (const s of scenarios(bench, auth)) {
          log(`load: ${s.name} (${CONNECTIONS} connections, ${DURATION} s)`);
          if (s.on === 'app') {
            results.push(await measure(appBase, s));
          } else {
            const baseline = await startNode(['bench/baseline.ts', s.on], { ...process.env }, /listening (\d+)/);
            try {
              results.push(await measure(`http://127.0.0.1:${baseline.port}`, s));
            } finally {
              await baseline.stop();
            }
          }
          const counts = roundTrips[s.name];
          if (counts) results.at(-1)!.roundTrips = { avg: Number((counts.queries / counts.requests).toFixed(2)), max: counts.max };
        }
        if (runLh) lighthouse = await lighthouseOf(appBase, auth.cookie, bench.tenant);
      } finally {
        await app.stop();
      }
      // The XLSX export on a fresh server of its own, for the same reason.
      const xlsxSummary = await exportsOnFreshServer(start, db, secret, bench, 'xlsx');
      const express = results.find((r) => r.name === 'bare Express')!;
      const served = results.find((r) => r.name === 'bare Express, served as the app')!;
      for (const r of results) {
        r.ratioToExpress = Number((r.requestsPerSecond / express.requestsPerSecond).toFixed(2));
        r.ratioToServedExpress = Number((r.requestsPerSecond / served.requestsPerSecond).toFixed(3));
      }
      report(db, results);
      reportExports(csvSummary!, xlsxSummary);
      const targets = checkTargets(db, results, csvSummary!, xlsxSummary, plan);
      writeResults((r) => {
        r.runs = { ...(r.runs as object), [db.kind]: {
          date: new Date().toISOString(), provisional: true, database: db.note, machine: m,
          settings: { connections: CONNECTIONS, durationS: DURATION, warmupS: WARMUP, rows: ROWS, tenant: bench.tenant, listQuery: LIST.benchQuery, listPage: LIST.page },
          scenarios: results, csv: csvSummary, xlsx: xlsxSummary, listPlan: plan, targets,
        } };
      });
    } else if (args.reports) {
      const summary = await reportsOnFreshServer(start, db, secret, bench);
      writeResults((r) => {
        const runs = (r.runs ?? {}) as Record<string, Record<string, unknown>>;
        runs[db.kind] = { ...runs[db.kind], reports: { date: new Date().toISOString(), provisional: true, database: db.note, machine: m, rows: ROWS, ...summary } };
        r.runs = runs;
      });
    } else if (args.exports) {
      // Only the exports: each format three times on a fresh server; the rest of the run's results are kept.
      const csvSummary = await exportsOnFreshServer(start, db, secret, bench, 'csv');
      const xlsxSummary = await exportsOnFreshServer(start, db, secret, bench, 'xlsx');
      reportExports(csvSummary, xlsxSummary);
      // Kept beside the full run's figures (which a full run replaces, these with them), not mixed into them.
      writeResults((r) => {
        const runs = (r.runs ?? {}) as Record<string, Record<string, unknown>>;
        runs[db.kind] = { ...runs[db.kind], exportsOnly: { date: new Date().toISOString(), provisional: true, database: db.note, machine: m, rows: ROWS, csv: csvSummary, xlsx: xlsxSummary } };
        r.runs = runs;
      });
    } else if (runLh) {
      const app = await startApp(start, db, secret, false);
      try {
        const auth = await signInBench(`http://127.0.0.1:${app.port}`, bench);
        lighthouse = await lighthouseOf(`http://127.0.0.1:${app.port}`, auth.cookie, bench.tenant);
      } finally {
        await app.stop();
      }
    }
    if (lighthouse) {
      reportLighthouse(lighthouse);
      writeResults((r) => {
        r.lighthouse = { date: new Date().toISOString(), provisional: true, machine: machine(), profile: 'Lighthouse default: mobile, simulated slow 4G', pages: lighthouse };
      });
    }
    console.log(`\nwritten: ${path.relative(ROOT, RESULTS)}`);
  } finally {
    await cleanUp(db, bench.login);
  }
}

async function lighthouseOf(base: string, cookie: string, tenant: string): Promise<LighthouseResult[] | null> {
  if (!chromePath()) {
    console.log('lighthouse: skipped, no Chromium (set CHROME_PATH)');
    return null;
  }
  return runLighthouse(
    [
      { name: 'login', url: `${base}${LOGIN_PAGE}` },
      { name: 'list page', url: `${base}/de/${LIST.page}`, cookie },
      // The bench tenant's own display (the demo's link, THG_PAGE, exists only where the demo data was seeded).
      { name: 'THG display', url: `${base}/de/thg-anzeige/${benchThgToken(tenant)}` },
    ],
    log,
  );
}

function report(db: BenchDb, results: Measured[]) {
  console.log(`\nThroughput at ${CONNECTIONS} connections, ${DURATION} s each (${db.kind}; provisional unless the machine was quiet):`);
  console.log(
    table(
      ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', '× Express', '× served', 'DB trips/req'],
      results.map((r) => [
        r.name, String(r.requestsPerSecond), String(r.p50), String(r.p99), String(r.errors), r.ratioToExpress!.toFixed(2), r.ratioToServedExpress!.toFixed(3),
        r.roundTrips ? `${r.roundTrips.avg}${r.roundTrips.max !== r.roundTrips.avg ? ` (max ${r.roundTrips.max})` : ''}` : '–',
      ]),
    ),
  );
}

function reportExports(...summaries: ExportSummary[]) {
  for (const [format, e] of summaries.map((x, i) => [i === 0 ? 'CSV' : 'XLSX', x] as const)) {
    console.log(
      `\n${format} export of ${e.rows} rows (median of 3): first byte ${e.firstByteMs} ms, total ${e.totalMs} ms, ` +
        `${(e.bytesOnWire / 2 ** 20).toFixed(1)} MB on the wire, server peak RSS ${e.peakRssMb} MB (${e.peakFrom}; ${e.rssBeforeMb} MB before)` +
        (e.roundTrips ? `, ${e.roundTrips} round trips` : ''),
    );
  }
}

/** Three exports of a format on a server started for them alone (its peak memory is the export's own). */
async function exportsOnFreshServer(start: ReturnType<typeof npmStartCommand>, db: BenchDb, secret: string, bench: Prepared, format: ExportFormat): Promise<ExportSummary> {
  // --exports --server DIR: another checkout's build, for a before/after of the exports' memory.
  const app = await startApp(start, db, secret, false, { cwd: args.server ? path.resolve(args.server) : ROOT });
  try {
    const base = `http://127.0.0.1:${app.port}`;
    const auth = await signInBench(base, bench);
    return await measureExports(base, app.pids, auth.cookie, format);
  } finally {
    await app.stop();
  }
}

// ------------------------------------------------------------------------------------------------ profile

const CLOCK_TICKS = 100; // USER_HZ: /proc's CPU times are in hundredths of a second on Linux

/** utime + stime of a process and its children's processes (a cluster's workers), from /proc, in ticks. */
function cpuTicks(pid: number): number {
  let ticks = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) ticks += cpuTicks(Number(child));
    }
  } catch {
    // gone meanwhile
  }
  return ticks;
}

/** CPU ticks of the PostgreSQL server's processes on this machine (its backends, the postmaster, the rest). */
function databaseTicks(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/** --profile's server: one worker, so that one profile holds every page's work. */
const ONE_WORKER = { WEB_CONCURRENCY: '1' };

/**
 * --profile: the list page under load (WARMUP + DURATION s at CONNECTIONS) on a server with `--cpu-prof` and one
 * worker, so one profile holds every page's work; then that profile summed by owner, and the busy CPU time per page.
 * `--server DIR` profiles the compiled server of another checkout (built there: npm run build), for a before/after.
 */
async function profileList(start: ReturnType<typeof npmStartCommand>, db: BenchDb, bench: Prepared) {
  const cwd = args.server ? path.resolve(args.server) : ROOT;
  if (!existsSync(path.join(cwd, 'dist', 'server'))) throw new Error(`${cwd}: no compiled server (run npm run build and node scripts/build-server.mjs there)`);
  // First without the profiler (its sampling costs CPU of its own): the CPU time per page and the rate.
  const plain = await cpuUnderLoad(start, db, bench, cwd, [], ONE_WORKER);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-profile-'));
  const profiled = await cpuUnderLoad(start, db, bench, cwd, ['--cpu-prof', `--cpu-prof-dir=${dir}`], ONE_WORKER);
  // One profile per process (the primary's, the worker's): the worker is the busy one.
  const summaries = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => summarizeProfile(path.join(dir, f), profiled.window));
  const worker = summaries.sort((a, b) => b.busyMs - a.busyMs)[0];
  if (!worker) throw new Error(`no profile written to ${dir}`);
  const perPage = plain.cpuMs / plain.requests;
  const dbPerPage = plain.dbCpuMs === null ? null : plain.dbCpuMs / plain.requests;
  console.log(
    `\n${cwd}: ${plain.requests} requests of ${plain.scenario} in ${DURATION} s (${(plain.requests / DURATION).toFixed(0)} req/s, one worker): ${perPage.toFixed(2)} ms of CPU per request ` +
      `(user + system, every process and thread of the server)${dbPerPage === null ? '' : `, and ${dbPerPage.toFixed(2)} ms of the database's`}. With the profiler: ${(profiled.requests / DURATION).toFixed(0)} req/s; ` +
      `the serving thread ${worker.busyMs} ms busy, ${worker.idleMs} ms idle:`,
  );
  console.log(table(['owner (self time)', 'ms', '% of busy'], worker.shares.map((x) => [x.owner, String(x.ms), x.percent.toFixed(1)])));
  console.log(`profiles: ${dir}`);
  writeResults((res) => {
    const runs = (res.runs ?? {}) as Record<string, Record<string, unknown>>;
    const key = `${args.server ? `profile:${path.basename(cwd)}` : 'profile'}${plain.scenario === 'list page' ? '' : `:${plain.scenario}`}`;
    runs[db.kind] = {
      ...runs[db.kind],
      [key]: { date: new Date().toISOString(), machine: machine(), server: path.relative(ROOT, cwd) || '.', requests: plain.requests, requestsPerSecond: Math.round(plain.requests / DURATION), cpuMsPerPage: Number(perPage.toFixed(2)), databaseCpuMsPerPage: dbPerPage === null ? null : Number(dbPerPage.toFixed(2)), profile: worker },
    };
    res.runs = runs;
  });
}

/** The app's scenario --profile runs: --scenario's (the first whose name starts with it), else the list page. */
function profiledScenario(bench: Prepared, auth: Awaited<ReturnType<typeof signInBench>>): Scenario {
  const wanted = args.scenario ?? 'list page';
  const found = scenarios(bench, auth).find((s) => s.on === 'app' && s.name.startsWith(wanted));
  if (!found) throw new Error(`--scenario ${wanted}: no such scenario of the app`);
  return found;
}

/** Latency percentiles --load prints (autocannon's names), from the fastest to the slowest request. */
const SPREAD = ['p1', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'max'] as const;

/**
 * --load: one scenario under load as `npm start` serves it (a worker per core on PostgreSQL, WEB_CONCURRENCY
 * if set), without the baselines: its latency from the fastest to the slowest request, and the CPU per request
 * of the server, the database and the load generator, which share the machine's cores. Quicker than a full run
 * for a before/after of one change (--server DIR); the targets' ratios need the full run's baselines.
 */
async function loadOnly(start: ReturnType<typeof npmStartCommand>, db: BenchDb, bench: Prepared) {
  const cwd = args.server ? path.resolve(args.server) : ROOT;
  if (!existsSync(path.join(cwd, 'dist', 'server'))) throw new Error(`${cwd}: no compiled server (run npm run build and node scripts/build-server.mjs there)`);
  // Each worker appends its line when it exits; a build without the probe writes none.
  const probeFile = path.join(os.tmpdir(), `portal-latency-${process.pid}-${Date.now()}.jsonl`);
  const m = await cpuUnderLoad(start, db, bench, cwd, [], { BENCH_LATENCY_PROBE: probeFile });
  const inServer = readProbe(probeFile);
  const perRequest = (ms: number | null) => (ms === null ? null : Number((ms / m.requests).toFixed(2)));
  const cpu = { server: perRequest(m.cpuMs)!, database: perRequest(m.dbCpuMs), loadGenerator: perRequest(m.loadCpuMs)! };
  const busy = (m.cpuMs + (m.dbCpuMs ?? 0) + m.loadCpuMs) / (DURATION * 1000 * os.availableParallelism());
  const latency = Object.fromEntries(SPREAD.map((k) => [k, (m.latency as unknown as Record<string, number>)[k]]));
  console.log(
    `\n${cwd}: ${m.scenario}, ${m.workers} worker(s), ${CONNECTIONS} connections: ${Math.round(m.requests / DURATION)} req/s, mean ${m.latency.mean} ms\n` +
      table(['latency ms', ...SPREAD.map((k) => k.replace('_', '.'))], [['', ...SPREAD.map((k) => String(latency[k]))]]) +
      `\nCPU per request: the server ${cpu.server} ms (every process and thread)${cpu.database === null ? '' : `, the database ${cpu.database} ms`}, ` +
      `the load generator ${cpu.loadGenerator} ms; the machine's ${os.availableParallelism()} cores ${Math.round(busy * 100)} % busy with them`,
  );
  if (inServer.length) {
    const cols = ['mean', 'p50', 'p90', 'p99', 'max'] as const;
    console.log(
      '\nIn each worker, ms: "server", from the first middleware to the answer handed to the socket; "loop", how late the event loop ran\n' +
        table(['worker', 'requests', ...cols.map((c) => `server ${c}`), ...cols.map((c) => `loop ${c}`)],
          inServer.map((w) => [String(w.pid), String(w.requests), ...cols.map((c) => String(w.inServer[c])), ...cols.map((c) => String(w.loopDelay[c]))])),
    );
  }
  writeResults((res) => {
    const runs = (res.runs ?? {}) as Record<string, Record<string, unknown>>;
    const key = `${args.server ? `load:${path.basename(cwd)}` : 'load'}${m.scenario === 'list page' ? '' : `:${m.scenario}`} (${m.workers} worker${m.workers === 1 ? '' : 's'})`;
    runs[db.kind] = {
      ...runs[db.kind],
      [key]: { date: new Date().toISOString(), machine: machine(), server: path.relative(ROOT, cwd) || '.', workers: m.workers, requestsPerSecond: Math.round(m.requests / DURATION), meanMs: m.latency.mean, latency, cpuMsPerRequest: cpu, coresBusy: Number(busy.toFixed(2)), ...(inServer.length ? { workersInside: inServer } : {}) },
    };
    res.runs = runs;
  });
}

/** The latency probe's lines (src/http/latency-probe.ts), one per worker; the file is removed. */
function readProbe(file: string): LatencyProbeLine[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LatencyProbeLine);
  rmSync(file, { force: true });
  return lines;
}

/**
 * The scenario under load (WARMUP, then DURATION s measured) on a server started with `env` (--profile: one
 * worker; --load: as `npm start` serves): requests served, the latency spread, CPU used by the server, the
 * database and this process (the load generator), and when.
 */
async function cpuUnderLoad(start: ReturnType<typeof npmStartCommand>, db: BenchDb, bench: Prepared, cwd: string, nodeArgs: string[], env: NodeJS.ProcessEnv) {
  const app = await startApp(start, db, randomBytes(32).toString('hex'), false, { nodeArgs, env, cwd });
  const base = `http://127.0.0.1:${app.port}`;
  try {
    const auth = await signInBench(base, bench);
    const list = profiledScenario(bench, auth);
    log(`${nodeArgs.length ? 'profiling' : 'measuring'} ${cwd}: ${list.name}, ${WARMUP} + ${DURATION} s at ${CONNECTIONS} connections`);
    if (WARMUP > 0) await load(base, list, WARMUP);
    const ticks = cpuTicks(app.child.pid!);
    const dbTicks = db.kind === 'postgres' ? databaseTicks() : 0;
    const window: [number, number] = [Number(process.hrtime.bigint() / 1000n), 0];
    const own = process.cpuUsage();
    // Marked, so that the latency probe (--load) counts only these requests and not the warm-up's.
    const r = await load(base, { ...list, headers: { ...list.headers, [BENCH_WINDOW_HEADER]: '1' } }, DURATION);
    window[1] = Number(process.hrtime.bigint() / 1000n);
    const ownUsed = process.cpuUsage(own);
    const cpuMs = ((cpuTicks(app.child.pid!) - ticks) * 1000) / CLOCK_TICKS;
    // Backends that ended during the window take their ticks with them: the pool keeps its connections meanwhile.
    const dbCpuMs = db.kind === 'postgres' ? ((databaseTicks() - dbTicks) * 1000) / CLOCK_TICKS : null;
    if (r.non2xx || r.errors) throw new Error(`${list.name}: ${r.non2xx} answers other than 2xx, ${r.errors} errors`);
    return { scenario: list.name, workers: app.pids.length, requests: r.requests.total, cpuMs, dbCpuMs, loadCpuMs: (ownUsed.user + ownUsed.system) / 1000, latency: r.latency, window };
  } finally {
    await app.stop();
  }
}

// ------------------------------------------------------------------------------------------------ reports

/** Connections of the other users while the report runs: a handful of people clicking, not a load test. */
const REPORT_USERS = 4;

interface LatencyMeasure {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

const latencyOf = (r: autocannon.Result): LatencyMeasure => ({
  requestsPerSecond: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, errors: r.errors + r.timeouts + r.non2xx,
});

/**
 * The large report (a year's Mengenbilanz of every location and product over all the tenant's deliveries, as
 * JSON) run again and again by one user while REPORT_USERS others make simple requests, against the same
 * simple requests with nothing else running: the report must leave the server answering (it sums a month at a
 * time and yields between months, src/features/reports). Ratios are with ÷ without.
 */
async function reportsOnFreshServer(start: ReturnType<typeof npmStartCommand>, db: BenchDb, secret: string, bench: Prepared) {
  const app = await startApp(start, db, secret, false);
  try {
    const base = `http://127.0.0.1:${app.port}`;
    const auth = await signInBench(base, bench);
    const api = { authorization: auth.token, 'x-mandant': bench.tenant };
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const reportPath = `/api/reports/mengenbilanz?startDate=${day(-364)}&endDate=${day(0)}`;
    const runReport = async () => {
      const t0 = performance.now();
      const res = await rawRequest(`${base}${reportPath}`, { headers: api });
      if (res.status !== 200) throw new Error(`report answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
      return { ms: Math.round(performance.now() - t0), rows: (JSON.parse(res.body.toString()) as { total: number }).total };
    };
    log('the report alone (twice, the second counts)');
    await runReport();
    const alone = await runReport();
    const simple: Scenario[] = [
      { name: 'healthz (chain + select 1)', on: 'app', path: '/healthz', expect: 200 },
      { name: 'list JSON', on: 'app', path: `${LIST.api}?${LIST.benchQuery}`, headers: api, expect: 200 },
    ];
    const results = [];
    for (const s of simple) {
      log(`${s.name}: ${REPORT_USERS} connections, ${DURATION} s without the report`);
      if (WARMUP > 0) await load(base, s, WARMUP, REPORT_USERS);
      const without = latencyOf(await load(base, s, DURATION, REPORT_USERS));
      log(`${s.name}: ${REPORT_USERS} connections, ${DURATION} s with the report running again and again`);
      let running = true;
      const reports: number[] = [];
      const loop = (async () => {
        while (running) reports.push((await runReport()).ms);
      })();
      const during = latencyOf(await load(base, s, DURATION, REPORT_USERS));
      running = false;
      await loop;
      const ratio = (a: number, b: number) => Number((a / Math.max(b, 1)).toFixed(2));
      results.push({
        name: s.name, without, with: during, reportsRun: reports.length, reportMsMedian: [...reports].sort((a, b) => a - b)[Math.floor(reports.length / 2)],
        ratioP50: ratio(during.p50, without.p50), ratioP99: ratio(during.p99, without.p99), ratioThroughput: ratio(during.requestsPerSecond, without.requestsPerSecond),
      });
    }
    console.log(`\nLarge report: ${reportPath} (${alone.rows} rows) takes ${alone.ms} ms alone. Simple requests of ${REPORT_USERS} other users:`);
    console.log(
      table(
        ['request', 'req/s without', 'with', 'p50 ms without', 'with', 'p99 ms without', 'with', 'max ms with', 'p99 ratio', 'reports run (median ms)'],
        results.map((r) => [
          r.name, String(r.without.requestsPerSecond), String(r.with.requestsPerSecond), String(r.without.p50), String(r.with.p50),
          String(r.without.p99), String(r.with.p99), String(r.with.max), r.ratioP99.toFixed(2), `${r.reportsRun} (${r.reportMsMedian})`,
        ]),
      ),
    );
    return { report: reportPath, reportAlone: alone, users: REPORT_USERS, durationS: DURATION, results };
  } finally {
    await app.stop();
  }
}

function checkTargets(db: BenchDb, results: Measured[], csv: ExportMeasure, xlsx: ExportMeasure, plan: ListPlan) {
  const get = (name: string) => results.find((r) => r.name === name)!;
  const list = get('list page');
  // The list page the bench asks for again and again is remembered (src/records/list/pages.ts); a page read and
  // rendered for the request is held to the same targets, so neither figure stands for both.
  const fresh = get('list page, another page each time');
  const pages = results.filter((r) => ['list page', 'list page, another page each time', 'list JSON', 'detail page'].includes(r.name));
  // Against the unrounded ratio (the table rounds it to two places: 0.097 would show as 0.10 and count as met).
  const ratio = (r: Measured) => r.requestsPerSecond / get('bare Express').requestsPerSecond;
  const atLeast = (r: Measured, floor: number) => ({ value: Number(ratio(r).toFixed(3)), ok: ratio(r) >= floor });
  const targets = [
    { target: 'middleware chain (healthz) ≥ 0.5× bare Express', ...atLeast(get('healthz (chain + select 1)'), 0.5) },
    { target: 'authenticated list page ≥ 0.1× bare Express', ...atLeast(list, 0.1) },
    { target: 'the same, another page each time (none remembered)', ...atLeast(fresh, 0.1) },
    {
      target: 'detail page and list JSON at least as fast as the list page (req/s)',
      value: `${get('detail page').requestsPerSecond}, ${get('list JSON').requestsPerSecond} vs ${list.requestsPerSecond}`,
      ok: get('detail page').requestsPerSecond >= list.requestsPerSecond && get('list JSON').requestsPerSecond >= list.requestsPerSecond,
    },
    ...[list, fresh].map((l) => (db.kind === 'postgres'
      ? { target: `${l.name} p99 ≤ 50 ms (PostgreSQL)`, value: l.p99, ok: l.p99 <= 50 }
      : { target: `${l.name} p99 ≤ 150 ms (embedded database)`, value: l.p99, ok: l.p99 <= 150 })),
    { target: '≤ 4 DB round trips for any page', value: Math.max(...pages.map((p) => p.roundTrips?.max ?? 0)), ok: pages.every((p) => (p.roundTrips?.max ?? 0) <= 4) },
    { target: 'zero errors', value: results.reduce((s, r) => s + r.errors, 0), ok: results.every((r) => r.errors === 0) },
    { target: `CSV (${csv.rows} rows) first byte ≤ 200 ms`, value: csv.firstByteMs, ok: csv.firstByteMs <= 200 },
    { target: `CSV (${csv.rows} rows) server peak memory < 150 MB`, value: csv.peakRssMb, ok: csv.peakRssMb < 150 },
    { target: `XLSX (${xlsx.rows} rows) first byte ≤ 200 ms`, value: xlsx.firstByteMs, ok: xlsx.firstByteMs <= 200 },
    { target: `XLSX (${xlsx.rows} rows) server peak memory < 150 MB`, value: xlsx.peakRssMb, ok: xlsx.peakRssMb < 150 },
    {
      target: 'no sequential scan reads the whole table for a list page (EXPLAIN ANALYZE)',
      value: plan.seqScans.map((x) => `${x.rowsRead}/${x.tableRows}`).join(', ') || 'none',
      ok: plan.seqScans.every((x) => x.rowsRead < x.tableRows),
    },
  ];
  console.log('\nTargets:');
  for (const t of targets) console.log(`  ${t.ok ? 'met    ' : 'MISSED '} ${t.target}: ${t.value}`);
  return targets;
}

function reportLighthouse(results: LighthouseResult[]) {
  console.log('\nLighthouse (mobile, simulated slow 4G):');
  console.log(
    table(
      ['page', 'performance', 'accessibility', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'host CPU (benchmark index)'],
      results.map((r) => [
        r.name, String(r.performance ?? 'failed'), String(r.accessibility ?? '–'),
        String(Math.round(r.metrics['first-contentful-paint'] ?? NaN)), String(Math.round(r.metrics['largest-contentful-paint'] ?? NaN)),
        String(Math.round(r.metrics['total-blocking-time'] ?? NaN)), (r.metrics['cumulative-layout-shift'] ?? NaN).toFixed(3),
        String(r.benchmarkIndex ?? '–'),
      ]),
    ),
  );
  for (const r of results) {
    if (r.error) console.log(`  ${r.name}: ${r.error}`);
    for (const w of r.warnings ?? []) console.log(`  ${r.name}: Lighthouse says: ${w}`);
    for (const f of r.failing) console.log(`  ${r.name}: ${f.category} – ${f.id} (${f.title}) score ${f.score}${f.displayValue ? `, ${f.displayValue}` : ''}`);
  }
}

main().catch((err) => {
  console.error(`bench: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
