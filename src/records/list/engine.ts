// The list-page machinery, built once: each feature declares its columns, filters and base query; this module
// parses the list state from the URL (search, filters, sort, page), runs the query through the list's source
// (the tenant scope for tenant data, a platform source for users, tenants and the audit log); the exports of
// exactly what the filters show read through it too (src/records/export). Pages (views/partials/ui/list-page.ejs and the platform lists'
// own views) and the JSON API (`{data,total,page,pageSize}`) share it, so a list behaves the same everywhere.
import type { Knex } from 'knex';
import { TenantScope } from '../../db/scope.js';
import { prepared } from '../../db/knex-internals.js';
import type { FieldError } from '../../http/errors.js';
import { countKey, recall, remember } from './counts.js';
import { pageKey, recallPage, rememberPage, renderedOnce } from './pages.js';
import type { Formatter } from '../../http/format.js';
import { MAX_PAGE_SIZE, requestedPageSize } from './page-size.js';
import { EXPORT_FORMATS } from '../export/formats.js';
import { hasSearch, isIndexed, MAX_SEARCH_WORDS, searchWords, whereColumnSearch, whereIndexedSearch, type ListSearch, type ResolvedReferences } from './search.js';

export { MAX_PAGE_SIZE } from './page-size.js';

/**
 * Where a list's queries run. A TenantScope is one (tenant data: every query limited to the tenant and run as
 * the tenant); users, tenants and the audit log are platform tables that span tenants, read through a
 * platformSource() whose definition's query carries the feature's own visibility rule.
 */
export interface ListSource {
  readonly knex: Knex | Knex.Transaction;
  /** Makes a query built on `knex` (an aggregate over the list's query, say) run where the list's queries run. */
  scoped<Q extends Knex.QueryBuilder>(qb: Q): Q;
}

/** The source of a list over platform tables: its queries run on the connection as built. */
export function platformSource(knex: Knex): ListSource {
  return { knex, scoped: (qb) => qb };
}

export type ColumnKind = 'text' | 'number' | 'date' | 'datetime' | 'boolean';

export interface ListColumn<R> {
  /** Field of the row (camelCase), also the name in `sort=key:dir`. */
  key: string;
  /** i18n key of the header. */
  label: string;
  /** SQL expression to sort by; the column is sortable only when given. */
  sql?: string;
  /**
   * The sort expression is never null (a NOT NULL column): ordered without NULLS LAST, so one plain index
   * serves both directions. Nullable expressions keep empty values last either way.
   */
  notNull?: boolean;
  kind?: ColumnKind;
  /** Fraction digits of numbers; 'asStored': as many as the stored value has (12.500,5 L, not 12.501 L). */
  digits?: number | 'asStored';
  /** Text after a number on screen, e.g. its unit ("24.000 L"). */
  suffix?: (row: R) => string | null;
  /** Link of the cell (the first column usually links to the detail page). */
  href?: (row: R, lang: string) => string;
  /** A status badge instead of text: i18n key and variant. */
  badge?: (row: R) => { label: string; variant: 'neutral' | 'info' | 'success' | 'warning' | 'error' };
  /**
   * A second badge under the first, on the page only (a delivery's link status under its status), so a status
   * computed from linked records costs no column of its own where the page is narrow; exports keep it as a column.
   */
  alsoBadge?: (row: R) => { label: string; variant: 'neutral' | 'info' | 'success' | 'warning' | 'error' } | null;
  /**
   * Left out of the page table (and the PDF, which prints what the page shows) but kept in the spreadsheet
   * exports, CSV and XLSX; or the other way round.
   */
  csvOnly?: boolean;
  pageOnly?: boolean;
}

export type FilterKind = 'text' | 'select' | 'dateFrom' | 'dateTo' | 'boolean';

export interface ListFilter<S extends ListSource = TenantScope> {
  key: string;
  label: string;
  kind: FilterKind;
  /** SQL column the filter applies to. */
  sql: string;
  /** Choices of a select filter: values and i18n keys (or plain labels with `raw`). */
  options?: { value: string; label: string; raw?: boolean }[];
  /** Longest value accepted (default FILTER_MAX_LENGTH). */
  maxLength?: number;
  /** A text filter's values must match this (e.g. a machine name). */
  pattern?: RegExp;
  /** Brings a value into the form the options and the query use (e.g. upper case), before it is checked. */
  normalise?: (value: string) => string;
  /** i18n key of the message for a refused value, instead of the kind's own. */
  message?: string;
  /** The condition, when it is not the kind's own on `sql` (e.g. days in the user's time zone). */
  where?: (qb: Knex.QueryBuilder, value: string, source: S) => void;
}

