// execSimple() (src/db/pglite-simple-query.ts) answers as PGlite's exec() answers: two databases, the same
// statements, one read by exec(), the other by execSimple(); every result and every error the same.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_DATE_OID } from './pglite-thread-protocol.js';
import { execSimple } from './pglite-simple-query.js';

/** An error's own plain fields (what the database's thread sends across: src/db/pglite-thread.worker.ts). */
const plain = (err: unknown) =>
  Object.fromEntries(Object.entries(err as object).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)));

describe('execSimple: PGlite exec() with node-postgres reading the answer', () => {
  // As the database's thread opens its PGlite: a DATE kept as its text.
  const open = () => new PGlite({ parsers: { [PG_DATE_OID]: (v: string) => v } });
  let byExec: PGlite;
  let bySimple: PGlite;
  beforeAll(async () => {
    [byExec, bySimple] = [open(), open()];
    await Promise.all([byExec.waitReady, bySimple.waitReady]);
  });
  afterAll(async () => {
    await byExec?.close();
    await bySimple?.close();
  });

  /** The answer of each database to `sql`: its results, or its error's message, class name and plain fields. */
  async function both(sql: string) {
    const answer = (p: Promise<unknown>) => p.then((results) => ({ results }), (err: Error) => ({ error: { message: err.message, name: err.name, fields: plain(err) } }));
    const [expected, actual] = [await answer(byExec.exec(sql)), await answer(execSimple(bySimple, sql))];
    expect(actual).toEqual(expected);
    return actual as { results?: Awaited<ReturnType<typeof execSimple>>; error?: { fields: Record<string, unknown> } };
  }

  it('gives the same results for every type a page reads, several statements at once, and counts rows written', async () => {
    await both(`create table t (id int primary key, name text not null, day date, at timestamptz, amount numeric(12,3), ok boolean,
      data jsonb, tags text[], nums int[], raw bytea, big bigint, f float8)`);
    const written = await both(`begin; insert into t values
        (1, 'Rapsöl ✓ 🚚', '2026-03-31', '2026-11-27T10:15:00Z', 12.345, true, '{"a":[1,"x",null]}', '{a,"b c",NULL}', '{1,2,3}', '\\x01ff', 9007199254740993, 1.5),
        (2, '', null, null, null, null, null, '{}', null, null, null, null);
      update t set ok = false where id = 2; delete from t where id = 99; commit`);
    expect(written.results!.map((r) => [r.command, r.affectedRows])).toEqual([['BEGIN', 0], ['INSERT', 2], ['UPDATE', 3], ['DELETE', 3], ['COMMIT', 3]]);
    const read = await both(`select set_config('app.x', 'y', false) as s; select * from t order by id; select 1 as n where false`);
    expect(read.results![1].rows).toHaveLength(2);
    expect(read.results![1].rows[0]).toMatchObject({ name: 'Rapsöl ✓ 🚚', day: '2026-03-31', tags: ['a', 'b c', null], nums: [1, 2, 3] });
    expect(read.results![2]).toMatchObject({ rows: [], command: 'SELECT', rowCount: 0 });
  });

  it('reads an answer larger than PGlite hands over at once: long texts and many rows', async () => {
    const long = await both(`select repeat('Ölmühle ', 40000) as text, g from generate_series(1, 3) g`);
    expect((long.results![0].rows[0] as { text: string }).text).toHaveLength(8 * 40000);
    const many = await both(`select g, 'Zeile ' || g as name, g * 1.5 as amount from generate_series(1, 20000) g`);
    expect(many.results![0].rows).toHaveLength(20000);
  });

  it('prepares and executes as the reads alone do, under the settings of their transaction', async () => {
    await both(`prepare p (int) as select id, name, current_setting('app.mandant', true) as mandant from t where id = $1`);
    const alone = await both(`BEGIN; select set_config('app.mandant', 'NORD', true); EXECUTE p(1); COMMIT`);
    expect(alone.results![2].rows).toEqual([{ id: 1, name: 'Rapsöl ✓ 🚚', mandant: 'NORD' }]);
  });

  it('throws the same error, with the query on it, and leaves the transaction where exec() leaves it', async () => {
    const syntax = await both('selec 1');
    expect(syntax.error!.fields).toMatchObject({ code: '42601', query: 'selec 1' });
    const duplicate = await both(`begin; insert into t (id, name) values (1, 'doppelt'); select 1`);
    expect(duplicate.error!.fields).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });
    expect(bySimple.isInTransaction()).toBe(byExec.isInTransaction());
    const aborted = await both('select 1');
    expect(aborted.error!.fields.code).toBe('25P02');
    await both('rollback');
    expect([byExec.isInTransaction(), bySimple.isInTransaction()]).toEqual([false, false]);
    await both('select count(*)::int as n from t');
  });

  it('answers an empty statement as exec() does, and refuses once the database is closed', async () => {
    await both('');
    await both(';');
    const closed = open();
    await closed.waitReady;
    await closed.close();
    await expect(execSimple(closed, 'select 1')).rejects.toThrow(/closed/);
  });
});
