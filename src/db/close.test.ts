// Closing the database at shutdown: work still waiting for a connection (a COMMIT that follows an answer, a
// session touch) gets one and finishes; knex's destroy() alone rejected it ("Acquire connection error: aborted").
// PostgreSQL only: the embedded database's client lets its one connection finish on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { closeDatabase } from './knex.js';

const PG = !!process.env.TEST_DATABASE_URL;

let t: TestApp;
beforeAll(async () => {
  if (PG) t = await createTestApp();
});
afterAll(() => t?.close());

describe.skipIf(!PG)('closeDatabase (PostgreSQL)', () => {
  it('lets the queries that wait for a connection finish before the pool closes', async () => {
    // More queries than the pool has connections (10): five wait for one.
    const queries = Array.from({ length: 15 }, (_, i) => Promise.resolve(t.db.knex.raw('select pg_sleep(0.05), ? as i', [i])).then(
      () => 'done',
      (err: Error) => err.message,
    ));
    await new Promise((resolve) => setImmediate(resolve));
    await closeDatabase(t.db.knex);
    expect(await Promise.all(queries)).toEqual(Array(15).fill('done'));
  });
});
