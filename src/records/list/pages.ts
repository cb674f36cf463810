// List pages remembered while their tables stand still. A page of a list whose tables have change counters
// (def.countsFollow: the deliveries, with the linked records their status is computed from) and that shows
// nothing read from other tables but the master data (def.rememberPages: Einlieferungen and Ablieferungen) is
// the same page for every request of the same tenant, locations, search, filters, sort and page, until one of those tables
// changes: this process keeps the last pages it showed, each with the counters it was read at, and shows one
// again, without asking the database, to a request whose session read (src/http/session-store.ts) found
// the same counters.
//
// Why a remembered page is never stale (the same argument as src/records/list/counts.ts):
// - a counter moves at the COMMIT of every transaction that changes its table, in that commit, and only upwards;
//   the sum of a list's counters moves whenever one of them does;
// - a page is kept under the sum its own statement read in its own snapshot (pageStatement's `__stand`): its
//   rows are exactly the tables' rows at that sum, no older and no newer;
// - a request uses it only when its session read, earlier in the same request, found that same sum: the rows it
//   would read itself are those. The master-data stand must match too (the search's names, the joined names).
// A request that has written stops using the counters (TenantRequest.writing()); its next page, after the
// redirect, reads counters that count its write. With several processes each keeps its own pages.
import { deepFreeze } from '../../db/stand-cache.js';
import type { TenantScope } from '../../db/scope.js';
import type { ListState, PageResult } from './engine.js';

/** The counters a page was read at: the sum of its list's tables' and the master-data stand. */
export interface PageStand {
  tabellen: string;
  stammdaten: string;
}

interface RememberedPage {
  stand: PageStand;
  result: PageResult<unknown>;
}

/**
 * At most this many rows are kept, in all (the least recently used page goes first; a page counts one more than
 * its rows, so empty pages count too): about 40 pages of 50 rows, a few megabytes, so the worker's memory
 * bound (bench: the CSV export's) holds.
 */
export const MAX_REMEMBERED_ROWS = 2000;
const weight = (result: PageResult<unknown>) => result.rows.length + 1;
const remembered = new Map<string, RememberedPage>();
let rowsKept = 0;

/** What a page depends on: tenant, list, the scope's locations, and the whole list state (not the language). */
export function pageKey(listId: string, scope: TenantScope, state: ListState, cap: number | null, clampPage: boolean): string {
  const filters = Object.entries(state.filters).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([scope.mandant, listId, scope.standorte, state.q, state.references ?? null, filters, state.sort, state.page, state.pageSize, cap, clampPage]);
}

function forget(key: string): void {
  const gone = remembered.get(key);
  if (!gone) return;
  remembered.delete(key);
  rowsKept -= weight(gone.result);
}

/** The page kept under `key` if it was read at exactly `stand`; a page read at other counters is dropped. */
export function recallPage<R>(key: string, stand: PageStand): PageResult<R> | undefined {
  const hit = remembered.get(key);
  if (!hit) return undefined;
  forget(key);
  if (hit.stand.tabellen !== stand.tabellen || hit.stand.stammdaten !== stand.stammdaten) return undefined;
  // Most recently used last, so the oldest is first when there are too many rows.
  remembered.set(key, hit);
  rowsKept += weight(hit.result);
  return hit.result as PageResult<R>;
}

/** Keeps a page (frozen: every request that is shown it gets the same objects) read at `stand`. */
export function rememberPage<R>(key: string, stand: PageStand, result: PageResult<R>): PageResult<R> {
  forget(key);
  if (weight(result) > MAX_REMEMBERED_ROWS) return result;
  remembered.set(key, { stand, result: deepFreeze(result) });
  renderings.set(result, new Map());
  rowsKept += weight(result);
  while (rowsKept > MAX_REMEMBERED_ROWS) forget(remembered.keys().next().value!);
  return result;
}

/**
 * The HTML of a remembered page's table, by variant (what else it depends on: language, formats, the list's
 * address and caption), made once by `render` and kept with the page, so it goes when the page goes. At most
 * MAX_RENDERINGS variants per page. A page that is not remembered is rendered every time.
 */
const renderings = new WeakMap<object, Map<string, string>>();
const MAX_RENDERINGS = 4;

export function renderedOnce(result: PageResult<unknown>, variant: string, render: () => string): string {
  const kept = renderings.get(result);
  const hit = kept?.get(variant);
  if (hit !== undefined) return hit;
  const html = render();
  if (kept && kept.size < MAX_RENDERINGS) kept.set(variant, html);
  return html;
}

/** For tests: forgets every page. */
export function forgetPages(): void {
  remembered.clear();
  rowsKept = 0;
}
