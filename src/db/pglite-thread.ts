// The embedded database in a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: run in the
// server's thread, every statement's work (and decoding its answer) took that thread's time, about half of it
// on a list page (bench/README.md, 2026-11-27), while the machine's other core had nothing to do. Here PGlite
// runs in a worker thread (src/db/pglite-thread.worker.ts) and this class stands in for it with the part of
// PGlite's API that knex-pglite and this code use: waitReady, query(), exec(), dumpDataDir(), close().
// Answers arrive as PGlite gives them (rows, fields, affectedRows; structured clone keeps Dates, numbers and
// bytes as they are); an error arrives as an Error with the database's fields (code, constraint, detail, …).
// It is still one database session: statements run one at a time, and while one of knex's connections (sessions
// of this thread, session()) has a transaction open, only its statements run.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import { COMPILED, COMPILED_DIR, ROOT } from '../paths.js';
import { PREPARE_FIRST, SESSION_OF, type PlainError, type PrepareFirst, type ThreadCall, type ThreadInit, type ThreadReply } from './pglite-thread-protocol.js';

type Call = ThreadCall extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never;

/** tsx's ESM API (its `import` export: require.resolve would give the CommonJS one, which fails in a worker). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return path.join(path.dirname(manifest), exports['./esm/api'].import.default);
}

/**
 * The worker: the compiled JavaScript next to the server's (npm start), or the TypeScript through tsx's loader
 * (tests, npm run dev), which a worker thread does not inherit from the thread that starts it.
 */
function startWorker(init: ThreadInit): Worker {
  if (COMPILED) return new Worker(path.join(COMPILED_DIR, 'src', 'db', 'pglite-thread.worker.js'), { workerData: init });
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const entry = pathToFileURL(path.join(ROOT, 'src', 'db', 'pglite-thread.worker.ts')).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(boot, { eval: true, workerData: init });
}

/** The database's error as an Error of this thread: its message and fields, with this thread's stack. */
/** The call's `prepare` field from a PREPARE_FIRST option: one statement or several. */
const toPrepare = (option: unknown): { prepare?: PrepareFirst[] } =>
  option ? { prepare: Array.isArray(option) ? (option as PrepareFirst[]) : [option as PrepareFirst] } : {};

function toError({ message, name, fields }: PlainError): Error {
  const err = Object.assign(new Error(message), fields);
  err.name = name;
  return err;
}

/** What a connection of the embedded database can do: PGlite's calls, and a whole transaction in one call. */
export interface PGliteConnection {
  readonly waitReady: Promise<void>;
  query<T>(sql: string, params?: unknown[], options?: Record<string, unknown>): Promise<Results<T>>;
  /** `options` may name a prepared statement the SQL runs (PREPARE_FIRST): it is prepared first if need be. */
  exec(sql: string, options?: Record<string, unknown>): Promise<Results[]>;
  /** `begin` (BEGIN and settings), the statement, COMMIT: one transaction, and one call (ROLLBACK if it fails). */
  alone<T>(begin: string, sql: string, params?: unknown[]): Promise<Results<T>>;
}

