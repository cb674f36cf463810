// The free-text search of the lists, in one place (docs/decisions.md, "Search under row-level security").
//
// Small lists (master data, users, tenants) name columns and are searched with ILIKE '%…%': a few hundred rows.
// The movement-data lists are big (100,000 deliveries and more per tenant) and read under row-level security,
// where PostgreSQL may use an index only for leakproof operators, and ILIKE is none. Their search is indexed:
// - their own texts (number, vehicle, contract number, comment, …) are kept word by word in `suchwoerter`
//   (migrations/20261204000000_suchwoerter.ts, written by triggers in the record's own transaction); a typed word
//   finds the records that have a word beginning with it, through a prefix range with the leakproof pattern
//   operators `~>=~` and `~<~` on the index `(mandant, tabelle, wort text_pattern_ops)`;
// - partners, locations and products are found by number and name (any part of it, as they were in any
//   version) in their master tables, which are small, and the records by the number they refer to: equality,
//   leakproof, on the list's tenant-leading index of that column.
// Several words must each be found (in any field): "Hansa Diesel" finds Hansa's deliveries of a diesel product.
import type { Knex } from 'knex';

/** Master data a list refers to by number, found by its number and name. */
export type MasterTable = 'tauschpartner' | 'standorte' | 'produkte';

/** The indexed search of a big tenant list. */
export interface IndexedSearch {
  /** The list's table (as `suchwoerter.tabelle` names it) and its alias in the definition's `query`. */
  table: string;
  alias: string;
  /** The key column that the words and the references lead to (default `nr`). */
  key?: string;
  /**
   * The columns whose words `suchwoerter` keeps for this table: exactly those the migration's triggers name
   * (search.test.ts compares them). Empty when the list searches its references only.
   */
  words: readonly string[];
  /** Columns that refer to master data by number. */
  references?: readonly { column: string; master: MasterTable }[];
}

/** What a list's search looks in: columns for ILIKE (small lists), or the indexed search. */
export type ListSearch = readonly string[] | IndexedSearch;

export const isIndexed = (search: ListSearch): search is IndexedSearch => !Array.isArray(search);

/** Whether the list has a search (and so knows the parameter `q`). */
export const hasSearch = (search: ListSearch): boolean => (isIndexed(search) ? search.words.length > 0 || (search.references?.length ?? 0) > 0 : search.length > 0);

/** White space and ASCII punctuation: what separates words (the migration's SEPARATOR, the same class). */
const SEPARATOR = /[\s!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
const OUTER = new RegExp(`^${SEPARATOR.source}+|${SEPARATOR.source}+$`, 'g');

/** Words kept are cut at this length (the migration's left(…, 64)); a longer word typed is cut the same way. */
export const WORD_LENGTH = 64;
/** At most this many words in one search: each is a lookup of its own. */
export const MAX_SEARCH_WORDS = 8;

/**
 * The words of a search text: split at white space, outer punctuation trimmed ("Bremen," is "Bremen"), each
 * given once. Case is left to the database (lower() on both sides). Punctuation alone is no word.
 */
export function searchWords(q: string): string[] {
  const words = q.split(/\s+/).map((w) => w.replace(OUTER, '').slice(0, WORD_LENGTH)).filter(Boolean);
  return [...new Set(words)];
}

/** The highest code point: every word that begins with a prefix sorts below prefix + it (byte order, UTF-8). */
const TOP = '\u{10FFFF}';

const MASTER_NAME: Record<MasterTable, string> = { tauschpartner: 'name', standorte: 'name', produkte: 'name' };

function escapeLike(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The keys of the rows one word finds, as SQL with its bindings: the rows with a word of their own beginning
 * with it, and the rows whose partner, location or product has it in its number or name. Every condition on a
 * big table is an equality or a pattern range (leakproof), so it runs on an index under row-level security.
 */
function keysOf(search: IndexedSearch, mandant: string, word: string): { sql: string; bindings: string[] } {
  const key = search.key ?? 'nr';
  const parts: string[] = [];
  const bindings: string[] = [];
  if (search.words.length) {
    parts.push('select s.nr as k from suchwoerter s where s.mandant = ? and s.tabelle = ? and s.wort ~>=~ lower(?) and s.wort ~<~ lower(?)');
    bindings.push(mandant, search.table, word, word + TOP);
  }
  // The numbers of the master records whose number or name has the word: small tables, read once per statement
  // (an uncorrelated ARRAY(…) is an InitPlan, its value a parameter), so the list table is read by equality, one
  // reference at a time through its tenant-leading index (an OR of the three would read the table instead).
  const like = escapeLike(word);
  for (const { column, master } of search.references ?? []) {
    const name = MASTER_NAME[master];
    parts.push(
      `select x.${key} as k from ${search.table} x where x.mandant = ? and x.${column} = any(array(` +
        `select m.nr from ${master} m where m.mandant = ? and (m.nr ilike ? or m.${name} ilike ?) ` +
        `union select v.nr from ${master}_versionen v where v.mandant = ? and v.data->>'${name}' ilike ?))`,
    );
    bindings.push(mandant, mandant, like, like, mandant, like);
  }
  return { sql: parts.join(' union all '), bindings };
}

/** Limits a list's query to the rows each word of the search finds (the indexed search). */
export function whereIndexedSearch(qb: Knex.QueryBuilder, search: IndexedSearch, mandant: string, q: string): void {
  const words = searchWords(q);
  // Only punctuation: there is nothing to look for, so nothing is found (the whole list would look searched).
  if (!words.length) {
    qb.whereRaw('false');
    return;
  }
  for (const word of words) {
    const { sql, bindings } = keysOf(search, mandant, word);
    qb.whereRaw(`${search.alias}.${search.key ?? 'nr'} in (${sql})`, bindings);
  }
}

/** Limits a small list's query to the rows with the text in one of the columns (ILIKE '%…%'). */
export function whereColumnSearch(qb: Knex.QueryBuilder, columns: readonly string[], q: string): void {
  const like = escapeLike(q);
  qb.where((w) => columns.forEach((col) => w.orWhereRaw(`cast(${col} as text) ilike ?`, [like])));
}
