// Every use of knex's undocumented internals, in one file. The rest of the code uses knex's public API and
// these named functions; src/db/knex-internals.test.ts names each thing relied on here and fails when a knex
// (or knex-pglite) upgrade changes it. package.json pins both to exact versions for that reason: upgrading is
// a deliberate change that runs that test.
//
// What is relied on, and by whom:
// - a query builder's `_method` ('select', 'first', 'pluck', 'insert', …) and `_single.lock` (set by forUpdate()
//   and the other locks): whether a query is a plain read (TenantScope, src/db/scope.ts);
// - a builder's own then() compiles and runs its query on its client, which transacting(trx) makes the
//   transaction's; clone() copies the builder (own properties included); stream() and pipe() exist;
// - the pg client class at knex/lib/dialects/postgres (knex-pglite subclasses the same), whose
//   transaction(container, config, outerTx) builds a transaction object with begin(conn) and query(conn, sql),
//   acquireConnection(), releaseConnection(conn) and _query(conn, obj) setting obj.response; knex builds each
//   transaction's client from the class, so only a subclass reaches them (src/db/knex.ts);
// - knex-pglite's client: a `pglite` property, a response shaped like PGlite's results with `affectedRows`;
// - knex.client.pool (tarn): numPendingAcquires() and numUsed(), for closing without aborting waiting work;
// - a client's query(conn, sql) sends one statement on a connection of acquireConnection(), emitting 'query' as a
//   builder's statement does (sendOnPooledConnection, the health check);
// - a builder's options({…}) reach the client's _query as `obj.options`, which the pg client hands to pg's
//   query config (where `name` makes pg prepare the statement once per connection and execute it after);
// - a client's 'query' event reaches the knex instance's listeners, and knex gives every connection back through
//   releaseConnection(conn) (PGlite's BEGIN sent with the first statement, deferredBegin);
// - the embedded database's pool (pgliteThreadClientClass): knex's client settles its pool's size in
//   getPoolSettings(poolConfig) and ends it in destroy(); knex-pglite gets a connection from
//   _acquireOnlyConnection() and gives it up in destroyRawConnection(conn); a builder's options({…}) also carry
//   runAlone()'s config to _query (reads alone, aloneIn);
// - readTogether(): a builder's toSQL().toNative() gives the SQL with $n placeholders and its bindings as the
//   client's _query would get them, and a select() resolves to its rows, a first() to the first of them.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { PREPARE_FIRST, SESSION_OF } from './pglite-thread-protocol.js';

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------------------
// Query builders

type BuilderInternals = Knex.QueryBuilder & { _method?: string; _single?: { lock?: unknown } };

/** The methods whose builder only reads (first() and pluck() are selects with a shaped answer). */
const READ_METHODS = new Set(['select', 'first', 'pluck']);

/** A select without a lock (forUpdate(), forShare(), …): a query that may share a read-only transaction. */
export function isPlainRead(qb: Knex.QueryBuilder): boolean {
  const builder = qb as BuilderInternals;
  return READ_METHODS.has(builder._method as string) && !builder._single?.lock;
}

/** Runs the builder's query in `trx` and resolves to its answer, as awaiting it inside that transaction would. */
export type RunIn = (trx: Knex.Transaction) => Promise<unknown>;
/** Runs the builder's query on its own (no transaction of knex's) with the transaction config `config` (aloneIn()). */
export type RunAlone = (config: Record<string, unknown>) => Promise<unknown>;

/**
 * Makes `qb` (and every clone() of it) run through `route` when it is awaited, instead of on the connection it
 * was built on: `route` receives a function that runs the query in a transaction it chooses, and whether the
 * query is a plain read, judged when it is awaited (a lock may be added after the builder is handed out).
 * stream() and pipe() throw `streamError`: a stream would run outside any transaction the route chooses.
 */
