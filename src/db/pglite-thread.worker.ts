// The embedded database's own thread (src/db/pglite-thread.ts starts it): one PGlite, and the calls the server's
// thread sends it from its connections (sessions). PGlite is one PostgreSQL session, so this thread decides
// what runs when: calls run one at a time in the order they came, except that while a session has a
// transaction open, only that session's calls run; the others wait, in order, until it ends. A call that is a
// whole transaction by itself (a read sent with its BEGIN and COMMIT) never holds the database between calls.
// Answers are plain data (structured clone); an error goes back as its message and its fields (code,
// constraint, detail, …), which the server's thread puts on an Error of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { execSimple } from './pglite-simple-query.js';
import { PG_DATE_OID, WAIT_LIMIT_MS, type PlainError, type ThreadCall, type ThreadInit, type ThreadReply } from './pglite-thread-protocol.js';

const port = parentPort!;
const init = workerData as ThreadInit;

/** Own fields of an error that survive the copy to the other thread (strings, numbers, booleans). */
function plainError(err: unknown): PlainError {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { message: err.message, name: err.name, fields };
}

const reply = (message: ThreadReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

// A DATE stays its ISO text, as on PostgreSQL (src/db/knex.ts): the parser is a function, so it is set here.
const db = new PGlite({ ...(init.dataDir ? { dataDir: init.dataDir } : {}), loadDataDir: init.loadDataDir, parsers: { [PG_DATE_OID]: (v: string) => v } });

/** exec(), its answer read by node-postgres's parser (src/db/pglite-simple-query.ts): the same results, less work. */
const exec = (sql: string) => execSimple(db, sql);

/** The statements prepared in this session (a PREPARE_FIRST call's name, once its PREPARE succeeded). */
const prepared = new Set<string>();

async function run(call: ThreadCall): Promise<{ ok: unknown; transfer?: ArrayBuffer[] }> {
  for (const statement of call.prepare ?? []) {
    if (prepared.has(statement.name)) continue;
    await exec(`PREPARE ${statement.name} AS ${statement.sql}`);
    prepared.add(statement.name);
  }
  switch (call.op) {
    case 'query':
      return { ok: await db.query(call.sql, call.params, call.options) };
    case 'exec':
      return { ok: await exec(call.sql) };
    case 'alone':
      try {
        await exec(call.begin);
        const result = await db.query(call.sql, call.params);
        await exec('COMMIT');
        return { ok: result };
      } catch (err) {
        // Whatever failed (the settings, the statement, COMMIT), the call leaves no transaction behind.
        if (db.isInTransaction()) await exec('ROLLBACK').catch(() => {});
        throw err;
      }
    case 'release':
      if (db.isInTransaction()) await exec('ROLLBACK');
      return { ok: null };
    case 'dump': {
      const bytes = await (await db.dumpDataDir(call.compression)).arrayBuffer();
      return { ok: bytes, transfer: [bytes] };
    }
    case 'close':
      await db.close();
      return { ok: null };
  }
}

// ------------------------------------------------------------------------------------------ what runs when

const waiting: ThreadCall[] = [];
/** When each waiting call came (by id). */
const arrived = new Map<number, number>();
/** The session whose transaction is open: only its calls run until it ends. */
let holder: number | null = null;
let busy = false;

/** Refuses the calls that waited longer than the limit for another session's transaction to end. */
const waitLimitMs = init.waitLimitMs ?? WAIT_LIMIT_MS;
setInterval(() => {
  if (holder === null) return;
  const now = Date.now();
  for (let i = waiting.length - 1; i >= 0; i--) {
    const call = waiting[i];
    if (call.session === holder || now - (arrived.get(call.id) ?? now) < waitLimitMs) continue;
    waiting.splice(i, 1);
    arrived.delete(call.id);
    const message = `Unable to acquire a connection to the embedded database: another connection's transaction has held it for more than ${waitLimitMs / 1000} s`;
    reply({ id: call.id, error: { message, name: 'Error', fields: {} }, open: false });
  }
}, Math.min(1_000, waitLimitMs / 2)).unref();

async function next(): Promise<void> {
  if (busy) return;
  const at = holder === null ? 0 : waiting.findIndex((c) => c.session === holder);
  if (at < 0 || at >= waiting.length) return;
  const [call] = waiting.splice(at, 1);
  arrived.delete(call.id);
  busy = true;
  let answer: ThreadReply;
  let transfer: ArrayBuffer[] | undefined;
  try {
    const done = await run(call);
    transfer = done.transfer;
    answer = { id: call.id, ok: done.ok, open: false };
  } catch (err) {
    answer = { id: call.id, error: plainError(err), open: false };
  }
  // A session that left its transaction open (BEGIN, or a failed statement inside one) keeps the database.
  const open = call.op !== 'close' && call.op !== 'dump' && !db.closed && db.isInTransaction();
  holder = open ? call.session : null;
  answer.open = open;
  reply(answer, transfer);
  busy = false;
  void next();
}

let ready = false;
port.on('message', (call: ThreadCall) => {
  waiting.push(call);
  arrived.set(call.id, Date.now());
  if (ready) void next();
});
db.waitReady.then(
  () => {
    ready = true;
    reply({ id: 0, ok: null, open: false });
    void next();
  },
  (err) => reply({ id: 0, error: plainError(err), open: false }),
);
