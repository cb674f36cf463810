// The rows of a list export, whatever the format: everything the filters show (no paging), in the list's order,
// a chunk at a time, and the list's sums over all of it. The writers (csv.ts, xlsx.ts, pdf.ts) only format
// what this hands them, so every format holds the same rows in the same order.
import { countAndTotals, filtered, ordered, withJoined, type ListColumn, type ListDefinition, type ListSource, type ListState, type ListTotal } from '../list/engine.js';

/**
 * Rows fetched per round trip unless a writer asks for fewer (ExportWriter.chunkSize). 500 rather than 1,000
 * for the CSV: a chunk still in flight while the one before is written survives the young generation's
 * collections, and half as many such rows kept the server's peak 30 MB lower on a CSV of 100,000 deliveries,
 * and the export no slower (bench/README.md).
 */
export const EXPORT_CHUNK = 500;

/** A sum as the writers show it: its label (i18n key) and fraction digits, its value from sums() by key. */
export type ExportTotal = Pick<ListTotal, 'key' | 'label' | 'digits'>;

/** What a writer gets: the columns, the rows a chunk at a time, and the sums (asked for after the rows). */
export interface ExportSource<R> {
  /** The columns of the spreadsheet formats: everything but the page-only ones. */
  columns: ListColumn<R>[];
  /** The columns the page shows (the PDF prints these: a printed list reads like the screen). */
  pageColumns: ListColumn<R>[];
  totals: ExportTotal[];
  /** Rows in the list's order; iterating starts the reading, so a writer can send its first bytes before. */
  chunks(): AsyncIterable<R[]>;
  /** The sums (decimal strings by key) over every row the filters show. */
  sums(): Promise<Record<string, string | null>>;
}

const columnsOf = <R, S extends ListSource>(def: ListDefinition<R, S>) => ({
  columns: def.columns.filter((c) => !c.pageOnly),
  pageColumns: def.columns.filter((c) => !c.csvOnly),
  totals: def.totals ?? [],
});

/**
 * The rows of a list as the filters show them, read through the scope (tenant and locations).
 *
 * First the keys of all matching rows in order (one query that carries no row data), then the rows by key,
 * a chunk at a time: each chunk is an index look-up, whatever the sort. Paging with OFFSET instead re-sorts
 * and skips everything before each chunk (quadratic: 100 chunks of 100,000 rows read 5 million), and a
 * cursor would hold a transaction (and the embedded database's only connection) for as long as a slow client
 * takes to download. The next chunk is read while the writer formats and sends the one before.
 */
export function listRows<R, S extends ListSource>(def: ListDefinition<R, S>, scope: S, state: ListState, chunkSize = EXPORT_CHUNK): ExportSource<R> {
  const { knex } = scope;
  // The same scoped base query (tenant, locations), so a key can only ever name a row the user may see.
  const rowsOf = (chunk: unknown[]): Promise<Record<string, unknown>[]> => {
    const reading = Promise.resolve(
      withJoined(def, scope, def.query(scope))
        .select(knex.raw(`${def.tieBreaker} as export_key`))
        .whereIn(knex.raw(def.tieBreaker) as unknown as string, chunk as string[]),
    );
    // Read ahead: if the export stops before it is awaited, its failure is not an unhandled one.
    reading.catch(() => {});
    return reading;
  };
  async function* chunks(): AsyncGenerator<R[]> {
    // As one array value, not a row per key: 100,000 keys then cost the server 4 MB for the whole export
    // instead of 10 MB of row objects (kept to the end, and more while the rows were mapped to keys).
    // ARRAY(subquery) keeps the subquery's order.
    const keysInOrder = ordered(def, filtered(def, scope, state).clearSelect().select(knex.raw(`${def.tieBreaker} as k`)), state);
    const [{ keys }] = (await knex.select(knex.raw('array(?) as keys', [keysInOrder]))) as { keys: unknown[] }[];
    let next = keys.length ? rowsOf(keys.slice(0, chunkSize)) : null;
    for (let start = 0; next; start += chunkSize) {
      const chunk = keys.slice(start, start + chunkSize);
      const read = await next;
      next = start + chunkSize < keys.length ? rowsOf(keys.slice(start + chunkSize, start + 2 * chunkSize)) : null;
      const byKey = new Map(read.map((db) => [String(db.export_key), db]));
      const rows: R[] = [];
      for (const key of chunk) {
        const db = byKey.get(String(key));
        // Deleted since the keys were read: left out, as it would be had the export started a moment later.
        if (db) rows.push(def.toRow(db));
      }
      yield rows;
    }
  }
  return {
    ...columnsOf(def),
    chunks,
    sums: async () => (def.totals?.length ? (await countAndTotals(def, scope, state, null)).totals : {}),
  };
}

/** Rows already in memory, as a source (the writers' unit tests; reports, which compute their rows). */
export function rowsInMemory<R>(def: { columns: ListColumn<R>[]; totals?: ExportTotal[] }, rows: R[], sums: Record<string, string | null> = {}, chunkSize = EXPORT_CHUNK): ExportSource<R> {
  return {
    columns: def.columns.filter((c) => !c.pageOnly),
    pageColumns: def.columns.filter((c) => !c.csvOnly),
    totals: def.totals ?? [],
    async *chunks() {
      for (let i = 0; i < rows.length; i += chunkSize) yield rows.slice(i, i + chunkSize);
    },
    sums: async () => sums,
  };
}
