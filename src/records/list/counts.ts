// Counts and sums of list pages, remembered while they are still right. A list page counts up to 10,000
// matching rows and sums them (src/records/list/engine.ts): on a big trader's deliveries that is most of a page's cost,
// and it is the same for every page of the same filters until someone changes the table. Lists whose table
// has a change counter (Tabellenstand, migrations/20261126010000_tabellenstaende.ts) send the counter's value
// they remember with the page's statement; the database skips the count when the counter still stands there
// and returns it otherwise, in the same statement and snapshot as the rows. So a remembered count is never
// stale, on one instance or many, and costs no extra round trip.
import type { TenantScope } from '../../db/scope.js';
import type { ListState } from './engine.js';

/** The count row (count and sums) as the statement returned it, and the counter's value it was taken at. */
export interface RememberedCount {
  stand: string;
  row: Record<string, unknown>;
}

/** At most this many filter combinations are remembered (the least recently used goes first); about 1 KB each. */
const MAX_ENTRIES = 5000;
const remembered = new Map<string, RememberedCount>();

/** What a count depends on: tenant, list, the scope's locations, search, filters and cap (not sort or page). */
export function countKey(listId: string, scope: TenantScope, state: ListState, cap: number | null): string {
  const filters = Object.entries(state.filters).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([scope.mandant, listId, scope.standorte, state.q, filters, cap]);
}

export function recall(key: string): RememberedCount | undefined {
  const hit = remembered.get(key);
  if (hit) {
    // Most recently used last, so the oldest is first when the map is full.
    remembered.delete(key);
    remembered.set(key, hit);
  }
  return hit;
}

export function remember(key: string, count: RememberedCount): void {
  remembered.delete(key);
  remembered.set(key, count);
  if (remembered.size > MAX_ENTRIES) remembered.delete(remembered.keys().next().value!);
}
