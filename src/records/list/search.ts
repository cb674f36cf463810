// The free-text search of the lists, in one place (docs/decisions.md, "Search under row-level security").
//
// Small lists (master data, users, tenants) name columns and are searched with ILIKE '%…%': a few hundred rows.
// The movement-data lists are big (100,000 deliveries and more per tenant) and read under row-level security,
// where PostgreSQL may use an index only for leakproof operators, and ILIKE is none. Their search is indexed:
// - their own texts (number, vehicle, contract number, comment, …) are kept word by word in `suchwoerter`
//   (migrations/20261204000000_suchwoerter.ts, written by triggers in the record's own transaction); a typed word
//   finds the records that have a word beginning with it, through a prefix range with the leakproof pattern
//   operators `~>=~` and `~<~` on the index `(mandant, tabelle, wort text_pattern_ops)`. Its bounds are
//   `(select lower(?))`, computed once before the scan: a bare `lower(?)` is an index condition only where the
//   planner folds it to a constant (a custom plan); in the generic plan a list page runs (prepared(), generic)
//   it stays a call of lower(), which is not leakproof, and row-level security keeps it out of the index;
// - partners, locations and products are found by number and name (any part of it, as they were in any
//   version) in their master tables, which are small, and the records by the number they refer to: equality,
//   leakproof, on the list's tenant-leading index of that column.
// Several words must each be found (in any field): "Hansa Diesel" finds Hansa's deliveries of a diesel product.
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';

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

/**
 * The numbers of the master records each word finds, by word and master table, looked up before the list's
 * statement (resolveReferences): as constants in it, the planner knows from its statistics how many records each
 * number has and picks its join accordingly. Without them the statement looks the numbers up itself (InitPlans,
 * whose values the planner cannot see at planning time; on a word of 60,000 deliveries that was twice as slow).
 */
export interface ResolvedReferences {
  /** By word and master table: the numbers found. */
  masters: Record<string, Partial<Record<MasterTable, string[]>>>;
  /** The words that find more than DENSE records: searched by reading the list in its order instead. */
  dense: string[];
}

/**
 * Above this many records a word finds, reading them all by key costs more than reading the list in its order
 * and checking each row (the count stops at its cap, the page at its rows): "el" of every "EL-…" number, one
 * letter. Measured on 100,000 deliveries: 2.5 s by key against 0.2 s read in order (bench/README.md).
 */
export const DENSE = 10_000;

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
/** The numbers of one master table's records whose number or name (in any version) has the word. */
function masterNumbers(master: MasterTable, mandant: string, word: string): { sql: string; bindings: string[] } {
  const name = MASTER_NAME[master];
  const like = escapeLike(word);
  return {
    sql:
      `select m.nr from ${master} m where m.mandant = ? and (m.nr ilike ? or m.${name} ilike ?) ` +
      `union select v.nr from ${master}_versionen v where v.mandant = ? and v.data->>'${name}' ilike ?`,
    bindings: [mandant, like, like, mandant, like],
  };
}

/** Looks up the master numbers each word of the search finds, in one statement (see ResolvedReferences). */
export async function resolveReferences(search: IndexedSearch, scope: TenantScope, q: string): Promise<ResolvedReferences> {
  const masters = [...new Set((search.references ?? []).map((r) => r.master))];
  const words = searchWords(q);
  const out: ResolvedReferences = { masters: {}, dense: [] };
  if (!words.length) return out;
  const { knex } = scope;
  // One statement: the master numbers each word finds, and how many records it finds, counted up to DENSE
  // through the same indexes (the master numbers looked up inside, as InitPlans).
  const columns = words.flatMap((word, i) => {
    const keys = keysOf(search, scope.mandant, word);
    return [
      ...masters.map((master) => {
        const { sql, bindings } = masterNumbers(master, scope.mandant, word);
        return knex.raw(`array(${sql}) as ??`, [...bindings, `${master}_${i}`]);
      }),
      keys ? knex.raw(`(select count(*) from (${keys.sql} limit ${DENSE + 1}) as k) as ??`, [...keys.bindings, `w_${i}`]) : knex.raw('0 as ??', [`w_${i}`]),
    ];
  });
  const row = (await scope.scoped(knex.select(columns)).first()) as Record<string, string[] | string | number | null>;
  words.forEach((word, i) => {
    out.masters[word] = Object.fromEntries(masters.map((master) => [master, asArray(row[`${master}_${i}`] as string[] | string | null)]));
  });
  out.dense = words.filter((_, i) => Number(row[`w_${i}`]) > DENSE);
  return out;
}

