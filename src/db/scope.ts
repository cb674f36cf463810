// The one place that scopes queries to the tenant (and, where a right is limited, to locations). Feature
// repositories receive a TenantScope and never write `mandant` by hand, so they cannot forget it.
//
// The tenant is enforced twice: by the `where mandant = …` every query built here carries, and by the
// database's row-level security (src/db/rls.ts), which TenantScope switches on by running every one of its
// queries in a transaction that first sets the app role and the tenant (one statement, sent with BEGIN):
// - inside scope.transaction() the settings are made once, at its start;
// - a query awaited outside runs in a short transaction of its own; reads of one request that follow each
//   other share one (TenantReads; on PGlite each goes alone, BEGIN to COMMIT in one call: readsAlone(); on
//   PostgreSQL a prepared one does when no read transaction is open), writes get their own, so a failed write
//   never takes reads with it;
// - a TenantScope query inside another scope's transaction (same tenant) runs in that transaction, so two
//   scopes never wait for each other's connection (PGlite is one session that an open transaction holds: that
//   would be a deadlock).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { isPlainRead, isTransaction, preparedReadsAlone, readsAlone, readTogether, routeQuery, sendsBeginWith } from './knex-internals.js';
import { applyTenantSettings, assertTenantId, TENANT_BEGIN } from './rls.js';
import { COUNTED_TABLES, recordReads, rememberWhileStand } from './stand-cache.js';
import { isDatabaseUnavailable } from './unavailable.js';

export type StandortScope = 'all' | readonly string[];

interface OpenTransaction {
  trx: Knex.Transaction;
  mandant: string;
}

const openTransaction = new AsyncLocalStorage<OpenTransaction>();

/** Whether the caller runs inside TenantScope.transaction() (src/db/knex.ts refuses base-connection queries there). */
export function insideTenantTransaction(): boolean {
  return openTransaction.getStore() !== undefined;
}

const tenantConfig = (mandant: string) => ({ [TENANT_BEGIN]: mandant }) as Knex.TransactionConfig;

/** Runs `body` in a new transaction as the app role, in this tenant. */
// The clients of src/db/knex.ts send the settings with BEGIN (sendsBeginWith); others get a statement of their own.
function beginTenant<R>(knex: Knex, mandant: string, body: (trx: Knex.Transaction) => Promise<R>): Promise<R> {
  const withBegin = sendsBeginWith(knex);
  return knex.transaction(async (trx) => {
    if (!withBegin) await applyTenantSettings(trx, mandant);
    return body(trx);
  }, tenantConfig(mandant));
}

/** Opens a transaction as the app role, in this tenant, that the caller commits. */
async function openTenant(knex: Knex, mandant: string): Promise<Knex.Transaction> {
  const trx = await knex.transaction(tenantConfig(mandant));
  if (!sendsBeginWith(knex)) {
    await applyTenantSettings(trx, mandant).catch(async (err) => {
      await trx.rollback().catch(() => {});
      throw err;
    });
  }
  return trx;
}

/**
 * The tenant-scoped reads of one request (or of one scope) that follow one another share one transaction:
 * the first opens it, and it is committed as soon as no read is running and the code that awaited the last
 * one has moved on to something else (setImmediate: after the promise callbacks of the moment). So a list
 * page's count and rows, or a detail page's record, history and related rows, cost one BEGIN (with the
 * settings) and one COMMIT, and no connection is held while a request waits for anything but its reads.
 */
export class TenantReads {
  private current: Promise<Knex.Transaction> | null = null;
  /** The first error of each read transaction. */
  private readonly failures = new WeakMap<Promise<Knex.Transaction>, unknown>();
  private running = 0;
  private closing: NodeJS.Immediate | null = null;
  /**
   * Which reads run alone, each in a transaction of its own sent in one call: on the embedded database all
   * (readsAlone(): a shared transaction would hold its one session while this thread serves other requests);
   * on PostgreSQL the prepared ones (preparedReadsAlone(): one round trip instead of three).
   */
  readonly alone: 'all' | 'prepared' | 'none';

  /** Whether a read transaction of the request is open (or opening, or about to be committed). */
  get open(): boolean {
    return this.current !== null;
  }

  constructor(
    private readonly knex: Knex,
    readonly mandant: string,
  ) {
    assertTenantId(mandant);
    this.alone = readsAlone(knex) ? 'all' : preparedReadsAlone(knex) ? 'prepared' : 'none';
  }

