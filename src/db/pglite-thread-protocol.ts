// What the server's thread and the embedded database's thread (src/db/pglite-thread.ts and its worker) send
// each other. Types and one constant only: both sides import it.

/** PostgreSQL's DATE type: kept as its ISO text, never a Date at some time zone's midnight. */
export const PG_DATE_OID = 1082;

/**
 * The option (of query() and exec()) naming the prepared statements the call EXECUTEs: `{ name, sql }`, or a
 * list of them (several reads in one call). The database's thread prepares each first if it has not yet, so
 * connections never race to prepare one.
 */
export const PREPARE_FIRST = 'portalPrepareFirst';
export interface PrepareFirst {
  name: string;
  sql: string;
}

/** On each of PGliteThread's connections: the database it is a session of (prepared statements belong to it). */
export const SESSION_OF = Symbol('sessionOf');

/** What the thread starts with: the data folder (none: in memory) and the files to start from, if any. */
export interface ThreadInit {
  dataDir?: string;
  loadDataDir?: Blob;
  /** How long a call may wait while another session holds the database (WAIT_LIMIT_MS unless a test says). */
  waitLimitMs?: number;
}

/**
 * How long a call waits for another session's transaction before it is refused: knex's own wait for a pooled
 * connection, which bounded it when the embedded database had one connection. The refusal says "Unable to
 * acquire a connection", as knex's does, so the error handler answers 503 (src/db/unavailable.ts).
 */
export const WAIT_LIMIT_MS = 60_000;

/**
 * A call to the database; id 0 is reserved for the answer to start-up. `session` is the connection it comes
 * from (0: the thread's own): a session that has a transaction open has the database to itself until it ends.
 */
export type ThreadCall = { id: number; session: number; prepare?: PrepareFirst[] } & (
  | { op: 'query'; sql: string; params?: unknown[]; options?: Record<string, unknown> }
  | { op: 'exec'; sql: string }
  /** `begin` (BEGIN and settings), the statement with its parameters, COMMIT: one transaction, in one call. */
  | { op: 'alone'; begin: string; sql: string; params?: unknown[] }
  /** The session is given back: a transaction it left open is rolled back. */
  | { op: 'release' }
  | { op: 'dump'; compression: 'gzip' | 'none' | 'auto' }
  | { op: 'close' }
);

/** An error as it crosses: its message, its class's name and its own plain fields (code, constraint, detail…). */
export interface PlainError {
  message: string;
  name: string;
  fields: Record<string, unknown>;
}

/** The answer, and whether the session has a transaction open after it (it holds the database until it ends). */
export type ThreadReply = { id: number; ok: unknown; open: boolean } | { id: number; error: PlainError; open: boolean };