/** A sum over everything the filters show (e.g. the quantity in litres), computed with the count. */
export interface ListTotal {
  key: string;
  /** i18n key of the label. */
  label: string;
  /** SQL value per row that is summed (null counts as nothing), e.g. the quantity in litres. */
  sql: string;
  digits?: number;
}

export type ChoiceOptions = { value: string; label: string; raw?: boolean }[];

export interface ListDefinition<R, S extends ListSource = TenantScope> {
  id: string;
  columns: ListColumn<R>[];
  filters: ListFilter<S>[];
  /**
   * What the free-text search looks in: SQL columns (ILIKE, for small lists), or for the big tenant lists the
   * indexed search (its own texts by word, its references by number and name: src/records/list/search.ts).
   */
  search: ListSearch;
  defaultSort: { key: string; dir: 'asc' | 'desc' };
  /** Unique SQL expression that makes every order stable (the key). */
  tieBreaker: string;
  /** The base query: select and joins, limited by the source (tenant and locations, or who may see what). */
  query(source: S): Knex.QueryBuilder;
  /**
   * Columns from other tables (names), joined only to the rows a page or an export shows, after paging: the
   * count and the rows OFFSET skips never pay for them. `alias` is the list table's alias in `query`.
   */
  joined?: { alias: string; add(source: S, qb: Knex.QueryBuilder): Knex.QueryBuilder };
  /**
   * A deep page (KEYS_FIRST_FROM rows skipped or more) reads its keys first and then its rows by key
   * (inOrder()): OFFSET then skips index entries, which an index on the filters and the sort gives without
   * visiting the table, instead of whole rows. `alias` is the list table's alias in `query`; every sort
   * expression and the tieBreaker must read that table's own columns only (they order the rows read by key).
   */
  keysFirst?: { alias: string };
  /**
   * The tenant table whose change counter (Tabellenstand) tells whether a remembered count and sums still hold
   * (src/records/list/counts.ts); without it every page counts. Only for lists read through a TenantScope. A
   * list whose rows show something computed from other tables (a delivery's link status) follows those too.
   */
  countsFollow?: string | readonly string[];
  /**
   * What a page shows, not only which rows match, is read from the countsFollow tables and the master data
   * (whose versions never change) alone: a page may be shown again while their counters stand still
   * (src/records/list/pages.ts). Set only where the query, the joined columns and every computed column have
   * been checked for other tables; a list that reads one more table must follow it or leave this unset.
   */
  rememberPages?: boolean;
  /**
   * Count every matching row, never stopping at COUNT_CAP: for lists whose API shape has no `totalExact`
   * (users, tenants, the audit log: they always counted exactly).
   */
  countAll?: boolean;
  /** Maps a database row to the row the views and the API show. */
  toRow(db: Record<string, unknown>): R;
  /** Sums shown below the list, in the API (`totals`) and at the end of every export. */
  totals?: ListTotal[];
  /** Choices of select filters that come from the data (a tenant's locations, products, …), by filter key. */
  choices?(source: S): Promise<Record<string, ChoiceOptions>>;
}

/** The definition with the choices of its data-backed filters filled in for this source. */
export async function withChoices<R, S extends ListSource>(def: ListDefinition<R, S>, source: S): Promise<ListDefinition<R, S>> {
  if (!def.choices) return def;
  const choices = await def.choices(source);
  return { ...def, filters: def.filters.map((f) => (choices[f.key] ? { ...f, options: choices[f.key] } : f)) };
}

export interface ListState {
  q: string;
  filters: Record<string, string>;
  sort: { key: string; dir: 'asc' | 'desc' };
  page: number;
  pageSize: number;
  /** The request asked for its page size: the list's links keep asking for it. */
  pageSizeAsked?: boolean;
  /** The master numbers the search's words find, looked up before the statement (readListRequest). */
  references?: ResolvedReferences;
}

/** What the request's list parameters said, as typed (trimmed), so a form shows a refused value back. */
export interface ListInput {
  q: string;
  /** By filter key (an alias's value under the filter it stands for). */
  filters: Record<string, string>;
}

