// What src/db/knex-internals.ts relies on in knex 3.3.0 and knex-pglite 0.14.0 (pinned in package.json), each
// named and checked on the database the suite runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL). When a
// knex or knex-pglite upgrade changes one of them, this file fails before TenantScope quietly misroutes a query.
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extendClient, isPglite, isPlainRead, isTransaction, pgClientClass, pgliteClientClass, poolBusy, prepared, routeQuery, sendOnPooledConnection, sendsBeginWith, withRawConnection,
  type ClientHooks, type RunIn,
} from './knex-internals.js';

const PG = process.env.TEST_DATABASE_URL;
const PROBE = "select set_config('app.probe', 'begun', true)";

/** Which hooks fired, and the switch that makes the client refuse connections. */
const state = { refuse: false, beginConfigs: [] as (Record<string, unknown> | undefined)[] };
const hooks: ClientHooks = {
  beginWith(config) {
    state.beginConfigs.push(config);
    return config?.probe ? `BEGIN; ${PROBE}` : undefined;
  },
  refuseAcquire: () => (state.refuse ? new Error('refused by the hook') : undefined),
};

function extendedKnex(): Knex {
  if (PG) return knexFactory({ client: extendClient(pgClientClass(), 'postgres', hooks) as unknown as Knex.Config['client'], connection: PG, pool: { min: 0, max: 2 } });
  return knexFactory({ client: extendClient(pgliteClientClass(), 'pglite', hooks), dialect: 'postgres', connection: { pglite: new PGlite() } } as unknown as Knex.Config);
}

let knex: Knex;
const statements: string[] = [];
beforeAll(() => {
  knex = extendedKnex();
  knex.on('query', (q: { sql: string }) => statements.push(q.sql));
});
afterAll(() => knex?.destroy());

/** A builder that reads the probe setting of the transaction it runs in ('' outside one that set it). */
const probe = () => knex.select(knex.raw("coalesce(current_setting('app.probe', true), '') as probe"));

describe('query builders: _method and _single.lock', () => {
  const internals = (qb: Knex.QueryBuilder) => qb as unknown as { _method: string; _single: { lock?: unknown } };

  it('names the method of a builder in _method', () => {
    expect(internals(knex('t'))._method).toBe('select');
    expect(internals(knex('t').where({ a: 1 }).select('a'))._method).toBe('select');
    expect(internals(knex('t').first('a'))._method).toBe('first');
    expect(internals(knex('t').pluck('a'))._method).toBe('pluck');
    expect(internals(knex('t').insert({ a: 1 }))._method).toBe('insert');
    expect(internals(knex('t').update({ a: 1 }))._method).toBe('update');
    expect(internals(knex('t').delete())._method).toBe('del');
  });

  it('sets _single.lock with each lock, and only then', () => {
    expect(internals(knex('t').select('a'))._single.lock).toBeUndefined();
    for (const lock of ['forUpdate', 'forShare', 'forNoKeyUpdate', 'forKeyShare'] as const) {
      expect(internals(knex('t').select('a')[lock]())._single.lock, lock).toBeTruthy();
    }
  });

  it('isPlainRead: select, first and pluck without a lock; nothing else', () => {
    expect(isPlainRead(knex('t'))).toBe(true);
    expect(isPlainRead(knex('t').first('a'))).toBe(true);
    expect(isPlainRead(knex('t').pluck('a'))).toBe(true);
    expect(isPlainRead(knex('t').count({ n: '*' }))).toBe(true);
    expect(isPlainRead(knex('t').select('a').forUpdate())).toBe(false);
    expect(isPlainRead(knex('t').first('a').forShare())).toBe(false);
    expect(isPlainRead(knex('t').insert({ a: 1 }))).toBe(false);
    expect(isPlainRead(knex('t').update({ a: 1 }))).toBe(false);
    expect(isPlainRead(knex('t').delete())).toBe(false);
  });

  it('hands what options() sets to the client with the compiled query (prepared() marks statements so)', () => {
    const compiled = knex('t').select('a').options({ mark: true }).toSQL() as unknown as { options: Record<string, unknown> };
    expect(compiled.options).toEqual({ mark: true });
    expect((knex('t').select('a').toSQL() as unknown as { options: Record<string, unknown> }).options).toEqual({});
  });

  it('marks transactions with isTransaction', async () => {
    expect(isTransaction(knex)).toBe(false);
    await knex.transaction(async (trx) => expect(isTransaction(trx)).toBe(true));
  });
});