  async run<T>(execute: (trx: Knex.Transaction) => Promise<T>, retried = false): Promise<T> {
    if (this.closing) {
      clearImmediate(this.closing);
      this.closing = null;
    }
    const opening = (this.current ??= openTenant(this.knex, this.mandant));
    this.running += 1;
    try {
      return await execute(await opening);
    } catch (err) {
      // A failed statement aborts the transaction: the next read starts a new one. A read that ran in it at
      // the same time then finds it ended ("Transaction query already complete"): it failed for the first
      // one's reason (a connection that died, say), and reports that.
      const first = this.failures.get(opening);
      const ended = err instanceof Error && /already complete/.test(err.message);
      if (first && ended) throw first;
      if (!first) this.failures.set(opening, err);
      if (this.current === opening) {
        this.current = null;
        void opening.then((trx) => trx.rollback()).catch(() => {});
      }
      // Ended with no read failing in it: its connection died while it waited. Reads can simply run again;
      // if that one ends the same way, the database is going away (503, not a bug).
      if (ended && !retried) return this.run(execute, true);
      if (ended) throw new Error('Connection terminated: the read transaction ended under its reads', { cause: err });
      throw err;
    } finally {
      this.running -= 1;
      if (this.running === 0 && this.current && !this.closing) this.closing = setImmediate(() => this.close());
    }
  }

  private close(): void {
    this.closing = null;
    const opening = this.current;
    this.current = null;
    // Only reads ran in it: a failed COMMIT loses nothing.
    void opening?.then((trx) => trx.commit()).catch(() => {});
  }
}

/**
 * The reads of a together() scope that are awaited in the same turn (the queries of a Promise.all, and of the
 * functions it calls, up to their first await), collected until the promise callbacks of the moment have run
 * (setImmediate) and then sent as one round trip: one transaction with the tenant's settings, every statement
 * prepared (readTogether()). A read that cannot go so (one alone, a value that is not a plain scalar) runs as
 * it would have anyway; so do all of them when the batch fails for another reason than an unreachable
 * database, each then reporting its own answer or error.
 */
class ReadBatch {
  private pending: { qb: Knex.QueryBuilder; alone: () => Promise<unknown>; resolve(v: unknown): void; reject(e: unknown): void }[] = [];
  private flushing: NodeJS.Immediate | null = null;

  constructor(
    private readonly knex: Knex,
    private readonly mandant: string,
    private readonly reads: TenantReads,
  ) {}

  add(qb: Knex.QueryBuilder, alone: () => Promise<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.pending.push({ qb, alone, resolve, reject });
      this.flushing ??= setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.flushing = null;
    const oneByOne = () => batch.forEach((r) => r.alone().then(r.resolve, r.reject));
    // The request's read transaction open (PostgreSQL): they join it, as they would have anyway. A batch of
    // one still goes as one round trip with its BEGIN, settings and COMMIT, prepared.
    if (this.reads.open) return oneByOne();
    let answers: unknown[] | undefined;
    try {
      answers = await readTogether(this.knex, tenantConfig(this.mandant) as Record<string, unknown>, batch.map((r) => r.qb));
    } catch (err) {
      if (isDatabaseUnavailable(err)) return batch.forEach((r) => r.reject(err));
    }
    if (!answers) return oneByOne();
    batch.forEach((r, i) => r.resolve(answers[i]));
  }
}

/** The key of a location scope in memo keys: a value worked out for some locations is never handed to others. */
const standorteKey = (standorte: StandortScope) => (standorte === 'all' ? '*' : [...standorte].sort().join(','));

/**
 * A tenant's change counters as the session's read found them: the master-data stand (the sum of the master
 * tables' counters, src/db/stand-cache.ts) and every table's own counter (migrations/20261126010000_tabellenstaende.ts,
 * read by tabellenstaende_von()). Counters only grow, each at the COMMIT of the change it counts.
 */
export interface Staende {
  stammdaten: string;
  tabellen: Readonly<Record<string, string>>;
}

/**
 * What the scopes of one request in one tenant share (src/http/tenant.ts builds one per request): the transaction
 * of their reads, and the values memo() worked out for the request. Nothing in it outlives the request.
 */
export class TenantRequest {
  /** null inside scope.transaction(): its queries run in the transaction. */
  readonly reads: TenantReads | null;
  private readonly memos = new Map<string, Promise<unknown>>();
  /**
   * The tenant's change counters as the session's read found them, until this request writes anything: from
   * then on its reads may see what it wrote, which the counters do not count yet.
   */
  private staende: Staende | null;

  constructor(
    knex: Knex | Knex.Transaction,
    readonly mandant: string,
    staende: Staende | null = null,
  ) {
    assertTenantId(mandant);
    this.reads = isTransaction(knex) ? null : new TenantReads(knex, mandant);
    this.staende = this.reads ? staende : null;
  }

