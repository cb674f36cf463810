// prepared(): a marked query runs as a named statement on PostgreSQL (prepared once per connection, executed by
// name after), at most PREPARED_PER_CONNECTION of them per connection; PGlite ignores the mark.
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './knex.js';
import { executeLiterals, PREPARED_PER_CONNECTION, prepared } from './knex-internals.js';
import { createPostgresDatabase } from '../testing/database.js';

const baseUrl = process.env.TEST_DATABASE_URL;

/** The statements the transaction's connection holds prepared, by name. */
async function preparedOnConnection(trx: Knex.Transaction): Promise<Map<string, string>> {
  const { rows } = (await trx.raw('select name, statement from pg_prepared_statements')) as { rows: { name: string; statement: string }[] };
  return new Map(rows.map((r) => [r.name, r.statement]));
}

describe('executeLiterals: the values EXECUTE gets as literals on PGlite', () => {
  it('quotes text (quotes doubled), numbers, booleans and instants, and writes NULL bare', () => {
    expect(executeLiterals(["O'Brien", 42, -1.5, 7n, true, false, new Date('2026-11-27T10:15:30.123Z'), null, undefined])).toEqual([
      "'O''Brien'", "'42'", "'-1.5'", "'7'", "'true'", "'false'", "'2026-11-27T10:15:30.123Z'", 'NULL', 'NULL',
    ]);
    expect(executeLiterals([])).toEqual([]);
  });

  it('refuses (the query then runs unnamed) anything it cannot write safely', () => {
    for (const value of ['C:\\temp', 'a\0b', Number.NaN, Number.POSITIVE_INFINITY, new Date('no date'), Buffer.from('x'), ['a'], { a: 1 }]) {
      expect(executeLiterals(['fine', value]), String(value)).toBeUndefined();
    }
  });
});

describe.skipIf(!baseUrl)('prepared statements on PostgreSQL', () => {
  let knex: Knex;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const own = await createPostgresDatabase(baseUrl!, { prefix: 'prepared' });
    drop = own.drop;
    knex = createDatabase({ kind: 'postgres', url: own.url }).knex;
  });
  afterAll(async () => {
    await knex?.destroy();
    await drop?.();
  });

  it('prepares a marked query once per connection and executes it by name with each call’s values', async () => {
    await knex.transaction(async (trx) => {
      const query = (n: number) => prepared(trx.select(trx.raw('?::int * 2 as doubled', [n])));
      expect(await query(2)).toEqual([{ doubled: 4 }]);
      expect(await query(21)).toEqual([{ doubled: 42 }]);
      const statements = [...(await preparedOnConnection(trx))];
      expect(statements).toHaveLength(1);
      expect(statements[0][0]).toMatch(/^portal_/);
      expect(statements[0][1]).toBe('select $1::int * 2 as doubled');
    });
  });

  it('prepares a marked raw statement the same way (the session’s read is one: src/http/session-store.ts)', async () => {
    await knex.transaction(async (trx) => {
      const query = async (n: number) => ((await prepared(trx.raw('select ?::int * 3 as tripled', [n]))) as { rows: unknown[] }).rows;
      expect(await query(2)).toEqual([{ tripled: 6 }]);
      expect(await query(14)).toEqual([{ tripled: 42 }]);
      const texts = [...(await preparedOnConnection(trx)).values()];
      expect(texts.filter((t) => t === 'select $1::int * 3 as tripled')).toHaveLength(1);
    });
  });

  it('leaves unmarked queries unnamed', async () => {
    await knex.transaction(async (trx) => {
      expect(await trx.select(trx.raw('?::int + 1 as next', [1]))).toEqual([{ next: 2 }]);
      expect([...(await preparedOnConnection(trx)).values()].some((sql) => sql.includes('as next'))).toBe(false);
    });
  });

  it(`keeps at most ${PREPARED_PER_CONNECTION} statements per connection and runs the rest unnamed`, async () => {
    await knex.transaction(async (trx) => {
      const before = (await preparedOnConnection(trx)).size;
      for (let i = 0; i < PREPARED_PER_CONNECTION + 5; i += 1) {
        // A distinct text each time: the shape of a query that varies by mistake.
        expect(await prepared(trx.select(trx.raw(`?::int + ${i} as n`, [1])))).toEqual([{ n: 1 + i }]);
      }
      const after = await preparedOnConnection(trx);
      expect(after.size).toBe(PREPARED_PER_CONNECTION);
      expect(after.size).toBeGreaterThan(before);
    });
  });
});

describe('prepared() on the embedded database', () => {
  let knex: Knex;
  beforeAll(() => {
    knex = createDatabase({ kind: 'pglite', dir: null }).knex;
  });
  afterAll(() => knex?.destroy());

  const statements = async () =>
    ((await knex.raw('select name, statement from pg_prepared_statements')) as { rows: { name: string; statement: string }[] }).rows;

  it('prepares the statement once (SQL PREPARE) and executes it by name with each call’s values', async () => {
    const query = (n: number) => prepared(knex.select(knex.raw('?::int * 3 as tripled', [n])));
    expect(await query(5)).toEqual([{ tripled: 15 }]);
    expect(await query(7)).toEqual([{ tripled: 21 }]);
    const named = (await statements()).filter((s) => s.statement.includes('tripled'));
    expect(named).toHaveLength(1);
    expect(named[0].name).toMatch(/^portal_[0-9a-f]{40}$/);
  });

  it('gives text, quotes, numbers, booleans, instants and NULL the values they have unprepared', async () => {
    const at = new Date('2026-11-27T10:15:30.123Z');
    const values = ["O'Brien; drop table x --", 'Ä €', 42, -1.5, true, false, at, null];
    const sql = '?::text as t, ?::text as u, ?::int as i, ?::numeric as n, ?::boolean as b, ?::boolean as f, ?::timestamptz as at, ?::text as nothing';
    const plain = await knex.select(knex.raw(sql, values));
    const twice = [await prepared(knex.select(knex.raw(sql, values))), await prepared(knex.select(knex.raw(sql, values)))];
    expect(twice).toEqual([plain, plain]);
    expect(plain[0]).toMatchObject({ t: "O'Brien; drop table x --", u: 'Ä €', i: 42, b: true, f: false, nothing: null });
  });

  it('reports a statement the database refuses as the database says, every time, and goes on serving', async () => {
    const broken = () => prepared(knex.select(knex.raw('?::int as n from no_such_table', [1])));
    await expect(broken()).rejects.toThrow(/no_such_table/);
    // Not "prepared statement … does not exist": a PREPARE that failed is not taken for done.
    await expect(broken()).rejects.toThrow(/no_such_table/);
    expect(await prepared(knex.select(knex.raw('?::int as n', [1])))).toEqual([{ n: 1 }]);
  });

  it('runs a query unprepared when a value is not a plain scalar or holds a backslash', async () => {
    const before = (await statements()).length;
    expect(await prepared(knex.select(knex.raw('?::text as path', ['C:\\temp'])))).toEqual([{ path: 'C:\\temp' }]);
    expect(await prepared(knex.select(knex.raw('?::jsonb as doc', [JSON.stringify({ a: 1 })])))).toEqual([{ doc: { a: 1 } }]);
    expect(await prepared(knex.select(knex.raw('?::bytea as raw', [Buffer.from('hi')])))).toHaveLength(1);
    // The JSON text is a plain string (prepared); the backslash and the buffer ran unnamed.
    expect((await statements()).length).toBe(before + 1);
  });
});