/**
 * Lists count at most this many rows exactly; beyond it they say "more than 10,000" and leave out the sums
 * (the exports have them), so a page never scans a big tenant's whole table to count it.
 */
export const COUNT_CAP = 10_000;

/** Longest search text and filter value a list accepts (the forms' maxlength). */
export const FILTER_MAX_LENGTH = 200;
const MAX_PAGE = 1_000_000;

/**
 * Parameters every list knows besides its filters (`q` only a list with search columns). `format` picks an
 * export; its writers check its value.
 */
export const LIST_PARAMETERS = ['q', 'sort', 'page', 'pageSize', 'format'] as const;

/**
 * The spec's parameter names for the filters whose keys name the number (`standortNr`, …): accepted on every
 * list that has the filter (and no filter of the alias's own name), pages and API alike.
 */
export const FILTER_ALIASES: Readonly<Record<string, string>> = { standort: 'standortNr', partner: 'partnerNr', produkt: 'produktNr' };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** No control characters: PostgreSQL refuses NUL in text, and no search or filter value needs one. */
const CONTROL = /[\u0000-\u001f\u007f]/;
const WHOLE = /^\d{1,9}$/;

/** A calendar day as YYYY-MM-DD that exists (2026-02-30 does not). */
export function isDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The filter an alias stands for in this list, if any. */
function aliasTarget<S extends ListSource>(filters: ListFilter<S>[], name: string): string | undefined {
  const target = Object.hasOwn(FILTER_ALIASES, name) ? FILTER_ALIASES[name] : undefined;
  return target && filters.some((f) => f.key === target) && !filters.some((f) => f.key === name) ? target : undefined;
}

/** Why a filter value is refused (i18n key and its values), or null when it is accepted. */
function refusal<S extends ListSource>(f: ListFilter<S>, value: string): { message: string; params?: Record<string, unknown> } | null {
  const max = f.maxLength ?? FILTER_MAX_LENGTH;
  if (value.length > max) return { message: 'list.errors.tooLong', params: { max } };
  if (CONTROL.test(value)) return { message: 'list.errors.characters' };
  const own = (fallback: string) => ({ message: f.message ?? fallback });
  switch (f.kind) {
    case 'text':
      return f.pattern && !f.pattern.test(value) ? own('list.errors.invalid') : null;
    case 'select':
      return (f.options ?? []).some((o) => o.value === value) ? null : own('list.errors.choice');
    case 'dateFrom':
    case 'dateTo':
      return isDay(value) ? null : own('list.errors.date');
    case 'boolean':
      return value === 'true' || value === 'false' ? null : own('list.errors.boolean');
  }
}

/**
 * Reads the list state from query parameters, strictly: every parameter must be one the list knows (the
 * common ones, its filters and their aliases), given once, with a value that makes sense (a filter's value
 * of its kind, an offered choice, a sortable column with asc or desc, a page from 1, a page size the rule
 * allows). Each refused parameter is an error naming it as it was sent; callers answer 400 and show no rows,
 * so a mistyped filter never looks like a list that was filtered. Empty values (a form's empty fields) are
 * no filter.
 */