  get stammdatenStand(): string | null {
    return this.staende?.stammdaten ?? null;
  }

  /**
   * The sum of these tables' counters (0 for a table never written), as a list page's statement reads it
   * (src/records/list/engine.ts, pageStatement); null when not known.
   */
  tabellenStand(tables: readonly string[]): string | null {
    if (!this.staende) return null;
    let sum = 0n;
    for (const table of tables) sum += BigInt(this.staende.tabellen[table] ?? 0);
    return String(sum);
  }

  /** Called before every write of the request's scopes. */
  writing(): void {
    this.staende = null;
  }

  /** The value of `key` for this request: `compute` runs for the first caller; a failure is not kept. */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const known = this.memos.get(key) as Promise<T> | undefined;
    if (known) return known;
    const value = compute();
    this.memos.set(key, value);
    value.catch(() => {
      if (this.memos.get(key) === value) this.memos.delete(key);
    });
    return value;
  }
}

export class TenantScope {
  private readonly shared: TenantRequest;
  /** together(): this scope's plain reads of one turn go to the database in one round trip. */
  private batch: ReadBatch | null = null;

  constructor(
    readonly knex: Knex | Knex.Transaction,
    readonly mandant: string,
    /** The locations whose rows this scope may see and change. */
    readonly standorte: StandortScope = 'all',
    /** Shared by the scopes of one request (src/http/tenant.ts); a scope of its own otherwise. */
    shared?: TenantRequest,
  ) {
    assertTenantId(mandant);
    if (shared && shared.mandant !== mandant) throw new Error(`A ${mandant} scope with the request state of ${shared.mandant}`);
    this.shared = shared ?? new TenantRequest(knex, mandant);
  }

  private get reads(): TenantReads | null {
    return this.shared.reads;
  }

  /**
   * A value worked out once per request, tenant and location scope (e.g. the choices of a form's selects, which
   * several fields and the page's own query provide): `compute` runs for the first caller, the others get its
   * promise. Scopes of one request share it; a scope inside transaction() has its own, since the transaction
   * may change what was read. Not a cache across requests.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.shared.memo(`${standorteKey(this.standorte)}|${key}`, compute);
  }

  /**
   * A value read from the master tables (partners, locations, products) only, kept by this process across
   * requests and reused while the tenant's master-data stand is where it was (src/db/stand-cache.ts); per
   * request (memo) when the stand is not known (no session, or the request has written). The value is frozen:
   * callers copy what they change. The key holds tenant and location scope, so no value crosses either.
   */
  memoWhileStammdaten<T extends object>(key: string, compute: () => Promise<T>): Promise<T> {
    const stand = this.shared.stammdatenStand;
    if (stand === null) return this.memo(key, compute);
    return this.memo(key, () => rememberWhileStand([this.mandant, standorteKey(this.standorte), key], stand, compute));
  }

  /**
   * A value read from one table of this tenant only (a record by its number), kept by this process across
   * requests and reused while that table's change counter is where the session's read found it: a detail page
   * asked for again then costs the session's round trip only. Read afresh when the counter is not known (no
   * session, or the request has written) or the table has none (COUNTED_TABLES). Frozen, as memoWhileStammdaten's;
   * the key holds tenant and location scope.
   */
  rememberWhileTable<T extends object>(table: string, key: string, compute: () => Promise<T>): Promise<T> {
    const stand = COUNTED_TABLES.has(table) ? this.shared.tabellenStand([table]) : null;
    if (stand === null) return compute();
    return recordReads.remember([this.mandant, standorteKey(this.standorte), table, key], stand, compute);
  }

  /**
   * The sum of these tables' change counters as the session's read found them (Staende), with the master-data
   * stand; null when not known (no session, or this request has written).
   */
  standOf(tables: readonly string[]): { tabellen: string; stammdaten: string } | null {
    const tabellen = this.shared.tabellenStand(tables);
    const stammdaten = this.shared.stammdatenStand;
    return tabellen === null || stammdaten === null ? null : { tabellen, stammdaten };
  }

  /** A query on a tenant-owned table, already limited to this tenant. `alias` names the table in joins. */
  table<T extends object = Record<string, unknown>>(name: string, alias = name): Knex.QueryBuilder<T> {
    return this.bound(this.knex<T>({ [alias]: name } as unknown as string).where(`${alias}.mandant`, this.mandant) as Knex.QueryBuilder<T>);
  }

