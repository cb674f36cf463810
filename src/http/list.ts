// The list-page machinery, built once: each feature declares its columns, filters and base query; this module
// parses the list state from the URL (search, filters, sort, page) and runs the query through the tenant
// scope; the exports of exactly what the filters show read through it too (src/records/export). Pages (views/partials/ui/list-page.ejs) and
// the JSON API (`{data,total,page,pageSize}`) share it, so a list behaves the same everywhere.
import type { Knex } from 'knex';
import { z } from 'zod';
import type { TenantScope } from '../db/scope.js';
import type { FieldError } from './errors.js';
import { countKey, recall, remember } from './list-counts.js';
import type { Formatter } from './format.js';
import { EXPORT_FORMATS } from '../records/export/formats.js';

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
  /** Fraction digits of numbers. */
  digits?: number;
  /** Text after a number on screen, e.g. its unit ("24.000 L"). */
  suffix?: (row: R) => string | null;
  /** Link of the cell (the first column usually links to the detail page). */
  href?: (row: R, lang: string) => string;
  /** A status badge instead of text: i18n key and variant. */
  badge?: (row: R) => { label: string; variant: 'neutral' | 'info' | 'success' | 'warning' | 'error' };
  /**
   * Left out of the page table (and the PDF, which prints what the page shows) but kept in the spreadsheet
   * exports, CSV and XLSX; or the other way round.
   */
  csvOnly?: boolean;
  pageOnly?: boolean;
}

export type FilterKind = 'text' | 'select' | 'dateFrom' | 'dateTo' | 'boolean';

export interface ListFilter {
  key: string;
  label: string;
  kind: FilterKind;
  /** SQL column the filter applies to. */
  sql: string;
  /** Choices of a select filter: values and i18n keys (or plain labels with `raw`). */
  options?: { value: string; label: string; raw?: boolean }[];
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

export interface ListDefinition<R> {
  id: string;
  columns: ListColumn<R>[];
  filters: ListFilter[];
  /** SQL columns the free-text search looks in. */
  search: string[];
  defaultSort: { key: string; dir: 'asc' | 'desc' };
  /** Unique SQL expression that makes every order stable (the key). */
  tieBreaker: string;
  /** The base query: select and joins, limited by the scope (tenant and locations). */
  query(scope: TenantScope): Knex.QueryBuilder;
  /**
   * Columns from other tables (names), joined only to the rows a page or an export shows, after paging: the
   * count and the rows OFFSET skips never pay for them. `alias` is the list table's alias in `query`.
   */
  joined?: { alias: string; add(scope: TenantScope, qb: Knex.QueryBuilder): Knex.QueryBuilder };
  /**
   * The table whose change counter (Tabellenstand) tells whether a remembered count and sums still hold
   * (src/http/list-counts.ts); without it every page counts.
   */
  countsFollow?: string;
  /** Maps a database row to the row the views and the API show. */
  toRow(db: Record<string, unknown>): R;
  /** Sums shown below the list, in the API (`totals`) and at the end of every export. */
  totals?: ListTotal[];
  /** Choices of select filters that come from the tenant's data (its locations, products, …), by filter key. */
  choices?(scope: TenantScope): Promise<Record<string, ChoiceOptions>>;
}

/** The definition with the choices of its data-backed filters filled in for this scope. */
export async function withChoices<R>(def: ListDefinition<R>, scope: TenantScope): Promise<ListDefinition<R>> {
  if (!def.choices) return def;
  const choices = await def.choices(scope);
  return { ...def, filters: def.filters.map((f) => (choices[f.key] ? { ...f, options: choices[f.key] } : f)) };
}

export interface ListState {
  q: string;
  filters: Record<string, string>;
  sort: { key: string; dir: 'asc' | 'desc' };
  page: number;
  pageSize: number;
}

export const MAX_PAGE_SIZE = 500;

/**
 * Lists count at most this many rows exactly; beyond it they say "more than 10,000" and leave out the sums
 * (the exports have them), so a page never scans a big tenant's whole table to count it.
 */
export const COUNT_CAP = 10_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads the list state from query parameters. Values that make no sense are dropped (and reported), so a
 * hand-edited or outdated bookmark still shows a list instead of an error.
 */
export function parseListState<R>(def: ListDefinition<R>, query: Record<string, unknown>, defaultPageSize: number): { state: ListState; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const q = str(query.q).trim().slice(0, 200);
  const filters: Record<string, string> = {};
  for (const f of def.filters) {
    const value = str(query[f.key]).trim();
    if (!value) continue;
    const ok =
      value.length <= 200 &&
      (f.kind === 'text' ||
        (f.kind === 'select' && (f.options ?? []).some((o) => o.value === value)) ||
        ((f.kind === 'dateFrom' || f.kind === 'dateTo') && DATE.test(value) && !Number.isNaN(Date.parse(value))) ||
        (f.kind === 'boolean' && (value === 'true' || value === 'false')));
    if (ok) filters[f.key] = value;
    else errors.push({ field: f.key, message: 'list.invalidFilter' });
  }
  let sort = def.defaultSort;
  const rawSort = str(query.sort);
  if (rawSort) {
    const [key, dir = 'asc'] = rawSort.split(':');
    const col = def.columns.find((c) => c.key === key && c.sql);
    if (col && (dir === 'asc' || dir === 'desc')) sort = { key, dir };
    else errors.push({ field: 'sort', message: 'list.invalidSort' });
  }
  const page = z.coerce.number().int().min(1).max(1_000_000).safeParse(query.page);
  const size = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).safeParse(query.pageSize);
  if (query.page !== undefined && !page.success) errors.push({ field: 'page', message: 'list.invalidPage' });
  return {
    state: {
      q,
      filters,
      sort,
      page: page.success ? page.data : 1,
      pageSize: size.success ? size.data : Math.min(defaultPageSize, MAX_PAGE_SIZE),
    },
    errors,
  };
}