/** A text[] as the driver gives it: an array (pg), or its literal `{a,b}` (in case a driver leaves it as text). */
function asArray(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value;
  if (!value || value === '{}') return [];
  return value.slice(1, -1).split(',').map((v) => v.replace(/^"|"$/g, ''));
}

function keysOf(search: IndexedSearch, mandant: string, word: string, resolved?: ResolvedReferences): { sql: string; bindings: string[] } | null {
  const key = search.key ?? 'nr';
  const parts: string[] = [];
  const bindings: string[] = [];
  if (search.words.length) {
    parts.push('select s.nr as k from suchwoerter s where s.mandant = ? and s.tabelle = ? and s.wort ~>=~ (select lower(?)) and s.wort ~<~ (select lower(?))');
    bindings.push(mandant, search.table, word, word + TOP);
  }
  // The numbers of the master records whose number or name has the word: given (resolved before), or looked up
  // here in the small tables, once per statement (an uncorrelated ARRAY(…) is an InitPlan). Either way the list
  // table is read by equality, one reference at a time through its tenant-leading index (an OR of the three
  // would read the table instead).
  for (const { column, master } of search.references ?? []) {
    const given = resolved?.masters[word]?.[master];
    if (given) {
      if (!given.length) continue;
      parts.push(`select x.${key} as k from ${search.table} x where x.mandant = ? and x.${column} in (${given.map(() => '?').join(', ')})`);
      bindings.push(mandant, ...given);
      continue;
    }
    const { sql, bindings: more } = masterNumbers(master, mandant, word);
    parts.push(`select x.${key} as k from ${search.table} x where x.mandant = ? and x.${column} = any(array(${sql}))`);
    bindings.push(mandant, ...more);
  }
  // Nothing can match (no word index, no master record has the word).
  if (!parts.length) return null;
  return { sql: parts.join(' union all '), bindings };
}

/** Limits a list's query to the rows each word of the search finds (the indexed search). */
export function whereIndexedSearch(qb: Knex.QueryBuilder, search: IndexedSearch, mandant: string, q: string, resolved?: ResolvedReferences): void {
  const words = searchWords(q);
  // Only punctuation: there is nothing to look for, so nothing is found (the whole list would look searched).
  if (!words.length) {
    qb.whereRaw('false');
    return;
  }
  // The keys each word finds, as an array computed once (an uncorrelated ARRAY(…) is an InitPlan), and the list's
  // rows by key: `nr = any($keys)` is leakproof, an index condition on the primary key. Not `nr in (…)`: as a
  // semi-join the planner may rescan the keys' query for every row of the list when it lacks statistics, as the
  // embedded database always does (no autovacuum): 1.6 s for 328 deliveries.
  for (const word of words) {
    if (resolved?.dense.includes(word)) {
      whereDense(qb, search, mandant, word, resolved);
      continue;
    }
    const keys = keysOf(search, mandant, word, resolved);
    if (!keys) qb.whereRaw('false');
    else qb.whereRaw(`${search.alias}.${search.key ?? 'nr'} = any(array(${keys.sql}))`, keys.bindings);
  }
}

/**
 * A word that finds more than DENSE records: the same matches, checked row by row as the list is read in its
 * order (a word of the row by the word index's primary key, a reference by its number), so the page stops after
 * its rows and the count at its cap, as ILIKE did.
 */
function whereDense(qb: Knex.QueryBuilder, search: IndexedSearch, mandant: string, word: string, resolved: ResolvedReferences): void {
  const key = `${search.alias}.${search.key ?? 'nr'}`;
  const conditions: string[] = [];
  const bindings: string[] = [];
  if (search.words.length) {
    conditions.push(`exists (select 1 from suchwoerter s where s.mandant = ? and s.tabelle = ? and s.nr = ${key} and s.wort ~>=~ (select lower(?)) and s.wort ~<~ (select lower(?)))`);
    bindings.push(mandant, search.table, word, word + TOP);
  }
  for (const { column, master } of search.references ?? []) {
    const given = resolved.masters[word]?.[master] ?? [];
    if (!given.length) continue;
    conditions.push(`${search.alias}.${column} in (${given.map(() => '?').join(', ')})`);
    bindings.push(...given);
  }
  if (!conditions.length) qb.whereRaw('false');
  else qb.whereRaw(`(${conditions.join(' or ')})`, bindings);
}

/** Limits a small list's query to the rows with the text in one of the columns (ILIKE '%…%'). */
export function whereColumnSearch(qb: Knex.QueryBuilder, columns: readonly string[], q: string): void {
  const like = escapeLike(q);
  qb.where((w) => columns.forEach((col) => w.orWhereRaw(`cast(${col} as text) ilike ?`, [like])));
}