  /**
   * Left-joins a tenant-owned table to a query of this scope, limited to this tenant like table(): `on` relates
   * its rows (by `alias`) to the query's, and the tenant condition is added here, never written by a feature.
   */
  leftJoin<Q extends Knex.QueryBuilder>(qb: Q, name: string, alias: string, on: (join: Knex.JoinClause) => void): Q {
    const mandant = this.mandant;
    return qb.leftJoin({ [alias]: name } as unknown as string, (join: Knex.JoinClause) => {
      on(join);
      join.andOnVal(`${alias}.mandant`, '=', mandant);
    }) as Q;
  }

  /** Inserts rows into a tenant-owned table with this tenant filled in. */
  insert<T extends object>(name: string, rows: T | T[]) {
    const list = (Array.isArray(rows) ? rows : [rows]).map((r) => ({ ...r, mandant: this.mandant }));
    return this.bound(this.knex(name).insert(list));
  }

  /** Limits a query to the permitted locations; `column` holds the location number. No locations: no rows. */
  atStandorte<Q extends Knex.QueryBuilder>(query: Q, column: string): Q {
    if (this.standorte === 'all') return query;
    if (this.standorte.length === 0) return query.whereRaw('false') as Q;
    return query.whereIn(column, this.standorte as string[]) as Q;
  }

  /** May this scope touch a row of that location? */
  allowsStandort(standortNr: string | null | undefined): boolean {
    if (this.standorte === 'all') return true;
    return standortNr != null && this.standorte.includes(standortNr);
  }

  /**
   * Runs `fn` with a scope whose plain reads, awaited in the same turn, go to the database together: one
   * transaction, one round trip (ReadBatch). For a page of several independent reads, each on the database
   * for a moment (the Tankstelle's): each read is prepared on its connection, so only queries whose text takes
   * a bounded number of shapes. Inside a transaction, reads run there as always.
   */
  together<R>(fn: (scope: TenantScope) => Promise<R>): Promise<R> {
    const reads = this.reads;
    if (isTransaction(this.knex) || !reads) return fn(this);
    const scope = new TenantScope(this.knex, this.mandant, this.standorte, this.shared);
    scope.batch = new ReadBatch(this.knex, this.mandant, reads);
    return fn(scope);
  }

  withStandorte(standorte: StandortScope): TenantScope {
    const scope = new TenantScope(this.knex, this.mandant, standorte, this.shared);
    scope.batch = this.batch;
    return scope;
  }

  /** Runs `fn` in one transaction with the same scope, as the app role in this tenant (nested: a savepoint). */
  transaction<R>(fn: (scope: TenantScope) => Promise<R>): Promise<R> {
    this.shared.writing();
    const body = (trx: Knex.Transaction) => openTransaction.run({ trx, mandant: this.mandant }, () => fn(new TenantScope(trx, this.mandant, this.standorte)));
    if (isTransaction(this.knex)) return this.knex.transaction(body);
    const open = this.openTransaction();
    if (open) return open.transaction(body);
    return beginTenant(this.knex, this.mandant, body);
  }

  /** The tenant transaction this code runs in, if any (it must be this tenant's). */
  private openTransaction(): Knex.Transaction | undefined {
    const open = openTransaction.getStore();
    if (open && open.mandant !== this.mandant) throw new Error(`A ${this.mandant} query inside a ${open.mandant} transaction`);
    return open?.trx;
  }

  /**
   * A query that does not start at one tenant table (e.g. an aggregate over a subquery of `table()`), made to
   * run as this tenant like the others. Its tables must still be filtered by `table()` inside.
   */
  scoped<Q extends Knex.QueryBuilder>(qb: Q): Q {
    return this.bound(qb);
  }

  /**
   * A query built on the base connection, made to run as described at the top when it is awaited. Queries
   * built inside scope.transaction() (this.knex is the transaction) run there already.
   */
  private bound<Q extends Knex.QueryBuilder>(qb: Q): Q {
    if (isTransaction(this.knex)) return qb;
    // A select without a lock may share the request's read transaction; anything else gets its own.
    return routeQuery(qb, (runIn, plainRead, runAlone, markedPrepared, builder) => {
      const open = this.openTransaction();
      if (open) return runIn(open);
      const reads = this.reads;
      if (plainRead && reads) {
        // PostgreSQL: a prepared read alone, unless the request's read transaction is open anyway (then it costs
        // nothing more there, and leaving it would cost the next read a BEGIN).
        const read = () => {
          const alone = reads.alone === 'all' || (reads.alone === 'prepared' && markedPrepared && !reads.open);
          return alone ? runAlone(tenantConfig(this.mandant) as Record<string, unknown>) : reads.run(runIn);
        };
        return this.batch ? this.batch.add(builder, read) : read();
      }
      this.shared.writing();
      return beginTenant(this.knex as Knex, this.mandant, runIn);
    }, 'Tenant queries stream only inside scope.transaction()');
  }
}
