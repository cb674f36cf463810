// Values read from the master tables (partners, locations, products), kept by this process across requests
// while the tenant's master-data stand has not moved; and records read by their number (a detail page's), kept
// while their own table's counter has not moved (TenantScope.rememberWhileTable). The master-data stand is the
// sum of the three tables' change counters (migrations/20261205000000_stammdaten_stand.ts), summed here from the
// counters read in the same statement as the session (stammdatenStand), so knowing it costs no round trip; the
// filter choices of a movement list then cost none either.
//
// Why a value is never stale: a counter moves at the COMMIT of every transaction that changes its table, in
// the same commit as the change. A request whose session read saw stand n reads nothing older than that: a
// value kept under n was read later than some session read that saw n, so it holds every change counted in n
// (and perhaps newer ones, which that request may see anyway). Once a request writes, its scopes stop using the
// stand (TenantRequest.writing()). With several processes, each keeps its own values; none is shared.

/** The master tables whose counters make the stand (migrations/20261205000000_stammdaten_stand.ts, TABLES). */
export const MASTER_TABLES = ['produkte', 'standorte', 'tauschpartner'] as const;

/**
 * Every table with a change counter (a constraint trigger `<table>_stand`, migrations/20261126010000_tabellenstaende.ts
 * and the migrations that add one): only reads of these may be kept under their counter, since a table without
 * one counts 0 for ever. src/records/remembered-records.test.ts holds this list to the database's triggers.
 */
export const COUNTED_TABLES: ReadonlySet<string> = new Set([
  'abholungen', 'ablieferungen', 'bestaende', 'bilanzen', 'einlieferungen', 'nachweisbescheinigungen', 'nachweise', ...MASTER_TABLES,
]);

/**
 * The master-data stand from a tenant's counters (tabellenstaende_von(), read with the session): the sum of the
 * master tables' counters, a table never changed counting 0. The same number stammdaten_stand() answers in the
 * database, worked out here instead of by a second function call in the session's statement, which read the same
 * counters again behind the same membership check (bench/README.md, 2026-11-29, fifth). Counters are bigints,
 * exact in JSON only as text: summed as BigInt.
 */
export function stammdatenStand(tabellen: Readonly<Record<string, string>>): string {
  return MASTER_TABLES.reduce((sum, table) => sum + BigInt(tabellen[table] ?? 0), 0n).toString();
}

/** At most this many master-data values (tenant × location scope × kind); the least recently used goes first. */
export const STAND_CACHE_ENTRIES = 200;

/**
 * Records read by their number (src/db/versioned.ts, get()), kept while their table's own counter stands still:
 * about 1 KB each, so at most a megabyte or two per process (the CSV export's memory bound holds).
 */
export const RECORD_CACHE_ENTRIES = 1000;

interface Entry {
  stand: string;
  value: Promise<object>;
}

/** Freezes a value and everything in it: a value kept for many requests must not be changed by one of them. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Values kept while a stand stands still, at most `entries` of them, the least recently used going first. */
export class StandCache {
  private readonly kept = new Map<string, Entry>();

  constructor(readonly entries: number) {}

  /**
   * The value kept under `key` while the stand is `stand`, or `compute`'s (then kept, frozen). Callers that
   * ask at the same time share one computation; a failed one is not kept.
   */
  remember<T extends object>(keyParts: readonly unknown[], stand: string, compute: () => Promise<T>): Promise<T> {
    const key = JSON.stringify(keyParts);
    const hit = this.kept.get(key);
    this.kept.delete(key);
    if (hit && hit.stand === stand) {
      this.kept.set(key, hit);
      return hit.value as Promise<T>;
    }
    const value = compute().then(deepFreeze);
    const entry: Entry = { stand, value };
    this.kept.set(key, entry);
    if (this.kept.size > this.entries) this.kept.delete(this.kept.keys().next().value!);
    value.catch(() => {
      if (this.kept.get(key) === entry) this.kept.delete(key);
    });
    return value;
  }

  /** For tests: forgets every value. */
  clear(): void {
    this.kept.clear();
  }
}

/** Values read from the master tables (the filter and form choices), under the master-data stand. */
const masterValues = new StandCache(STAND_CACHE_ENTRIES);
/** Records by their number, under their table's counter (TenantScope.rememberWhileTable). */
export const recordReads = new StandCache(RECORD_CACHE_ENTRIES);

/** A master-data value kept while the stand stands still (StandCache.remember). */
export function rememberWhileStand<T extends object>(keyParts: readonly unknown[], stand: string, compute: () => Promise<T>): Promise<T> {
  return masterValues.remember(keyParts, stand, compute);
}

/** For tests: forgets every value. */
export function forgetStandCache(): void {
  masterValues.clear();
  recordReads.clear();
}