function escapeLike(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The base query with search and filters applied (no order, no paging). */
export function filtered<R>(def: ListDefinition<R>, scope: TenantScope, state: ListState): Knex.QueryBuilder {
  const qb = def.query(scope);
  if (state.q && def.search.length) {
    const like = escapeLike(state.q);
    qb.where((w) => def.search.forEach((col) => w.orWhereRaw(`cast(${col} as text) ilike ?`, [like])));
  }
  for (const f of def.filters) {
    const value = state.filters[f.key];
    if (value === undefined) continue;
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
export function ordered<R>(def: ListDefinition<R>, qb: Knex.QueryBuilder, state: ListState): Knex.QueryBuilder {
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

const sumOf = (scope: TenantScope, t: ListTotal) => scope.knex.raw(`coalesce(sum(??), 0) as ??`, [t.key, t.key]);

/** The query for count (up to `cap` + 1) and sums of what the filters show, over at most that many rows. */
function countQuery<R>(def: ListDefinition<R>, scope: TenantScope, state: ListState, cap: number | null) {
  const inner = filtered(def, scope, state).clearSelect().select(scope.knex.raw('1 as one'));
  for (const t of def.totals ?? []) inner.select(scope.knex.raw(`${t.sql} as ??`, [t.key]));
  if (cap !== null) inner.limit(cap + 1);
  const outer = scope.knex.from(inner.as('rows')).select(scope.knex.raw('count(*) as __count'));
  for (const t of def.totals ?? []) outer.select(sumOf(scope, t));
  return outer;
}

/** Total and sums from a row of countQuery(). */
function readCount<R>(def: ListDefinition<R>, row: Record<string, unknown> | undefined, cap: number | null) {
  const count = Number(row?.__count ?? 0);
  const totalExact = cap === null || count <= cap;
  const totals: Record<string, string | null> = {};
  for (const t of def.totals ?? []) totals[t.key] = totalExact && row?.[t.key] != null ? String(row[t.key]) : null;
  return { total: totalExact ? count : cap!, totalExact, totals };
}

/** Count and sums of what the filters show; `cap` null counts and sums every row (the exports). */
export async function countAndTotals<R>(def: ListDefinition<R>, scope: TenantScope, state: ListState, cap: number | null = COUNT_CAP) {
  return readCount(def, (await scope.scoped(countQuery(def, scope, state, cap)).first()) as Record<string, unknown> | undefined, cap);
}

/** The rows of one page, with the joined columns (def.joined) added to those rows only. */
function pageRows<R>(def: ListDefinition<R>, scope: TenantScope, state: ListState, page: number): Knex.QueryBuilder {
  const paged = ordered(def, filtered(def, scope, state), state).limit(state.pageSize).offset((page - 1) * state.pageSize);
  if (!def.joined) return paged;
  const { alias, add } = def.joined;
  return scope.scoped(ordered(def, add(scope, scope.knex.from(paged.as(alias)).select(`${alias}.*`)), state));
}

/** A query of the list's rows with the joined columns (def.joined) added. */
export const withJoined = <R>(def: ListDefinition<R>, scope: TenantScope, qb: Knex.QueryBuilder) => (def.joined ? def.joined.add(scope, qb) : qb);

/**
 * The one statement of a list page (count, sums and the page's rows), as fetchPage sends it (list-plans.test.ts
 * EXPLAINs it). With a change counter (def.countsFollow) it reads the counter too, and counts only when the
 * counter no longer stands at `knownStand` (the database skips the count's plan otherwise).
 */
export function pageStatement<R>(def: ListDefinition<R>, scope: TenantScope, state: ListState, cap = COUNT_CAP, knownStand?: string): Knex.QueryBuilder {
  const { knex } = scope;
  const rowsQuery = pageRows(def, scope, state, state.page).select(knex.raw('1 as __row'));
  const count = countQuery(def, scope, state, cap);
  if (!def.countsFollow) {
    return scope.scoped(knex.select('c.*', 'r.*').from(count.as('c')).joinRaw('left join lateral ? as r on true', [rowsQuery as unknown as Knex.Raw]));
  }
  const stand = knex.raw('(select coalesce((select stand from tabellenstaende where mandant = ? and tabelle = ?), 0) as __stand) as g', [scope.mandant, def.countsFollow]);
  return scope.scoped(
    knex
      .select('g.__stand', 'c.*', 'r.*')
      .from(stand)
      // OFFSET 0 keeps the planner from pulling the subquery up into a join filter (PostgreSQL 17 would, and
      // then count anyway): on its own, its condition is a one-time filter that skips the count's plan.
      .joinRaw('left join lateral (select * from ? as cq where g.__stand is distinct from ?::bigint offset 0) as c on true', [count as unknown as Knex.Raw, knownStand ?? null])
      .joinRaw('left join lateral ? as r on true', [rowsQuery as unknown as Knex.Raw]),
  );
}

/**
 * One page with its total and sums, in one statement: the count joined with the page's rows (a lateral join,
 * so a page of an empty list is still the count's one row). Only a page beyond the end needs a second
 * statement, for the last page.
 */
export async function fetchPage<R>(def: ListDefinition<R>, scope: TenantScope, state: ListState, cap = COUNT_CAP): Promise<PageResult<R>> {
  const key = def.countsFollow ? countKey(def.id, scope, state, cap) : null;
  const known = key ? recall(key) : undefined;
  const joined = (await pageStatement(def, scope, state, cap, known?.stand)) as Record<string, unknown>[];
  // The count came back (first time, or the table changed since): remember it; else the remembered one holds.
  let countRow = joined[0];
  if (key && countRow?.__count != null) remember(key, { stand: String(countRow.__stand), row: countRow });
  else if (known) countRow = known.row;
  const { total, totalExact, totals } = readCount(def, countRow, cap);
  let rows = joined.filter((r) => r.__row != null);
  // A page beyond the end shows the last page.
  const lastPage = Math.max(1, Math.ceil(total / state.pageSize));
  const page = Math.min(state.page, lastPage);
  if (page !== state.page) rows = (await pageRows(def, scope, state, page)) as Record<string, unknown>[];
  return { rows: rows.map((r) => def.toRow(r)), total, totalExact, page, totals };
}

/** The query string of a list state with some parts changed (for sort links, paging and the export). */
export function listHref(base: string, state: ListState, change: Partial<ListState> & { format?: string } = {}): string {
  const next = { ...state, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  for (const [k, v] of Object.entries(next.filters)) params.set(k, v);
  params.set('sort', `${next.sort.key}:${next.sort.dir}`);
  if (change.format) params.set('format', change.format);
  else if (next.page > 1) params.set('page', String(next.page));
  return `${base}?${params.toString()}`;
}

export function cellText<R>(col: ListColumn<R>, row: R, fmt: Formatter, t: (k: string) => string): string {
  if (col.badge) return t(col.badge(row).label);
  const value = (row as Record<string, unknown>)[col.key];
  if (value == null) return '';
  switch (col.kind) {
    case 'number': {
      const suffix = col.suffix?.(row);
      return fmt.number(value as number | string, col.digits ?? 0) + (suffix ? ` ${suffix}` : '');
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

/** Everything views/partials/ui/list-page.ejs needs, translated and with its links built. */
export function listView<R>(
  def: ListDefinition<R>,
  state: ListState,
  result: PageResult<R>,
  opts: { base: string; lang: string; t: (k: string, o?: Record<string, unknown>) => string; fmt: Formatter; caption: string; errors?: FieldError[] },
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
      source: c,
    }));
  return {
    caption: opts.caption,
    base,
    q: state.q,
    filters: def.filters.map((f) => ({
      ...f,
      label: t(f.label),
      value: state.filters[f.key] ?? '',
      options: f.options?.map((o) => ({ value: o.value, label: o.raw ? o.label : t(o.label) })),
    })),
    active: Boolean(state.q) || Object.keys(state.filters).length > 0,
    errors: (opts.errors ?? []).map((e) => ({ field: e.field, message: t(e.message, e.params ?? {}) })),
    columns,
    rows: result.rows,
    total: result.total,
    page: result.page,
    pageSize: state.pageSize,
    sort: state.sort,
    sortHref: (key: string) => listHref(base, current, { sort: { key, dir: state.sort.key === key && state.sort.dir === 'asc' ? 'desc' : 'asc' }, page: 1 }),
    href: (page: number) => listHref(base, current, { page }),
    exports: EXPORT_FORMATS.map((format) => ({ format, label: t(`list.exportAs.${format}`), href: listHref(base, current, { format }) })),
    cell: (row: R, col: { source: ListColumn<R> }) => cellText(col.source, row, fmt, t),
    totalExact: result.totalExact,
    totals: (def.totals ?? []).map((x) => ({ label: t(x.label), value: result.totals[x.key] == null ? null : fmt.number(result.totals[x.key]!, x.digits ?? 0) })),
  };
}