export function routeQuery<Q extends Knex.QueryBuilder>(
  qb: Q,
  route: (runIn: RunIn, plainRead: boolean, runAlone: RunAlone, markedPrepared: boolean, builder: Knex.QueryBuilder) => Promise<unknown>,
  streamError: string,
): Q {
  const builder = qb as unknown as BuilderInternals;
  // knex's own then(): compiles and runs the query on the builder's client (the transaction's, once transacting()).
  const execute = builder.then as unknown as (this: BuilderInternals, ok: (v: unknown) => void, fail: (e: unknown) => void) => void;
  const clone = builder.clone;
  const runIn: RunIn = (trx) => new Promise<unknown>((ok, fail) => execute.call(builder.transacting(trx) as BuilderInternals, ok, fail));
  const runAlone: RunAlone = (config) => new Promise<unknown>((ok, fail) => execute.call(builder.options({ [ALONE]: config }) as BuilderInternals, ok, fail));
  const run = (): Promise<unknown> => {
    try {
      return route(runIn, isPlainRead(builder), runAlone, isMarkedPrepared(builder), builder);
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const unsupported = () => {
    throw new Error(streamError);
  };
  Object.assign(builder, {
    then: (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => run().then(ok, fail),
    clone: () => routeQuery(clone.call(builder) as Q, route, streamError),
    stream: unsupported,
    pipe: unsupported,
  });
  return qb;
}

/** Whether this is a transaction rather than the base instance (knex marks its transactions so). */
export const isTransaction = (knex: Knex | Knex.Transaction): knex is Knex.Transaction => (knex as Knex.Transaction).isTransaction === true;

// ---------------------------------------------------------------------------------------------------------
// Clients

interface QueryObject {
  sql: string;
  bindings?: unknown[];
  options?: Record<string, unknown>;
  response?: unknown;
}

// ---------------------------------------------------------------------------------------------------------
// Prepared statements

/** The option prepared() sets; the client turns it into a statement name (and pg never sees it). */
const PREPARE = 'portalPrepare';
/** The option runAlone() sets: the config of the transaction the statement runs in, alone (aloneIn()). */
const ALONE = 'portalAlone';

/**
 * Marks a query that runs on every page with the same text (the session's read, a list page's statement, its
 * filter choices) to be prepared: parsed, analysed and rewritten (row-level security included) once per
 * connection, and planned once when the planner finds its generic plan as good as a custom one. On 2026-11-27
 * that work, redone for every unnamed statement, was most of the database's CPU per list page on PostgreSQL,
 * and on the embedded database planning alone asked the file system for the size of every table and index
 * the statement touches (bench/README.md). Only for queries whose text takes a bounded number of shapes:
 * values must be bindings.
 * - PostgreSQL: a named statement of pg (the protocol's Parse once, then Bind and Execute by name).
 * - PGlite has no named statements in its API: the statement is prepared with SQL's PREPARE, and run by
 *   EXECUTE with the values as literals (executeLiterals). Values that are not plain text, numbers, booleans or
 *   instants run the query unnamed, as before.
 */
export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(qb: Q, { generic = false }: { generic?: boolean } = {}): Q {
  return qb.options({ [PREPARE]: generic ? GENERIC : true }) as Q;
}

/**
 * prepared(qb, { generic: true }): the statement runs its generic plan, made once per connection, wherever it
 * runs alone in a transaction of its own (a tenant's read: TenantScope), on both databases. PostgreSQL's own
 * choice (plan_cache_mode auto) keeps planning a list page's statement for every page: a custom plan knows its
 * LIMIT and OFFSET, so the generic plan, which must guess them, always looks dearer, although it is the same
 * plan. On 2026-11-28 planning was 1.0 to 1.4 ms of the list page statement's 1.5 to 2 ms on PostgreSQL
 * (bench/README.md). Only for statements whose plans are held by a test with the generic plan (the movement
 * lists: src/features/bewegungsdaten/list-plans.test.ts). Inside a longer transaction the statement is
 * planned as PostgreSQL chooses: the setting would last to that transaction's end.
 */
const GENERIC = 'generic';
const GENERIC_PLAN = 'SET LOCAL plan_cache_mode = force_generic_plan';

/** Whether prepared() marked the builder (knex keeps each options() call's object in `_options`). */
const isMarkedPrepared = (qb: Knex.QueryBuilder): boolean => ((qb as { _options?: Record<string, unknown>[] })._options ?? []).some((o) => Boolean(o?.[PREPARE]));

/**
 * How many statements one connection keeps prepared: the page statements of the lists, their filter choices
 * and the session's read, in the shapes their filters and sorts give, fit many times over. Past it a query runs
 * unnamed as before, so a query text that varies by mistake costs the server no memory.
 */
export const PREPARED_PER_CONNECTION = 200;
const preparedOn = new WeakMap<object, Set<string>>();

/**
 * What prepared statements belong to: the database session. PGliteThread's connections are several connections
 * of knex's to one PGlite, that is one PostgreSQL session (SESSION_OF); anything else is its own.
 */
const sessionOf = (connection: object): object => (connection as { [SESSION_OF]?: object })[SESSION_OF] ?? connection;

/**
 * A statement's SHA-1, remembered by its text: the same few texts come with every page, and hashing the list
 * statement (some 3 KB) each time was 1 % of a list page's CPU (bench/README.md, issue 21). Bounded like the
 * statements a connection keeps, so texts that vary by mistake cost no more memory than that.
 */
const digests = new Map<string, string>();
function sqlDigest(sql: string): string {
  let digest = digests.get(sql);
  if (digest === undefined) {
    digest = createHash('sha1').update(sql).digest('hex');
    if (digests.size >= PREPARED_PER_CONNECTION * 4) digests.clear();
    digests.set(sql, digest);
  }
  return digest;
}

/**
 * The statement name for `sql` on this connection and whether it is new there (to be prepared now), or
 * undefined when the connection has no room left.
 */
function statementName(connection: object, sql: string, prefix = 'portal_'): { name: string; fresh: boolean } | undefined {
  const name = `${prefix}${sqlDigest(sql)}`;
  const session = sessionOf(connection);
  let names = preparedOn.get(session);
  if (!names) preparedOn.set(session, (names = new Set()));
  if (names.has(name)) return { name, fresh: false };
  if (names.size >= PREPARED_PER_CONNECTION) return undefined;
  names.add(name);
  return { name, fresh: true };
}

/** SQL's EXECUTE of a prepared statement with its values as literals (no parentheses without values: SQL's rule). */
const executeSql = (name: string, literals: string[]) => (literals.length ? `EXECUTE ${name}(${literals.join(', ')})` : `EXECUTE ${name}`);

/** statementName() for several statements, all or none: undefined (and nothing taken) when they do not all fit. */
function statementNames(connection: object, sqls: string[], prefix: string): { name: string; fresh: boolean }[] | undefined {
  const names = preparedOn.get(sessionOf(connection));
  const fresh = new Set(sqls.map((sql) => `${prefix}${sqlDigest(sql)}`).filter((name) => !names?.has(name)));
  if ((names?.size ?? 0) + fresh.size > PREPARED_PER_CONNECTION) return undefined;
  return sqls.map((sql) => statementName(connection, sql, prefix)!);
}

/** Forgets a statement that failed to prepare (and drops it, in case a part of the attempt did prepare it). */
function forgetPrepared(connection: object, name: string): void {
  preparedOn.get(sessionOf(connection))?.delete(name);
}

/**
 * The values as SQL literals for EXECUTE (PGlite), or undefined when one of them is not a plain scalar. Every
 * value is a quoted literal of unknown type, which EXECUTE gives the parameter's type exactly as the driver's
 * text parameter would be (an instant as PGlite sends it: ISO 8601 in UTC). A string holding a backslash or
 * NUL is left to the driver: with standard_conforming_strings (PostgreSQL's default, never changed here)
 * doubling the quotes is the whole escaping, and refusing the rest keeps that true whatever a setting says.
 */
export function executeLiterals(values: readonly unknown[]): string[] | undefined {
  const out: string[] = [];
  for (const v of values) {
    let text: string;
    if (v === null || v === undefined) {
      out.push('NULL');
      continue;
    }
    if (typeof v === 'string') text = v;
    else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
    else if (typeof v === 'bigint') text = String(v);
    else if (typeof v === 'boolean') text = v ? 'true' : 'false';
    else if (v instanceof Date && !Number.isNaN(v.getTime())) text = v.toISOString();
    else return undefined;
    if (/[\\\0]/.test(text)) return undefined;
    out.push(`'${text.replace(/'/g, "''")}'`);
  }
  return out;
}

interface TransactionInternals {
  begin(conn: unknown): Promise<unknown>;
  query(conn: unknown, sql: string): Promise<unknown>;
}
// knex's client classes are untyped JavaScript: this is the part of them used here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ClientClass = new (...args: any[]) => {
  transaction(container: unknown, config?: Record<string, unknown>, outerTx?: unknown): TransactionInternals;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  _query(connection: unknown, obj: QueryObject): Promise<unknown>;
};

/** knex's PostgreSQL client class (for `pg`). */
export const pgClientClass = (): ClientClass => require('knex/lib/dialects/postgres/index.js') as ClientClass;

/** knex-pglite's client class (a subclass of the pg client for the embedded database). */
export function pgliteClientClass(): ClientClass {
  const mod = require('knex-pglite') as ClientClass | { default: ClientClass };
  return 'default' in mod ? mod.default : mod;
}

/** How many connections knex's pool lends on the embedded database: sessions of one PGliteThread. */
export const PGLITE_CONNECTIONS = 10;

/**
 * knex-pglite's client on a PGliteThread (src/db/pglite-thread.ts): a pool of PGLITE_CONNECTIONS of its sessions
 * instead of knex-pglite's one connection (its constructor fixes the pool at one; the pool's size is settled by
 * getPoolSettings()). The database's thread lets one session at a time hold a transaction, so a request's read
 * never waits for another request to be served by this thread, only for the database. knex.destroy() closes it.
 */
export function pgliteThreadClientClass(): ClientClass {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Base = pgliteClientClass() as unknown as new (...args: any[]) => any;
  type Thread = { waitReady: Promise<void>; session(): object; close(): Promise<void> };
  return class extends Base {
    declare pglite: Thread;

    getPoolSettings(poolConfig: Record<string, unknown>) {
      return super.getPoolSettings({ ...poolConfig, max: PGLITE_CONNECTIONS });
    }

    async _acquireOnlyConnection() {
      await this.pglite.waitReady;
      return this.pglite.session();
    }

    async destroyRawConnection(connection: { release(): Promise<void> | undefined }) {
      await connection.release();
    }

    async destroy(callback?: (err?: unknown) => void) {
      try {
        await super.destroy();
        await this.pglite.close();
      } catch (err) {
        if (typeof callback === 'function') return callback(err);
        throw err;
      }
      if (typeof callback === 'function') callback();
    }
  } as unknown as ClientClass;
}

export interface ClientHooks {
  /**
   * SQL that opens a top-level transaction with this config in place of BEGIN (it must start with "BEGIN; " and
   * take no parameters), or undefined for a plain BEGIN.
   */
  beginWith(config: Record<string, unknown> | undefined): string | undefined;
  /** Called before a connection is taken from the pool: an error refuses the query. */
  refuseAcquire(): Error | undefined;
}

const SENDS_BEGIN_WITH = Symbol('sendsBeginWith');
const BEGIN_PREFIX = 'BEGIN; ';

/**
 * PGlite: the BEGIN (with its settings) of a transaction that has not sent anything yet, by connection. It goes
 * with the transaction's first statement (deferredBegin()); a connection given back drops it.
 */
const deferredBegins = new WeakMap<object, string>();
const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK)\b/i;
/** What a PGlite connection is asked here: PGlite's exec(), and, on PGliteThread's, a whole transaction in one call. */
type PgliteCalls = {
  exec(sql: string, options?: Record<string, unknown>): Promise<unknown[]>;
  alone?(begin: string, sql: string, params?: unknown[]): Promise<unknown>;
};
/**
 * PGliteThread's connections prepare a statement in the database's thread the first time one of them runs it
 * (PREPARE_FIRST in the call's options, src/db/pglite-thread.ts), so no two connections race to prepare it;
 * a PGlite of this thread's own gets a PREPARE call first.
 */
const preparesOnCall = (connection: unknown): boolean => typeof (connection as PgliteCalls).alone === 'function';

/**
 * PGlite: `obj`'s statement as EXECUTE of its prepared statement with its values as literals, with the options
 * its call needs, once what must run before it has run; undefined when it runs unnamed (not marked prepared(),
 * a value that is not a plain scalar, no room left). Takes the PREPARE mark off `obj` either way.
 */
async function preparedExecute(connection: unknown, obj: QueryObject): Promise<{ execute: string; generic: boolean; options: Record<string, unknown> } | undefined> {
  if (!obj.options?.[PREPARE]) return undefined;
  const { [PREPARE]: mark, ...options } = obj.options;
  const generic = mark === GENERIC;
  obj.options = options;
  const literals = executeLiterals(obj.bindings ?? []);
  const statement = literals && statementName(connection as object, obj.sql);
  if (!literals || !statement) return undefined;
  const { name, fresh } = statement;
  const execute = executeSql(name, literals);
  if (preparesOnCall(connection)) return { execute, generic, options: { ...options, [PREPARE_FIRST]: { name, sql: obj.sql } } };
  if (fresh) {
    // A PGlite of this thread's own: knex holds its one connection for the query, so nothing can EXECUTE the
    // name between this PREPARE and the query.
    await (connection as PgliteCalls).exec(`PREPARE ${name} AS ${obj.sql}`).catch((err: unknown) => {
      preparedOn.get(sessionOf(connection as object))?.delete(name);
      throw err;
    });
  }
  return { execute, generic, options };
}

/** The EXECUTE of a statement that runs alone in its transaction, under the generic plan where it is marked so. */
const executeAlone = (prepared: { execute: string; generic: boolean }) => (prepared.generic ? `${GENERIC_PLAN}; ${prepared.execute}` : prepared.execute);
/** Runs `work`; if it fails, a transaction it left aborted is ended before knex lends the connection again. */
async function endedEvenIfFailed<T>(send: (sql: string) => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await send('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** PostgreSQL: SQL's PREPARE of `sql` as `name` on the connection, forgotten again if the server refuses it. */
async function prepareOnPostgres(pg: { query(text: string): Promise<unknown> }, connection: object, name: string, sql: string): Promise<void> {
  await pg.query(`PREPARE ${name} AS ${sql}`).catch((err: unknown) => {
    forgetPrepared(connection, name);
    throw err;
  });
}

/** `begin` (BEGIN and settings), the statement (`run`), COMMIT: one after another on one connection. */
async function inItsTransaction<T>(send: (sql: string) => Promise<unknown>, begin: string, run: () => Promise<T>): Promise<T> {
  await send(begin);
  const result = await run();
  await send('COMMIT');
  return result;
}

/** knex-pglite's processResponse reads PGlite's result shape, with affectedRows. */
function lastResult(obj: QueryObject, results: unknown[]): QueryObject {
  const last = results.at(-1) as { affectedRows?: number } | undefined;
  obj.response = { ...last, affectedRows: last?.affectedRows ?? 0 };
  return obj;
}

/**
 * The client class with `hooks`, as a subclass: knex builds each transaction's client from the class, so a patch
 * of an instance would not reach it (knex-pglite extends the pg client the same way). `BEGIN; select …` without
 * parameters travels as one simple query on pg; PGlite prepares every query, and a prepared statement holds one
 * command, so there the two go through its exec().
 */
export function extendClient<C extends ClientClass>(Base: C, kind: 'postgres' | 'pglite', hooks: ClientHooks): C {
  return class extends Base {
    get [SENDS_BEGIN_WITH]() {
      return true;
    }

    transaction(container: unknown, config?: Record<string, unknown>, outerTx?: unknown) {
      const trx = super.transaction(container, config, outerTx);
      const sql = outerTx ? undefined : hooks.beginWith(config);
      if (sql !== undefined) {
        if (!sql.startsWith(BEGIN_PREFIX)) throw new Error('beginWith() must return SQL that starts with "BEGIN; "');
        // PGlite: sent with the transaction's first statement (deferredBegin()), and reported now, as knex reports
        // every statement with its 'query' event (src/db/query-count.ts counts them).
        const client = this as unknown as { emit(event: string, data: unknown): void };
        trx.begin =
          kind === 'pglite'
            ? (conn) => {
                deferredBegins.set(conn as object, sql);
                client.emit('query', { sql, bindings: [] });
                return Promise.resolve();
              }
            : (conn) => trx.query(conn, sql);
      }
      return trx;
    }

    acquireConnection() {
      const refused = hooks.refuseAcquire();
      return refused ? Promise.reject(refused) : super.acquireConnection();
    }

    releaseConnection(connection: unknown) {
      // A transaction always ends with COMMIT or ROLLBACK, which takes its BEGIN if nothing did; this is the
      // guard that no BEGIN outlives its transaction and opens one around the connection's next statement.
      deferredBegins.delete(connection as object);
      // A PGliteThread session that left a transaction open would keep the database from every other: ended.
      const rollingBack = (connection as { release?(): Promise<void> | undefined }).release?.();
      if (rollingBack) return rollingBack.catch(() => {}).then(() => super.releaseConnection(connection));
      return super.releaseConnection(connection);
    }

    /**
     * PGlite: the first statement of a transaction, with its BEGIN. Every call into PGlite costs its
     * WebAssembly's fixed work (the protocol, a sync), so BEGIN and the tenant's settings travel in one exec()
     * with the first statement when that is a statement prepared on this connection already (EXECUTE, without
     * parameters: a simple query may hold several commands), and on their own just before it otherwise. A
     * transaction that ends before sending anything ends without a call. Every statement of the transaction
     * comes here first, so none runs before its BEGIN and settings.
     */
    async deferredBegin(connection: unknown, begin: string, obj: QueryObject): Promise<unknown> {
      const pglite = connection as PgliteCalls;
      if (ENDS_TRANSACTION.test(obj.sql)) return lastResult(obj, [{ rows: [], fields: [] }]);
      const prepared = await preparedExecute(connection, obj);
      if (prepared) return lastResult(obj, await pglite.exec(`${begin}; ${prepared.execute}`, prepared.options));
      await pglite.exec(begin);
      return this._query(connection, obj);
    }

    /**
     * PGlite: a plain read in a transaction of its own with the config's settings (runAlone(), TenantScope's
     * reads), sent as one exec(): `BEGIN; settings; EXECUTE name(literals); COMMIT` when the statement is
     * prepared (the first time it is prepared just before), else BEGIN, the statement and COMMIT one after
     * another on the connection knex lent for it. Either way the connection is held only while the database's
     * thread works, not while this thread gets round to the next step of the request. knex reports the call
     * as the one statement it is (src/db/query-count.ts).
     */
    async aloneIn(connection: unknown, config: Record<string, unknown>, obj: QueryObject): Promise<unknown> {
      const begin = hooks.beginWith(config);
      if (begin === undefined || !begin.startsWith(BEGIN_PREFIX)) throw new Error('runAlone() needs a config that beginWith() opens');
      if (kind === 'postgres') return this.aloneOnPostgres(connection, begin, obj);
      const pglite = connection as PgliteCalls;
      const prepared = await preparedExecute(connection, obj);
      if (!prepared && pglite.alone) {
        const result = (await pglite.alone(begin, obj.sql, obj.bindings)) as { affectedRows?: number };
        obj.response = { ...result, affectedRows: result.affectedRows ?? 0 };
        return obj;
      }
      return endedEvenIfFailed((sql) => pglite.exec(sql), async () => {
        if (prepared) return lastResult(obj, (await pglite.exec(`${begin}; ${executeAlone(prepared)}; COMMIT`, prepared.options)).slice(0, -1));
        return inItsTransaction((sql) => pglite.exec(sql), begin, () => this._query(connection, obj));
      });
    }

    /**
     * PostgreSQL: a prepared() read alone, as one simple query `BEGIN; settings; EXECUTE name(literals); COMMIT`
     * on the connection knex lent (one round trip instead of BEGIN, the statement and COMMIT). The statement is
     * prepared with SQL's PREPARE, once per connection, under a name of its own (`portal_sql_…`): pg's named
     * statements of the protocol share the connection's names, and pg knows only its own. Values that are not
     * plain scalars run BEGIN, the statement and COMMIT one after another.
     */
    async aloneOnPostgres(connection: unknown, begin: string, obj: QueryObject): Promise<unknown> {
      const pg = connection as { query(text: string): Promise<unknown> };
      const { [PREPARE]: marked, ...options } = obj.options ?? {};
      obj.options = options;
      const literals = marked ? executeLiterals(obj.bindings ?? []) : undefined;
      const statement = literals && statementName(connection as object, obj.sql, 'portal_sql_');
      const send = (sql: string) => pg.query(sql);
      return endedEvenIfFailed(send, async () => {
        if (!literals || !statement) return inItsTransaction(send, begin, () => super._query(connection, obj));
        if (statement.fresh) await prepareOnPostgres(pg, connection as object, statement.name, obj.sql);
        const execute = executeAlone({ execute: executeSql(statement.name, literals), generic: marked === GENERIC });
        const results = (await pg.query(`${begin}; ${execute}; COMMIT`)) as unknown[];
        obj.response = results.at(-2);
        return obj;
      });
    }

    /**
     * Several plain reads in one transaction of their own with the config's settings, in one round trip
     * (readTogether()): `BEGIN; settings; EXECUTE a(literals); EXECUTE b(literals); …; COMMIT`, each statement
     * prepared on the connection the first time, by a PREPARE in front of the same simple query (PGliteThread:
     * in the database's thread, PREPARE_FIRST, as its connections share one session). Their results in order,
     * or undefined when the connection has no room for their names. knex's 'query' event reports the round trip.
     */
    async togetherIn(connection: unknown, config: Record<string, unknown>, reads: { sql: string; literals: string[] }[]): Promise<{ rows: unknown[] }[] | undefined> {
      const begin = hooks.beginWith(config);
      if (begin === undefined || !begin.startsWith(BEGIN_PREFIX)) throw new Error('readTogether() needs a config that beginWith() opens');
      const names = statementNames(connection as object, reads.map((r) => r.sql), kind === 'postgres' ? 'portal_sql_' : 'portal_');
      if (!names) return undefined;
      const executes = `${begin}; ${reads.map((r, i) => executeSql(names[i].name, r.literals)).join('; ')}; COMMIT`;
      const statements = names.map((n, i) => ({ name: n.name, sql: reads[i].sql, fresh: n.fresh }));
      const onThread = kind === 'pglite' && preparesOnCall(connection);
      const fresh = onThread ? [] : statements.filter((p) => p.fresh);
      const sql = [...fresh.map((p) => `PREPARE ${p.name} AS ${p.sql}`), executes].join('; ');
      const send = (text: string, options?: Record<string, unknown>): Promise<unknown[]> =>
        kind === 'postgres'
          ? (connection as { query(text: string): Promise<unknown> }).query(text).then((r) => (Array.isArray(r) ? r : [r]))
          : (connection as PgliteCalls).exec(text, options);
      (this as unknown as { emit(event: string, data: unknown): void }).emit('query', { sql, bindings: [] });
      try {
        const results = await endedEvenIfFailed(send, () => send(sql, onThread ? { [PREPARE_FIRST]: statements.map(({ name, sql: text }) => ({ name, sql: text })) } : undefined));
        return results.slice(-1 - reads.length, -1) as { rows: unknown[] }[];
      } catch (err) {
        // Which of the new statements the failed query left prepared (PREPARE does not roll back): known again.
        if (fresh.length) {
          for (const p of fresh) forgetPrepared(connection as object, p.name);
          const left = await send(`select name from pg_prepared_statements where name in (${fresh.map((p) => `'${p.name}'`).join(', ')})`).catch(() => undefined);
          const known = preparedOn.get(sessionOf(connection as object));
          for (const row of ((left?.at(-1) as { rows?: { name: string }[] } | undefined)?.rows ?? [])) known?.add(row.name);
        }
        throw err;
      }
    }

    _query(connection: unknown, obj: QueryObject): Promise<unknown> {
      const alone = obj.options?.[ALONE] as Record<string, unknown> | undefined;
      if (alone) {
        const { [ALONE]: _, ...options } = obj.options!;
        obj.options = options;
        return this.aloneIn(connection, alone, obj);
      }
      const begin = kind === 'pglite' ? deferredBegins.get(connection as object) : undefined;
      if (begin !== undefined) {
        deferredBegins.delete(connection as object);
        return this.deferredBegin(connection, begin, obj);
      }
      if (obj.options?.[PREPARE] && kind === 'postgres') {
        const { [PREPARE]: _, ...options } = obj.options;
        const statement = statementName(connection as object, obj.sql);
        obj.options = statement ? { ...options, name: statement.name } : options;
      } else if (obj.options?.[PREPARE]) {
        return preparedExecute(connection, obj).then((prepared) => {
          if (prepared) Object.assign(obj, { sql: prepared.execute, bindings: [], options: prepared.options });
          return super._query(connection, obj);
        });
      }
      return super._query(connection, obj);
    }
  };
}

/**
 * Plain reads (select() or first(), no lock) in one transaction of their own with the transaction config
 * `config` (as runAlone()'s), in one round trip: their answers in order, shaped as awaiting each would give
 * them. Undefined when they cannot go together (a client not of extendClient(), another kind of query, a value
 * that is not a plain scalar, no room for more prepared statements on the connection): the caller runs them
 * one by one. Every read is prepared on the connection, so only for queries whose text takes a bounded number
 * of shapes, as prepared().
 */
export async function readTogether(knex: Knex, config: Record<string, unknown>, builders: readonly Knex.QueryBuilder[]): Promise<unknown[] | undefined> {
  const client = knex.client as InstanceType<ClientClass> & {
    togetherIn?(connection: unknown, config: Record<string, unknown>, reads: { sql: string; literals: string[] }[]): Promise<{ rows: unknown[] }[] | undefined>;
  };
  if (!sendsBeginWith(knex) || typeof client.togetherIn !== 'function') return undefined;
  const reads: { sql: string; literals: string[]; first: boolean }[] = [];
  for (const qb of builders) {
    const method = (qb as BuilderInternals)._method;
    if (!isPlainRead(qb) || (method !== 'select' && method !== 'first')) return undefined;
    const { sql, bindings } = qb.toSQL().toNative();
    const literals = executeLiterals(bindings);
    if (!literals) return undefined;
    reads.push({ sql, literals, first: method === 'first' });
  }
  const connection = await client.acquireConnection();
  try {
    const results = await client.togetherIn(connection, config, reads);
    return results?.map((result, i) => (reads[i].first ? result.rows[0] : result.rows));
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Whether the knex instance's client is one of extendClient(): transactions opened with a config carry its SQL. */
export const sendsBeginWith = (knex: Knex): boolean => (knex.client as Record<symbol, unknown>)[SENDS_BEGIN_WITH] === true;

/**
 * Whether a plain read runs best alone in a transaction of its own (runAlone()) rather than in one shared with
 * the request's other reads: on PGlite, whose one session a shared transaction would hold from one read to
 * the next (src/db/scope.ts). On PostgreSQL the shared transaction saves round trips on a pool of connections.
 */
export const readsAlone = (knex: Knex): boolean => isPglite(knex) && sendsBeginWith(knex);

/**
 * PostgreSQL: a prepared() read runs alone too (aloneOnPostgres): its BEGIN, settings and COMMIT travel with it
 * in one round trip. Other reads of a request keep sharing one transaction there.
 */
export const preparedReadsAlone = (knex: Knex): boolean => sendsBeginWith(knex) && !isPglite(knex);

/** Whether the instance runs on the embedded database (knex-pglite's client holds its PGlite instance). */
export const isPglite = (knex: Knex): boolean => 'pglite' in (knex.client as object);

/** A raw driver connection taken from the pool for `body`, and given back after (pg's client: query(sql, values)). */
export async function withRawConnection<R>(knex: Knex, body: (connection: { query(sql: string, values?: unknown[]): Promise<unknown> }) => Promise<R>): Promise<R> {
  const client = knex.client as InstanceType<ClientClass>;
  const connection = (await client.acquireConnection()) as { query(sql: string, values?: unknown[]): Promise<unknown> };
  try {
    return await body(connection);
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * One statement without bindings on a pooled connection, through the client's own query path (client.query(conn,
 * sql): its 'query' event, which the benchmark's round-trip count hears, and its errors) but without a query
 * builder, a runner or their promises: the health check's `select 1`, where those were a tenth of the check's
 * work (bench/README.md, "2026-12-04").
 */
export async function sendOnPooledConnection(knex: Knex, sql: string): Promise<void> {
  const client = knex.client as InstanceType<ClientClass> & { query(connection: unknown, sql: string): Promise<unknown> };
  const connection = await client.acquireConnection();
  try {
    await client.query(connection, sql);
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Whether anything holds or waits for a pooled connection (false when the client has no pool). */
export function poolBusy(knex: Knex): boolean {
  const pool = (knex.client as { pool?: { numPendingAcquires(): number; numUsed(): number } }).pool;
  return !!pool && (pool.numPendingAcquires() > 0 || pool.numUsed() > 0);
}