export class PGliteThread implements PGliteConnection {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void; session: number }>();
  private nextId = 1;
  private nextSession = 1;
  /** Sessions with a transaction open after their last answer (a session given back so is rolled back). */
  private readonly open = new Set<number>();
  /** Why no call can be answered any more (closed, or the thread ended), once that is so. */
  private ended: Error | undefined;
  private closing: Promise<void> | undefined;

  constructor(init: ThreadInit) {
    this.worker = startWorker(init);
    this.waitReady = new Promise<void>((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject, session: 0 }));
    // Reported to whoever waits for the database; not an unhandled rejection when nobody does yet.
    this.waitReady.catch(() => {});
    this.worker.on('message', (message: ThreadReply) => this.settle(message));
    this.worker.on('error', (err) => this.end(err));
    this.worker.on('exit', (code) => this.end(new Error(`The embedded database's thread ended (exit code ${code})`)));
  }

  get closed(): boolean {
    return this.ended !== undefined;
  }

  query<T>(sql: string, params?: unknown[], options?: Record<string, unknown>): Promise<Results<T>> {
    return this.queryIn(0, sql, params, options);
  }

  exec(sql: string, options?: Record<string, unknown>): Promise<Results[]> {
    return this.execIn(0, sql, options);
  }

  alone<T>(begin: string, sql: string, params?: unknown[]): Promise<Results<T>> {
    return this.aloneIn(0, begin, sql, params);
  }

  /**
   * A connection of its own (knex's pool holds several, src/db/knex-internals.ts): its calls wait only while
   * another connection has a transaction open, never while this thread gets round to another's next step.
   */
  session(): PGliteConnection & { [SESSION_OF]: PGliteThread; release(): Promise<void> | undefined } {
    const session = this.nextSession++;
    return {
      [SESSION_OF]: this,
      waitReady: this.waitReady,
      query: (sql, params, options) => this.queryIn(session, sql, params, options),
      exec: (sql, options) => this.execIn(session, sql, options),
      alone: (begin, sql, params) => this.aloneIn(session, begin, sql, params),
      // Nothing to send (undefined) unless the session's last answer left a transaction open.
      release: () => (this.open.has(session) && !this.ended ? this.call({ op: 'release', session }).then(() => {}) : undefined),
    };
  }

  async dumpDataDir(compression: 'gzip' | 'none' | 'auto' = 'auto'): Promise<Blob> {
    return new Blob([(await this.call({ op: 'dump', session: 0, compression })) as ArrayBuffer]);
  }

  /** Closes the database (it writes its files) and ends the thread; calls after it are refused. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.ended) await this.call({ op: 'close', session: 0 });
      } finally {
        this.end(new Error('The embedded database is closed'));
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private queryIn<T>(session: number, sql: string, params?: unknown[], options?: Record<string, unknown>): Promise<Results<T>> {
    const { [PREPARE_FIRST]: prepare, ...rest } = options ?? {};
    const hasOptions = Object.keys(rest).length > 0;
    return this.call({
      op: 'query', session, sql, ...(params?.length ? { params } : {}), ...(hasOptions ? { options: rest } : {}), ...toPrepare(prepare),
    }) as Promise<Results<T>>;
  }

  private execIn(session: number, sql: string, options?: Record<string, unknown>): Promise<Results[]> {
    return this.call({ op: 'exec', session, sql, ...toPrepare(options?.[PREPARE_FIRST]) }) as Promise<Results[]>;
  }

  private aloneIn<T>(session: number, begin: string, sql: string, params?: unknown[]): Promise<Results<T>> {
    return this.call({ op: 'alone', session, begin, sql, ...(params?.length ? { params } : {}) }) as Promise<Results<T>>;
  }

  private call(call: Call): Promise<unknown> {
    if (this.ended) return Promise.reject(this.refusal());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, session: call.session });
      // While a call waits for its answer the thread keeps the process alive (a CLI awaiting a statement must not
      // exit); an idle one does not hold it open.
      if (this.pending.size === 1) this.worker.ref();
      try {
        this.worker.postMessage({ ...call, id });
      } catch (err) {
        // A value that cannot be copied to the other thread (a function, say): refused like a bad parameter.
        this.pending.delete(id);
        reject(err as Error);
      }
    });
  }

  private settle(message: ThreadReply): void {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.open) this.open.add(waiting.session);
    else this.open.delete(waiting.session);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in message) waiting.reject(toError(message.error));
    else waiting.resolve(message.ok);
  }

  /**
   * A call's error once the thread has ended: SQLSTATE 08006 (connection failure), as PostgreSQL's driver reports
   * a lost server, so pages and the API answer 503 "try again shortly" (src/db/unavailable.ts), not 500.
   */
  private refusal(): Error {
    return Object.assign(new Error(this.ended!.message), { code: '08006' });
  }

  private end(reason: Error): void {
    if (this.ended) return;
    this.ended = reason;
    for (const { reject } of this.pending.values()) reject(this.refusal());
    this.pending.clear();
    this.worker.unref();
  }
}
