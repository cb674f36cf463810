// PGlite's exec() (a simple query: one or more statements as text) with the answer read by node-postgres's
// protocol parser (`pg-protocol`) instead of PGlite's own. PGlite's copy of that parser slices a new
// ArrayBuffer for every field of every row and decodes it on its own (its private fields compiled to WeakMap
// look-ups): on the embedded database's thread that was a fifth of its time under a list page's load, more
// than the statement itself took (bench/README.md, 2026-12-03, third). node-postgres's parser reads the same
// bytes as strings straight from one Buffer.
//
// Everything else is PGlite's: the statements run through its public execProtocolRawStream() with the Sync
// its exec() sends after them, the messages become results through its own parseResults() and its type parsers
// (those given to the constructor and the array types it registered), and an error is the protocol's
// DatabaseError with the query on it, as exec() throws it. pglite-simple-query.test.ts holds it equal to
// exec(), result for result and error for error. Only the database's thread uses it, which runs one call at a
// time, so PGlite's own query lock (which exec() takes) has nothing to guard here.
import { parse, type PGlite, type Results } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';

/** The statements in `sql`, as PGlite's exec(sql) runs them, with the same results or the same error. */
export async function execSimple(db: PGlite, sql: string): Promise<Results[]> {
  if (db.closed) throw new Error('PGlite is closed');
  const messages: BackendMessage[] = [];
  const parser = new Parser();
  const collect = (message: BackendMessage) => messages.push(message);
  // The bytes PGlite hands over are its memory's, overwritten by the next call: Buffer.from() copies them.
  await db.execProtocolRawStream(Buffer.concat([serialize.query(sql), serialize.sync()]), { onRawData: (bytes) => parser.parse(Buffer.from(bytes), collect) });
  // exec() throws the first error (a simple query stops at it): with the query on it, as makePGliteError() does.
  const error = messages.find((m) => m.name === 'error');
  if (error) throw Object.assign(error, { query: sql, params: undefined, queryOptions: undefined });
  return parse.parseResults(messages as unknown as Parameters<typeof parse.parseResults>[0], db.parsers);
}
