// The embedded database in a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: run in the
// server's thread, every statement's work (and decoding its answer) took that thread's time, about half of it
// on a list page (bench/README.md, 2026-11-27), while the machine's other core had nothing to do. Here PGlite
// runs in a worker thread (src/db/pglite-thread.worker.ts) and this class stands in for it with the part of
// PGlite's API that knex-pglite and this code use: waitReady, query(), exec(), dumpDataDir(), close().
// Answers arrive as PGlite gives them (rows, fields, affectedRows; structured clone keeps Dates, numbers and
// bytes as they are); an error arrives as an Error with the database's fields (code, constraint, detail, …).
// It is still one database with one connection: statements run one at a time, in the order they were sent.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import { COMPILED, COMPILED_DIR, ROOT } from '../paths.js';
import type { PlainError, ThreadCall, ThreadInit, ThreadReply } from './pglite-thread-protocol.js';

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
function toError({ message, name, fields }: PlainError): Error {
  const err = Object.assign(new Error(message), fields);
  err.name = name;
  return err;
}

export class PGliteThread {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  private nextId = 1;
  /** Why no call can be answered any more (closed, or the thread ended), once that is so. */
  private ended: Error | undefined;
  private closing: Promise<void> | undefined;

  constructor(init: ThreadInit) {
    this.worker = startWorker(init);
    this.waitReady = new Promise<void>((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
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
    const hasOptions = options && Object.keys(options).length > 0;
    return this.call({ op: 'query', sql, ...(params?.length ? { params } : {}), ...(hasOptions ? { options } : {}) }) as Promise<Results<T>>;
  }

  exec(sql: string): Promise<Results[]> {
    return this.call({ op: 'exec', sql }) as Promise<Results[]>;
  }

  async dumpDataDir(compression: 'gzip' | 'none' | 'auto' = 'auto'): Promise<Blob> {
    return new Blob([(await this.call({ op: 'dump', compression })) as ArrayBuffer]);
  }

  /** Closes the database (it writes its files) and ends the thread; calls after it are refused. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.ended) await this.call({ op: 'close' });
      } finally {
        this.end(new Error('The embedded database is closed'));
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private call(call: Call): Promise<unknown> {
    if (this.ended) return Promise.reject(new Error(this.ended.message));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // While a call waits for its answer the thread keeps the process alive (a CLI awaiting a statement must not
      // exit); an idle one does not hold it open.
      if (this.pending.size === 1 || id === 1) this.worker.ref();
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
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in message) waiting.reject(toError(message.error));
    else waiting.resolve(message.ok);
  }

  private end(reason: Error): void {
    if (this.ended) return;
    this.ended = reason;
    for (const { reject } of this.pending.values()) reject(new Error(reason.message));
    this.pending.clear();
    this.worker.unref();
  }
}