export function parseListState<R, S extends ListSource>(
  def: ListDefinition<R, S>,
  query: Record<string, unknown>,
  defaultPageSize: number,
): { state: ListState; errors: FieldError[]; input: ListInput } {
  const errors: FieldError[] = [];
  // The message names the parameter (cut short: it is whatever the address said).
  const refuse = (field: string, message: string, params: Record<string, unknown> = {}) =>
    errors.push({ field, message, params: { name: field.slice(0, 60), ...params } });
  const filterOf = new Map(def.filters.map((f) => [f.key, f]));
  // A list without search columns does not know `q`: a search it would ignore must not look applied.
  const common = new Set<string>(LIST_PARAMETERS.filter((p) => p !== 'q' || hasSearch(def.search)));
  /** Filter key → the parameter its value came in (its key or an alias). */
  const sentAs = new Map<string, string>();
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    const target = filterOf.has(name) ? name : aliasTarget(def.filters, name);
    if (!target && !common.has(name)) {
      refuse(name, 'list.errors.unknown');
      continue;
    }
    // A repeated parameter arrives as an array, `a[b]=` as an object: one value each, or it is refused.
    if (typeof value !== 'string') {
      refuse(name, 'list.errors.once');
      continue;
    }
    if (!target) {
      given[name] = value.trim();
      continue;
    }
    const before = sentAs.get(target);
    if (before !== undefined) {
      refuse(name, 'list.errors.twice', { other: before });
      continue;
    }
    sentAs.set(target, name);
  }

  const input: ListInput = { q: given.q ?? '', filters: {} };
  let q = '';
  if (input.q.length > FILTER_MAX_LENGTH) refuse('q', 'list.errors.tooLong', { max: FILTER_MAX_LENGTH });
  else if (CONTROL.test(input.q)) refuse('q', 'list.errors.characters');
  else if (isIndexed(def.search) && searchWords(input.q).length > MAX_SEARCH_WORDS) refuse('q', 'list.errors.tooManyWords', { max: MAX_SEARCH_WORDS });
  else q = input.q;

  const filters: Record<string, string> = {};
  for (const f of def.filters) {
    const name = sentAs.get(f.key);
    if (name === undefined) continue;
    const typed = (query[name] as string).trim();
    input.filters[f.key] = typed;
    if (!typed) continue;
    const value = f.normalise ? f.normalise(typed) : typed;
    const refused = refusal(f, value);
    if (refused) refuse(name, refused.message, refused.params);
    else filters[f.key] = value;
  }
  // A range whose end lies before its start would show nothing: a mistake, said as such.
  for (const to of def.filters.filter((f) => f.kind === 'dateTo' && filters[f.key] !== undefined)) {
    const from = def.filters.find((f) => f.kind === 'dateFrom' && f.sql === to.sql && filters[f.key] !== undefined);
    if (from && filters[to.key] < filters[from.key]) {
      refuse(sentAs.get(to.key)!, 'list.errors.reversed', { from: sentAs.get(from.key) });
      delete filters[to.key];
    }
  }

  let sort = def.defaultSort;
  if (given.sort) {
    const match = /^([^:]+):(asc|desc)$/.exec(given.sort);
    const col = match && def.columns.find((c) => c.key === match[1] && c.sql);
    if (match && col) sort = { key: col.key, dir: match[2] as 'asc' | 'desc' };
    else refuse('sort', 'list.errors.sort', { fields: def.columns.filter((c) => c.sql).map((c) => c.key).join(', ') });
  }
  let page = 1;
  if (given.page) {
    if (WHOLE.test(given.page) && Number(given.page) >= 1 && Number(given.page) <= MAX_PAGE) page = Number(given.page);
    else refuse('page', 'list.errors.page', { max: MAX_PAGE });
  }
  let pageSize = defaultPageSize;
  if (given.pageSize) {
    // Above the cap is no mistake: the contract caps it, so the list answers the cap's worth and says so.
    const size = requestedPageSize(given.pageSize);
    if (size !== undefined) pageSize = size;
    else refuse('pageSize', 'list.errors.pageSize', { max: MAX_PAGE_SIZE });
  }
  return {
    state: { q, filters, sort, page, pageSize, ...(given.pageSize && pageSize !== defaultPageSize ? { pageSizeAsked: true } : {}) },
    errors,
    input,
  };
}

