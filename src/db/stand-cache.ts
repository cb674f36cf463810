// Values read from the master tables (partners, locations, products), kept by this process across requests
// while the tenant's master-data stand has not moved. The stand is the sum of the three tables' change counters
// (migrations/20261205000000_stammdaten_stand.ts), summed here from the counters read in the same statement as
// the session (stammdatenStand), so knowing it costs no round trip; the filter choices of a movement list then
// cost none either.
//
// Why a value is never stale: a counter moves at the COMMIT of every transaction that changes its table, in
// the same commit as the change. A request whose session read saw stand n reads nothing older than that: a
// value kept under n was read later than some session read that saw n, so it holds every change counted in n
// (and perhaps newer ones, which that request may see anyway). Once a request writes, its scopes stop using the
// stand (TenantRequest.writing()). With several processes, each keeps its own values; none is shared.

/** The master tables whose counters make the stand (migrations/20261205000000_stammdaten_stand.ts, TABLES). */
export const MASTER_TABLES = ['produkte', 'standorte', 'tauschpartner'] as const;

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

/** At most this many values (tenant × location scope × kind); the least recently used goes first. */
export const STAND_CACHE_ENTRIES = 200;

interface Entry {
  stand: string;
  value: Promise<object>;
}

const kept = new Map<string, Entry>();

/** Freezes a value and everything in it: a value kept for many requests must not be changed by one of them. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The value kept under `key` while the stand is `stand`, or `compute`'s (then kept, frozen). Callers that
 * ask at the same time share one computation; a failed one is not kept.
 */
export function rememberWhileStand<T extends object>(keyParts: readonly unknown[], stand: string, compute: () => Promise<T>): Promise<T> {
  const key = JSON.stringify(keyParts);
  const hit = kept.get(key);
  kept.delete(key);
  if (hit && hit.stand === stand) {
    kept.set(key, hit);
    return hit.value as Promise<T>;
  }
  const value = compute().then(deepFreeze);
  const entry: Entry = { stand, value };
  kept.set(key, entry);
  if (kept.size > STAND_CACHE_ENTRIES) kept.delete(kept.keys().next().value!);
  value.catch(() => {
    if (kept.get(key) === entry) kept.delete(key);
  });
  return value;
}

/** For tests: forgets every value. */
export function forgetStandCache(): void {
  kept.clear();
}
