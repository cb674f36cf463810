// The embedded database's own thread (src/db/pglite-thread.ts starts it): one PGlite, and the calls the server's
// thread sends it. Every call is handed to PGlite as it arrives; PGlite runs them one at a time in that order,
// as it does in a single thread. Answers are plain data (structured clone); an error goes back as its message
// and its fields (code, constraint, detail, …), which the server's thread puts on an Error of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PG_DATE_OID, type ThreadCall, type ThreadInit, type ThreadReply } from './pglite-thread-protocol.js';

const port = parentPort!;
const init = workerData as ThreadInit;

/** Own fields of an error that survive the copy to the other thread (strings, numbers, booleans). */
function plainError(err: unknown): { message: string; name: string; fields: Record<string, unknown> } {
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

db.waitReady.then(
  () => reply({ id: 0, ok: null }),
  (err) => reply({ id: 0, error: plainError(err) }),
);

async function run(call: ThreadCall): Promise<{ ok: unknown; transfer?: ArrayBuffer[] }> {
  switch (call.op) {
    case 'query':
      return { ok: await db.query(call.sql, call.params, call.options) };
    case 'exec':
      return { ok: await db.exec(call.sql) };
    case 'dump': {
      const bytes = await (await db.dumpDataDir(call.compression)).arrayBuffer();
      return { ok: bytes, transfer: [bytes] };
    }
    case 'close':
      await db.close();
      return { ok: null };
  }
}

port.on('message', (call: ThreadCall) => {
  run(call).then(
    ({ ok, transfer }) => reply({ id: call.id, ok }, transfer),
    (err) => reply({ id: call.id, error: plainError(err) }),
  );
});
