// What the server's thread and the embedded database's thread (src/db/pglite-thread.ts and its worker) send
// each other. Types and one constant only: both sides import it.

/** PostgreSQL's DATE type: kept as its ISO text, never a Date at some time zone's midnight. */
export const PG_DATE_OID = 1082;

/** What the thread starts with: the data folder (none: in memory) and the files to start from, if any. */
export interface ThreadInit {
  dataDir?: string;
  loadDataDir?: Blob;
}

/** A call to the database; id 0 is reserved for the answer to start-up. */
export type ThreadCall =
  | { id: number; op: 'query'; sql: string; params?: unknown[]; options?: Record<string, unknown> }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'dump'; compression: 'gzip' | 'none' | 'auto' }
  | { id: number; op: 'close' };

/** An error as it crosses: its message, its class's name and its own plain fields (code, constraint, detail…). */
export interface PlainError {
  message: string;
  name: string;
  fields: Record<string, unknown>;
}

export type ThreadReply = { id: number; ok: unknown } | { id: number; error: PlainError };