function escapeLike(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The base query with search and filters applied (no order, no paging). */
export function filtered<R, S extends ListSource>(def: ListDefinition<R, S>, source: S, state: ListState): Knex.QueryBuilder {
  const qb = def.query(source);
  if (state.q && hasSearch(def.search)) {
    if (!isIndexed(def.search)) whereColumnSearch(qb, def.search, state.q);
    else if (source instanceof TenantScope) whereIndexedSearch(qb, def.search, source.mandant, state.q, state.references);
    else throw new Error(`List ${def.id}: the indexed search needs a tenant scope`);
  }
  for (const f of def.filters) {
    const value = state.filters[f.key];
    if (value === undefined) continue;
    if (f.where) {
      f.where(qb, value, source);
      continue;
    }
    switch (f.kind) {
      case 'text':
        qb.whereRaw(`cast(${f.sql} as text) ilike ?`, [escapeLike(value)]);
        break;
      case 'select':
        qb.where(f.sql, value);
        break;
      case 'boolean':
        qb.where(f.sql, value === 'true');
        break;
      case 'dateFrom':
        qb.where(f.sql, '>=', value);
        break;
      case 'dateTo':
        qb.where(f.sql, '<=', value);
        break;
    }
  }
  return qb;
}

/** The query in the list's order: the sorted column, then the key (so the order is stable). */
export function ordered<R, S extends ListSource>(def: ListDefinition<R, S>, qb: Knex.QueryBuilder, state: ListState): Knex.QueryBuilder {
  const col = def.columns.find((c) => c.key === state.sort.key && c.sql) ?? def.columns.find((c) => c.key === def.defaultSort.key)!;
  return qb.orderByRaw(`${col.sql} ${state.sort.dir}${col.notNull ? '' : ' nulls last'}, ${def.tieBreaker} ${state.sort.dir}`);
}

export interface PageResult<R> {
  rows: R[];
  /** The number of rows the filters show, or COUNT_CAP when there are more (then `totalExact` is false). */
  total: number;
  totalExact: boolean;
  page: number;
  /** The list's sums (decimal strings) by key; null when more than COUNT_CAP rows would have to be summed. */
  totals: Record<string, string | null>;
}

/** What a list shows when its parameters were refused: no rows (never the unfiltered list). */
export function emptyPage<R>(state: ListState): PageResult<R> {
  return { rows: [], total: 0, totalExact: true, page: state.page, totals: {} };
}

/** The cap a list counts up to: COUNT_CAP, or none for lists that count everything (def.countAll). */
const capOf = (def: { countAll?: boolean }): number | null => (def.countAll ? null : COUNT_CAP);

/** The tenant scope whose change counter a list follows (def.countsFollow), if its source is one. */
const followedScope = <R, S extends ListSource>(def: ListDefinition<R, S>, source: S): TenantScope | null =>
  def.countsFollow && source instanceof TenantScope ? source : null;

const sumOf = (source: ListSource, t: ListTotal) => source.knex.raw(`coalesce(sum(??), 0) as ??`, [t.key, t.key]);

/** The query for count (up to `cap` + 1) and sums of what the filters show, over at most that many rows. */
function countQuery<R, S extends ListSource>(def: ListDefinition<R, S>, source: S, state: ListState, cap: number | null) {
  const inner = filtered(def, source, state).clearSelect().select(source.knex.raw('1 as one'));
  for (const t of def.totals ?? []) inner.select(source.knex.raw(`${t.sql} as ??`, [t.key]));
  if (cap !== null) inner.limit(cap + 1);
  const outer = source.knex.from(inner.as('rows')).select(source.knex.raw('count(*) as __count'));
  for (const t of def.totals ?? []) outer.select(sumOf(source, t));
  return outer;
}

/** Total and sums from a row of countQuery(). */
function readCount<R, S extends ListSource>(def: ListDefinition<R, S>, row: Record<string, unknown> | undefined, cap: number | null) {
  const count = Number(row?.__count ?? 0);
  const totalExact = cap === null || count <= cap;
  const totals: Record<string, string | null> = {};
  for (const t of def.totals ?? []) totals[t.key] = totalExact && row?.[t.key] != null ? String(row[t.key]) : null;
  return { total: totalExact ? count : cap!, totalExact, totals };
}

/** Count and sums of what the filters show; `cap` null counts and sums every row (the exports). */
export async function countAndTotals<R, S extends ListSource>(def: ListDefinition<R, S>, source: S, state: ListState, cap: number | null = capOf(def)) {
  return readCount(def, (await source.scoped(countQuery(def, source, state, cap)).first()) as Record<string, unknown> | undefined, cap);
}

/**
 * From this many skipped rows on, a list with def.keysFirst reads a page's keys first. Measured on 100,000
 * deliveries (bench/README.md, 2026-12-03, third): by key the database's time grows half as fast with the rows
 * skipped; below 100 to 200 (embedded, PostgreSQL) the second read of each row costs more than skipping whole rows.
 */
export const KEYS_FIRST_FROM = 200;

/**
 * A page's rows in the list's order: filtered, ordered and cut by LIMIT and OFFSET. Deep pages of a list with
 * def.keysFirst (see there) choose the keys so, then read each key's row by the list's own query, in a lateral
 * join: one look-up by key per row whatever the planner thinks of the keys' number (a generic plan does not
 * know the page size), and the row seen through the same tenant and location conditions as the keys
 * (list-plans.test.ts holds the plan).
 */
function inOrder<R, S extends ListSource>(def: ListDefinition<R, S>, source: S, state: ListState, page: number): Knex.QueryBuilder {
  const offset = (page - 1) * state.pageSize;
  const paged = ordered(def, filtered(def, source, state), state).limit(state.pageSize).offset(offset);
  if (!def.keysFirst || offset < KEYS_FIRST_FROM) return paged;
  const { knex } = source;
  const { alias } = def.keysFirst;
  const keys = paged.clearSelect().select(knex.raw(`${def.tieBreaker} as __key`));
  const row = def.query(source).whereRaw(`${def.tieBreaker} = k.__key`);
  // OFFSET 0 keeps the planner from pulling the row's query up into a join, which a generic plan, guessing at
  // many keys, would run as a hash join over the tenant's whole table.
  return ordered(def, knex.from(keys.as('k')).joinRaw(`join lateral (? offset 0) as ${alias} on true`, [row as unknown as Knex.Raw]).select(`${alias}.*`), state);
}

/** The rows of one page, with the joined columns (def.joined) added to those rows only. */
function pageRows<R, S extends ListSource>(def: ListDefinition<R, S>, source: S, state: ListState, page: number): Knex.QueryBuilder {
  const paged = inOrder(def, source, state, page);
  if (!def.joined) return paged;
  const { alias, add } = def.joined;
  return source.scoped(ordered(def, add(source, source.knex.from(paged.as(alias)).select(`${alias}.*`)), state));
}

/** A query of the list's rows with the joined columns (def.joined) added. */
export const withJoined = <R, S extends ListSource>(def: ListDefinition<R, S>, source: S, qb: Knex.QueryBuilder) => (def.joined ? def.joined.add(source, qb) : qb);

/**
 * A page's statement runs its generic plan, made once per connection (prepared(), src/db/knex-internals.ts):
 * planning it for each page's values cost more than running it. list-plans.test.ts holds the generic plans of
 * the movement lists as it holds the custom ones.
 */
const GENERIC_PLAN = { generic: true };

/**
 * The one statement of a list page (count, sums and the page's rows), as fetchPage sends it (list-plans.test.ts
 * EXPLAINs it). With a change counter (def.countsFollow) it reads the counter too, and counts only when the
 * counter no longer stands at `knownStand` (the database skips the count's plan otherwise).
 */
export function pageStatement<R, S extends ListSource>(
  def: ListDefinition<R, S>,
  source: S,
  state: ListState,
  cap: number | null = capOf(def),
  knownStand?: string,
): Knex.QueryBuilder {
  const { knex } = source;
  const rowsQuery = pageRows(def, source, state, state.page).select(knex.raw('1 as __row'));
  const count = countQuery(def, source, state, cap);
  const scope = followedScope(def, source);
  if (!scope) {
    return prepared(source.scoped(knex.select('c.*', 'r.*').from(count.as('c')).joinRaw('left join lateral ? as r on true', [rowsQuery as unknown as Knex.Raw])), GENERIC_PLAN);
  }
  // Several tables (a status computed from linked records): the sum of their counters, which grows whenever one does.
  const tables = ([] as string[]).concat(def.countsFollow!);
  const one = 'coalesce((select stand from tabellenstaende where mandant = ? and tabelle = ?), 0)';
  const stand = knex.raw(`(select ${tables.map(() => one).join(' + ')} as __stand) as g`, tables.flatMap((table) => [scope.mandant, table]));
  return prepared(scope.scoped(
    knex
      .select('g.__stand', 'c.*', 'r.*')
      .from(stand)
      // OFFSET 0 keeps the planner from pulling the subquery up into a join filter (PostgreSQL 17 would, and
      // then count anyway): on its own, its condition is a one-time filter that skips the count's plan.
      .joinRaw('left join lateral (select * from ? as cq where g.__stand is distinct from ?::bigint offset 0) as c on true', [count as unknown as Knex.Raw, knownStand ?? null])
      .joinRaw('left join lateral ? as r on true', [rowsQuery as unknown as Knex.Raw]),
  ), GENERIC_PLAN);
}

/**
 * One page with its total and sums, in one statement: the count joined with the page's rows (a lateral join,
 * so a page of an empty list is still the count's one row). A page beyond the end shows the last page
 * (`clampPage`, for pages, where an old link should still show something; one more statement), or nothing
 * (the API answers the page it was asked for).
 */
export async function fetchPage<R, S extends ListSource>(
  def: ListDefinition<R, S>,
  source: S,
  state: ListState,
  cap: number | null = capOf(def),
  { clampPage = true }: { clampPage?: boolean } = {},
): Promise<PageResult<R>> {
  const scope = followedScope(def, source);
  // A search that finds records by their partner's, location's or product's name follows those names too, which
  // the change counter does not: its count is taken every time, and its pages are not kept.
  const byNames = Boolean(state.q) && isIndexed(def.search) && Boolean(def.search.references?.length);
  const key = scope && !byNames ? countKey(def.id, scope, state, cap) : null;
  // The whole page as this process last showed it, while its tables stand where they stood then (pages.ts).
  const stand = key && def.rememberPages ? scope!.standOf(([] as string[]).concat(def.countsFollow!)) : null;
  const keptAs = stand ? pageKey(def.id, scope!, state, cap, clampPage) : null;
  const kept = keptAs ? recallPage<R>(keptAs, stand!) : undefined;
  if (kept) return kept;
  const known = key ? recall(key) : undefined;
  const joined = (await pageStatement(def, source, state, cap, known?.stand)) as Record<string, unknown>[];
  // The count came back (first time, or the table changed since): remember it; else the remembered one holds.
  let countRow = joined[0];
  if (key && countRow?.__count != null) remember(key, { stand: String(countRow.__stand), row: countRow });
  else if (known) countRow = known.row;
  const { total, totalExact, totals } = readCount(def, countRow, cap);
  let rows = joined.filter((r) => r.__row != null);
  const lastPage = Math.max(1, Math.ceil(total / state.pageSize));
  const page = clampPage ? Math.min(state.page, lastPage) : state.page;
  if (page !== state.page) rows = (await pageRows(def, source, state, page)) as Record<string, unknown>[];
  const result = { rows: rows.map((r) => def.toRow(r)), total, totalExact, page, totals };
  // Kept at the counters its own statement read (not the session's): its rows are the tables' at exactly those.
  // A clamped page was read by a second statement, perhaps at other counters: not kept.
  const read = joined[0]?.__stand;
  if (keptAs && page === state.page && read != null) return rememberPage(keptAs, { tabellen: String(read), stammdaten: stand!.stammdaten }, result);
  return result;
}

/**
 * The query string of a list state with some parts changed (for sort links, paging and the export). With
 * `defaultSort`, the list's own order is left out of the address (lists whose links never named it).
 */
export function listHref(
  base: string,
  state: ListState,
  change: Partial<ListState> & { format?: string } = {},
  defaultSort?: ListState['sort'],
): string {
  const next = { ...state, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  for (const [k, v] of Object.entries(next.filters)) params.set(k, v);
  if (!defaultSort || next.sort.key !== defaultSort.key || next.sort.dir !== defaultSort.dir) params.set('sort', `${next.sort.key}:${next.sort.dir}`);
  if (next.pageSizeAsked) params.set('pageSize', String(next.pageSize));
  if (change.format) params.set('format', change.format);
  else if (next.page > 1) params.set('page', String(next.page));
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** The fraction digits a number column shows for a value ('asStored': those the stored value has, no trailing zeros). */
export function fractionDigits(digits: number | 'asStored' | undefined, value: unknown): number {
  return digits === 'asStored' ? (String(value).split('.')[1] ?? '').replace(/0+$/, '').length : digits ?? 0;
}

export function cellText<R>(col: ListColumn<R>, row: R, fmt: Formatter, t: (k: string) => string): string {
  if (col.badge) return t(col.badge(row).label);
  const value = (row as Record<string, unknown>)[col.key];
  if (value == null) return '';
  switch (col.kind) {
    case 'number': {
      const suffix = col.suffix?.(row);
      return fmt.number(value as number | string, fractionDigits(col.digits, value)) + (suffix ? ` ${suffix}` : '');
    }
    case 'date':
      return fmt.date(value as string);
    case 'datetime':
      return fmt.dateTime(value as string);
    case 'boolean':
      return t(value ? 'list.yes' : 'list.no');
    default:
      return String(value);
  }
}

type Translate = (k: string, o?: Record<string, unknown>) => string;

/** How a page names the common parameters in its refusals (a filter is named by its label; anything else as sent). */
const PARAMETER_LABELS: Record<string, string> = { q: 'list.search', format: 'list.export' };

/**
 * Refused list parameters as a page shows them (views/partials/ui/list-errors.ejs): `field` is the filter the
 * parameter set (its alias resolved), so the form marks that field; `label` names it as the form does, or
 * names the parameter as it was sent.
 */
export function listErrorsView<S extends ListSource>(filters: ListFilter<S>[], errors: FieldError[], t: Translate) {
  return errors.map((e) => {
    const filter = filters.find((f) => f.key === e.field) ?? filters.find((f) => f.key === aliasTarget(filters, e.field));
    const label = filter ? t(filter.label) : PARAMETER_LABELS[e.field] ? t(PARAMETER_LABELS[e.field]) : e.field;
    return { field: filter?.key ?? e.field, param: e.field, label, message: t(e.message, e.params ?? {}) };
  });
}

/** The links of a list's exports (views/partials/ui/list-exports.ejs): what the list shows, as CSV, Excel or PDF. */
export function exportLinks(base: string, state: ListState, t: Translate, defaultSort?: ListState['sort']) {
  return EXPORT_FORMATS.map((format) => ({ format, label: t(`list.exportAs.${format}`), href: listHref(base, state, { format }, defaultSort) }));
}

/** Everything views/partials/ui/list-page.ejs needs, translated and with its links built. */
export function listView<R, S extends ListSource>(
  def: ListDefinition<R, S>,
  state: ListState,
  result: PageResult<R>,
  opts: { base: string; lang: string; t: Translate; fmt: Formatter; caption: string; errors?: FieldError[]; input?: ListInput },
) {
  const { t, lang, base, fmt } = opts;
  const current = { ...state, page: result.page };
  const columns = def.columns
    .filter((c) => !c.csvOnly)
    .map((c) => ({
      key: c.key,
      label: t(c.label),
      numeric: c.kind === 'number',
      sortable: Boolean(c.sql),
      href: c.href ? (r: R) => c.href!(r, lang) : undefined,
      badge: c.badge ? (r: R) => ({ ...c.badge!(r), label: t(c.badge!(r).label) }) : undefined,
      alsoBadge: c.alsoBadge ? (r: R) => { const b = c.alsoBadge!(r); return b ? { ...b, label: t(b.label) } : null; } : undefined,
      // A text cell may be cut with an ellipsis at 1366 px (main.css): it carries its full text as `title`, so the
      // tooltip needs no script. Numbers, dates, yes/no and badges are never cut and get none.
      cut: !c.badge && (c.kind ?? 'text') === 'text',
      source: c,
    }));
  return {
    caption: opts.caption,
    base,
    // What the request said, refused values included, so the form shows what the user typed.
    q: opts.input?.q ?? state.q,
    filters: def.filters.map((f) => ({
      ...f,
      label: t(f.label),
      value: state.filters[f.key] ?? opts.input?.filters[f.key] ?? '',
      options: f.options?.map((o) => ({ value: o.value, label: o.raw ? o.label : t(o.label) })),
    })),
    active: Boolean(state.q) || Object.keys(state.filters).length > 0,
    errors: listErrorsView(def.filters, opts.errors ?? [], t),
    columns,
    rows: result.rows,
    total: result.total,
    page: result.page,
    pageSize: state.pageSize,
    sort: state.sort,
    sortHref: (key: string) => listHref(base, current, { sort: { key, dir: state.sort.key === key && state.sort.dir === 'asc' ? 'desc' : 'asc' }, page: 1 }),
    href: (page: number) => listHref(base, current, { page }),
    exports: exportLinks(base, current, t),
    cell: (row: R, col: { source: ListColumn<R> }) => cellText(col.source, row, fmt, t),
    /**
     * The table's HTML as `render` makes it, made once per variant for a page this process remembers (pages.ts):
     * the same rows, language, formats, caption and address of the list's state (which its sort and page links
     * are made from, a page size asked for included) make the same table. Only without refused parameters
     * (their page is never remembered) and with a formatter that says what it depends on.
     */
    table: (render: () => string) =>
      fmt.variant === undefined || opts.errors?.length ? render() : renderedOnce(result, JSON.stringify([fmt.variant, lang, opts.caption, listHref(base, current)]), render),
    totalExact: result.totalExact,
    totals: (def.totals ?? []).map((x) => ({ label: t(x.label), value: result.totals[x.key] == null ? null : fmt.number(result.totals[x.key]!, x.digits ?? 0) })),
  };
}