describe('query builders: then(), transacting(), clone(), stream()', () => {
  /** Routes every query into a transaction that set the probe, and records what it was told. */
  function routed(qb: Knex.QueryBuilder, seen: boolean[] = []) {
    return routeQuery(qb, (runIn: RunIn, plainRead) => {
      seen.push(plainRead);
      return knex.transaction((trx) => runIn(trx), { probe: true } as Knex.TransactionConfig);
    }, 'no streams here');
  }

  it("runs the builder's query through its client, which transacting() makes the transaction's", async () => {
    expect(await probe().first()).toEqual({ probe: '' });
    const seen: boolean[] = [];
    expect(await routed(probe().first(), seen)).toEqual({ probe: 'begun' });
    expect(seen).toEqual([true]);
  });

  it('judges plain reads when awaited, so a lock added after routing counts', async () => {
    const seen: boolean[] = [];
    const qb = routed(probe(), seen);
    qb.forUpdate();
    await qb;
    expect(seen).toEqual([false]);
  });

  it('clone() copies the query but not the routing (a new builder of the same class); routeQuery routes clones too', async () => {
    const original = knex('t').where({ a: 1 }).select('a').forUpdate();
    const copy = original.clone();
    expect(copy).not.toBe(original);
    expect(copy.toSQL().sql).toBe(original.toSQL().sql);
    expect(isPlainRead(copy)).toBe(false);
    // Own properties set on a builder do not survive knex's clone(): hence routeQuery wraps clone().
    const marked = Object.assign(knex('t'), { then: 'own' });
    expect(Object.prototype.hasOwnProperty.call(marked.clone(), 'then')).toBe(false);

    const seen: boolean[] = [];
    const route = routed(probe(), seen);
    expect(await route.clone().first()).toEqual({ probe: 'begun' });
    expect(seen).toEqual([true]);
  });

  it('stream() and pipe() of a routed builder throw', () => {
    const qb = routed(probe());
    expect(() => qb.stream()).toThrow('no streams here');
    expect(() => (qb as unknown as { pipe(): void }).pipe()).toThrow('no streams here');
  });
});

