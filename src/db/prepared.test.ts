// prepared(): a marked query runs as a named statement on PostgreSQL (prepared once per connection, executed by
// name after), at most PREPARED_PER_CONNECTION of them per connection; PGlite ignores the mark.
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './knex.js';
import { PREPARED_PER_CONNECTION, prepared } from './knex-internals.js';
import { createPostgresDatabase } from '../testing/database.js';

const baseUrl = process.env.TEST_DATABASE_URL;

/** The statements the transaction's connection holds prepared, by name. */
async function preparedOnConnection(trx: Knex.Transaction): Promise<Map<string, string>> {
  const { rows } = (await trx.raw('select name, statement from pg_prepared_statements')) as { rows: { name: string; statement: string }[] };
  return new Map(rows.map((r) => [r.name, r.statement]));
}

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
  it('answers as an unmarked query would (PGlite has no named statements)', async () => {
    const { knex } = createDatabase({ kind: 'pglite', dir: null });
    try {
      expect(await prepared(knex.select(knex.raw('?::int * 3 as tripled', [5])))).toEqual([{ tripled: 15 }]);
      expect(await prepared(knex.select(knex.raw('?::int * 3 as tripled', [7])))).toEqual([{ tripled: 21 }]);
    } finally {
      await knex.destroy();
    }
  });
});
