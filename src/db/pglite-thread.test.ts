// The embedded database in its own thread (src/db/pglite-thread.ts): answers as PGlite gives them, errors with
// the database's fields, statements in the order sent, its files dumped and loaded, nothing after close().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase } from './knex.js';
import { PGLITE_CONNECTIONS, poolBusy } from './knex-internals.js';
import { PREPARE_FIRST } from './pglite-thread-protocol.js';
import { isDatabaseUnavailable } from './unavailable.js';
import { PGliteThread } from './pglite-thread.js';

describe('PGliteThread: the embedded database in a thread of its own', () => {
  let db: PGliteThread;
  beforeAll(async () => {
    db = new PGliteThread({});
    await db.waitReady;
    await db.exec(`create table t (id int primary key, name text not null, day date, at timestamptz, amount numeric, data bytea)`);
  });
  afterAll(() => db.close());

  it('answers with the rows and their types: a DATE as its ISO text, an instant as a Date, bytes as bytes', async () => {
    const at = new Date('2026-11-27T10:15:00.000Z');
    const inserted = await db.query('insert into t values ($1, $2, $3, $4, $5, $6)', [1, 'Rapsöl', '2026-03-31', at, '12.345', new Uint8Array([1, 2, 255])]);
    expect(inserted.affectedRows).toBe(1);
    const { rows, fields } = await db.query<{ id: number; name: string; day: string; at: Date; amount: unknown; data: Uint8Array }>('select * from t where id = $1', [1]);
    expect(fields.map((f) => f.name)).toEqual(['id', 'name', 'day', 'at', 'amount', 'data']);
    expect(rows[0]).toMatchObject({ id: 1, name: 'Rapsöl', day: '2026-03-31' });
    expect(rows[0].at).toBeInstanceOf(Date);
    expect(rows[0].at.toISOString()).toBe(at.toISOString());
    expect(String(rows[0].amount)).toBe('12.345');
    expect([...rows[0].data]).toEqual([1, 2, 255]);
  });

  it("reports the database's error with its fields (code, constraint, detail), and stays usable", async () => {
    const err = (await db.query('insert into t (id, name) values (1, $1)', ['doppelt']).catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/duplicate key value violates unique constraint "t_pkey"/);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });
    expect(String(err.detail)).toContain('(id)=(1)');
    const syntax = (await db.exec('selec 1').catch((e: unknown) => e)) as Record<string, unknown>;
    expect(syntax.code).toBe('42601');
    expect((await db.query<{ n: number }>('select count(*)::int as n from t')).rows[0].n).toBe(1);
  });

  it('runs the statements in the order they were sent, as one connection does (a transaction holds)', async () => {
    const sent = [
      db.exec('begin'),
      db.query('insert into t (id, name) values (2, $1)', ['zwei']),
      db.query<{ n: number }>('select count(*)::int as n from t'),
      db.exec('rollback'),
      db.query<{ n: number }>('select count(*)::int as n from t'),
    ];
    const answers = await Promise.all(sent);
    expect((answers[2] as { rows: { n: number }[] }).rows[0].n).toBe(2);
    expect((answers[4] as { rows: { n: number }[] }).rows[0].n).toBe(1);
  });

  it('refuses a value that cannot cross to the thread, without sending anything', async () => {
    await expect(db.query('select $1::text', [() => 1])).rejects.toThrow();
    expect((await db.query<{ n: number }>('select 1 as n')).rows[0].n).toBe(1);
  });

  it('dumps its files, which a new database starts from', async () => {
    const tarball = await db.dumpDataDir('gzip');
    expect(tarball.size).toBeGreaterThan(1000);
    const copy = new PGliteThread({ loadDataDir: tarball });
    try {
      await copy.waitReady;
      expect((await copy.query<{ name: string }>('select name from t')).rows).toEqual([{ name: 'Rapsöl' }]);
    } finally {
      await copy.close();
    }
  });

  it('refuses every call once closed', async () => {
    const other = new PGliteThread({});
    await other.waitReady;
    await other.close();
    expect(other.closed).toBe(true);
    await expect(other.query('select 1')).rejects.toThrow('The embedded database is closed');
    await other.close();
  });

  it('refuses the calls waiting and every later one when the thread ends on its own (a crash)', async () => {
    const other = new PGliteThread({});
    await other.waitReady;
    const waiting = other.query('select pg_sleep(0.5)');
    // What a crash of the WebAssembly would do: the thread is gone.
    await (other as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(waiting).rejects.toThrow(/thread ended/);
    const later = await other.query('select 1').catch((err: unknown) => err);
    expect(later).toMatchObject({ message: expect.stringMatching(/thread ended/) });
    // Answered as an unreachable database (503, "try again shortly"), not as a bug.
    expect(isDatabaseUnavailable(later)).toBe(true);
    expect(other.closed).toBe(true);
    await other.close();
  });

  describe('sessions: several connections to the one database', () => {
    const count = async (on: { query: PGliteThread['query'] }) => (await on.query<{ n: number }>('select count(*)::int as n from s')).rows[0].n;
    beforeAll(() => db.exec('create table s (id int primary key)'));

    it("lets a session with an open transaction hold the database: another's calls wait for its end, in order", async () => {
      const a = db.session();
      const b = db.session();
      await a.exec('begin');
      await a.query('insert into s values (1)');
      const order: string[] = [];
      const waiting = count(b).then((n) => (order.push(`b saw ${n}`), n));
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('a commits');
      await a.exec('commit');
      // b ran after the commit and saw the row; it never saw a's uncommitted state from inside a's transaction.
      expect(await waiting).toBe(1);
      expect(order).toEqual(['a commits', 'b saw 1']);
      await b.exec('delete from s');
    });

    it("refuses a call that waited too long for another session's transaction, as a pool that had no connection to give (503)", async () => {
      const limited = new PGliteThread({ waitLimitMs: 200 });
      try {
        await limited.waitReady;
        const a = limited.session();
        const b = limited.session();
        await a.exec('begin');
        const err = await b.query('select 1').catch((e: unknown) => e);
        expect(String((err as Error).message)).toMatch(/^Unable to acquire a connection to the embedded database/);
        expect(isDatabaseUnavailable(err)).toBe(true);
        // The holder goes on; once it ends, the other session is served again.
        await a.exec('commit');
        expect((await b.query<{ n: number }>('select 2 as n')).rows[0].n).toBe(2);
      } finally {
        await limited.close();
      }
    });

    it('rolls back what a session given back left open, and frees the database', async () => {
      const a = db.session();
      const b = db.session();
      await a.exec('begin');
      await a.query('insert into s values (2)');
      expect(a.release()).toBeInstanceOf(Promise);
      await a.release();
      expect(await count(b)).toBe(0);
      // Nothing open: nothing to send.
      expect(b.release()).toBeUndefined();
    });

    it('runs a read alone in one call with its BEGIN and COMMIT; one that fails is rolled back and holds nothing', async () => {
      const a = db.session();
      const b = db.session();
      const read = await a.alone<{ v: string }>("BEGIN; select set_config('app.probe', 'x', true)", "select current_setting('app.probe') as v, $1::int as n", [5]);
      expect(read.rows).toEqual([{ v: 'x', n: 5 }]);
      await expect(a.alone('BEGIN', 'select 1 / $1::int', [0])).rejects.toThrow(/division by zero/);
      expect(a.release()).toBeUndefined();
      await expect(a.alone('BEGIN; select no_such_setting_function()', 'select 1')).rejects.toThrow(/no_such_setting_function/);
      expect(a.release()).toBeUndefined();
      expect(await count(b)).toBe(0);
      // The setting was local to its transaction.
      expect((await b.query<{ v: string | null }>("select current_setting('app.probe', true) as v")).rows[0].v).toBeFalsy();
    });

    it('prepares a statement named by PREPARE_FIRST once, whichever session runs it first', async () => {
      const statement = { name: 'portal_test_prepared', sql: 'select $1::int * 2 as n' };
      const sessions = [db.session(), db.session(), db.session()];
      const answers = await Promise.all(sessions.map((c, i) => c.exec(`EXECUTE portal_test_prepared(${i + 1})`, { [PREPARE_FIRST]: statement })));
      expect(answers.map((r) => r[0].rows[0])).toEqual([{ n: 2 }, { n: 4 }, { n: 6 }]);
      expect((await db.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements where name = 'portal_test_prepared'")).rows[0].n).toBe(1);
      // A statement the database refuses to prepare reports its error every time, and is not taken as prepared.
      const broken = { name: 'portal_test_broken', sql: 'select from nowhere' };
      for (let i = 0; i < 2; i++) await expect(sessions[0].exec('EXECUTE portal_test_broken', { [PREPARE_FIRST]: broken })).rejects.toThrow(/nowhere/);
    });
  });
});

describe("knex on PGliteThread: a pool of the thread's sessions", () => {
  it('lends more than one connection; a transaction holds the database until it ends, and a read elsewhere then sees its rows', async () => {
    const { knex } = createDatabase({ kind: 'pglite', dir: null });
    try {
      await knex.raw('create table k (id int primary key)');
      const pool = (knex.client as { pool: { numUsed(): number; max: number } }).pool;
      expect(pool.max).toBe(PGLITE_CONNECTIONS);
      let seen: number | undefined;
      let usedAtOnce = 0;
      await knex.transaction(async (trx) => {
        await trx('k').insert({ id: 1 });
        // Another flow's read takes a connection of its own and waits in the database's thread for this COMMIT.
        const elsewhere = knex('k').count({ n: '*' }).first().then((r) => (seen = Number(r?.n)));
        await new Promise((resolve) => setTimeout(resolve, 50));
        usedAtOnce = pool.numUsed();
        expect(seen).toBeUndefined();
        await trx('k').insert({ id: 2 });
        void elsewhere;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(usedAtOnce).toBe(2);
      expect(seen).toBe(2);
      // A failed transaction is rolled back and holds nothing: the next read runs.
      await expect(knex.transaction(async (trx) => {
        await trx('k').insert({ id: 3 });
        await trx('k').insert({ id: 3 });
      })).rejects.toMatchObject({ code: '23505' });
      expect(await knex('k').pluck('id')).toEqual([1, 2]);
      expect(poolBusy(knex)).toBe(false);
    } finally {
      await closeDatabase(knex);
    }
    // knex.destroy() (closeDatabase) closed the database and ended its thread.
    expect((knex.client as { pglite: PGliteThread }).pglite.closed).toBe(true);
  });
});

