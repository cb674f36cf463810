// What a request asked the database: for tests of what a page reads and what it keeps (remembered list pages,
// remembered records), with changes made as another process would make them.
import type { Knex } from 'knex';
import { setTenant } from '../db/rls.js';
import type { TestApp } from './app.js';
import type { Agent } from './session.js';

/** The response's text and every statement the request sent (a read transaction is committed on the next turn). */
export async function shownWithStatements(t: TestApp, agent: Agent, path: string, status = 200): Promise<{ html: string; statements: string[] }> {
  const statements: string[] = [];
  const listen = (q: { sql: string }) => statements.push(q.sql);
  t.db.knex.on('query', listen);
  try {
    const res = await agent.get(path).expect(status);
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { html: res.text, statements };
  } finally {
    t.db.knex.off('query', listen);
  }
}

/** A change made outside this process (another instance, an import, SQL by hand): a transaction of its own, in the tenant. */
export function changeElsewhere(t: TestApp, mandant: string, change: (trx: Knex.Transaction) => Promise<unknown>): Promise<void> {
  return t.db.knex.transaction(async (trx) => {
    await setTenant(trx, mandant);
    await change(trx);
  });
}