describe('clients: transaction(container, config, outerTx), begin(), acquireConnection(), _query()', () => {
  it('opens a transaction with the SQL beginWith() gives for its config, as one statement', async () => {
    statements.length = 0;
    state.beginConfigs.length = 0;
    const inside = await knex.transaction(async (trx) => (await trx.select(trx.raw("current_setting('app.probe', true) as probe")).first()) as { probe: string }, { probe: true } as Knex.TransactionConfig);
    expect(inside.probe).toBe('begun');
    expect(statements[0]).toBe(`BEGIN; ${PROBE}`);
    // knex passes the config on with keys of its own (userParams, doNotRejectOnRollback).
    expect(state.beginConfigs).toEqual([expect.objectContaining({ probe: true })]);
  });

  it('does not ask for a nested transaction (a savepoint: outerTx is set)', async () => {
    state.beginConfigs.length = 0;
    await knex.transaction(async (trx) => {
      await trx.transaction(async (inner) => inner.raw('select 1'), { probe: true } as Knex.TransactionConfig);
    });
    // Asked once, for the outer transaction (without the probe): the savepoint did not ask.
    expect(state.beginConfigs).toEqual([expect.not.objectContaining({ probe: true })]);
  });

  it('asks refuseAcquire() before every connection it takes', async () => {
    state.refuse = true;
    try {
      await expect(knex.raw('select 1')).rejects.toThrow('refused by the hook');
    } finally {
      state.refuse = false;
    }
    expect((await knex.raw('select 1 as one')).rows[0].one).toBe(1);
  });

  it.skipIf(!!PG)('PGlite: sends BEGIN and its settings with the first statement, in one call when that is prepared already', async () => {
    const pglite = (knex.client as unknown as { pglite: PGlite }).pglite;
    const calls: string[] = [];
    const { exec, query } = pglite;
    pglite.exec = ((sql: string, o?: object) => (calls.push(`exec ${sql}`), exec.call(pglite, sql, o))) as typeof exec;
    pglite.query = ((sql: string, p?: unknown[], o?: object) => (calls.push(`query ${sql}`), query.call(pglite, sql, p, o))) as typeof query;
    const read = () => knex.transaction((trx) => prepared(trx.select(trx.raw("current_setting('app.probe', true) as probe, ?::text as v", ["it's"]))).first(), { probe: true } as Knex.TransactionConfig);
    try {
      // The first time: PREPARE on its own, then BEGIN, the settings and EXECUTE in one call, and COMMIT.
      expect(await read()).toEqual({ probe: 'begun', v: "it's" });
      expect(calls.map((c) => c.split(' ')[1])).toEqual(['PREPARE', 'BEGIN;', 'COMMIT;']);
      calls.length = 0;
      // Prepared: BEGIN, the settings and EXECUTE in one call; the statement sees the settings.
      expect(await read()).toEqual({ probe: 'begun', v: "it's" });
      expect(calls).toEqual([expect.stringMatching(new RegExp(`^exec BEGIN; ${PROBE.replace(/[()']/g, '.')}; EXECUTE portal_[0-9a-f]{40}\\('it''s', '1'\\)$`)), 'query COMMIT;']);
      calls.length = 0;
      // A transaction that sends nothing makes no call, and leaves no BEGIN behind for the next statement.
      await knex.transaction(async () => {}, { probe: true } as Knex.TransactionConfig);
      await expect(knex.transaction(async () => {
        throw new Error('given up');
      }, { probe: true } as Knex.TransactionConfig)).rejects.toThrow('given up');
      expect(calls).toEqual([]);
      expect(await probe().first()).toEqual({ probe: '' });
      expect(calls).toEqual([expect.stringMatching(/^query select coalesce/)]);
    } finally {
      pglite.exec = exec;
      pglite.query = query;
    }
  });

  it('runs a read alone (runAlone): its BEGIN, settings and COMMIT in the same round trip when prepared, none left open when it fails', async () => {
    const statements: string[] = [];
    const listen = (q: { sql: string }) => statements.push(q.sql);
    const alone = <Q extends Knex.QueryBuilder>(qb: Q) => routeQuery(qb, (_runIn, _plainRead, runAlone) => runAlone({ probe: true }), 'no streams');
    knex.on('query', listen);
    try {
      for (let i = 0; i < 2; i++) {
        expect(await alone(prepared(probe().select(knex.raw('?::int as n', [i])))).first()).toEqual({ probe: 'begun', n: i });
      }
      // Unprepared: the same settings, and the same answer.
      expect(await alone(probe()).first()).toEqual({ probe: 'begun' });
      // knex reports each read once: one statement sent (the prepared ones), whatever travels with it.
      expect(statements).toHaveLength(3);
      await expect(alone(prepared(knex.select(knex.raw('1 / ?::int as n', [0])))).first()).rejects.toThrow(/division by zero/);
      // Nothing was left open: a plain query after it runs outside any transaction, without the setting.
      expect(await probe().first()).toEqual({ probe: '' });
      expect((await knex.raw('select 1 as one')).rows[0].one).toBe(1);
    } finally {
      knex.off('query', listen);
    }
  });

  it('marks its instances (sendsBeginWith), unlike a plain client', async () => {
    expect(sendsBeginWith(knex)).toBe(true);
    const plain = knexFactory({ client: 'pg', connection: 'postgres://nobody@127.0.0.1:1/none' });
    expect(sendsBeginWith(plain)).toBe(false);
    await plain.destroy();
  });

  it("knex's client settles its pool in getPoolSettings() and ends it in destroy(); knex-pglite's takes and gives up a connection in _acquireOnlyConnection() and destroyRawConnection()", () => {
    const proto = pgliteClientClass().prototype as Record<string, unknown>;
    for (const method of ['getPoolSettings', 'destroy', '_acquireOnlyConnection', 'destroyRawConnection']) expect(typeof proto[method], method).toBe('function');
    // The size asked for is the size the pool gets (pgliteThreadClientClass; its pool is tested in pglite-thread.test.ts).
    const settings = (pgClientClass().prototype as unknown as { getPoolSettings(this: unknown, c: object): { max: number } }).getPoolSettings.call(
      { config: {}, poolDefaults: () => ({ min: 2, max: 10 }), logger: { warn() {} } },
      { min: 0, max: 7 },
    );
    expect(settings.max).toBe(7);
  });

  it("knex-pglite's client is a subclass of knex's pg client, and holds its PGlite in `pglite`", () => {
    expect(pgliteClientClass().prototype).toBeInstanceOf(pgClientClass());
    expect(isPglite(knex)).toBe(!PG);
    const plain = knexFactory({ client: 'pg', connection: 'postgres://nobody@127.0.0.1:1/none' });
    expect(isPglite(plain)).toBe(false);
    return plain.destroy();
  });

  it('lends a raw driver connection (query(sql, values)) and takes it back', async () => {
    const result = (await withRawConnection(knex, (c) => c.query('select $1::int as n', [7]))) as { rows: { n: number }[] };
    expect(result.rows[0].n).toBe(7);
    expect(poolBusy(knex)).toBe(false);
  });

  it("sends one statement on a pooled connection through the client's query(conn, sql), which emits 'query', and gives the connection back", async () => {
    const heard: string[] = [];
    const listen = (q: { sql: string }) => heard.push(q.sql);
    knex.on('query', listen);
    try {
      await sendOnPooledConnection(knex, 'select 1');
      await expect(sendOnPooledConnection(knex, 'select nonsense from nowhere')).rejects.toThrow(/nowhere/);
    } finally {
      knex.off('query', listen);
    }
    expect(heard).toEqual(['select 1', 'select nonsense from nowhere']);
    expect(poolBusy(knex)).toBe(false);
  });

  it('tells whether a pooled connection is in use (knex.client.pool: numUsed, numPendingAcquires)', async () => {
    expect(poolBusy(knex)).toBe(false);
    await knex.transaction(async () => expect(poolBusy(knex)).toBe(true));
    expect(poolBusy(knex)).toBe(false);
  });
});
