// Many versioned records at once, for the import. VersionedStore.create/update write one record with four
// to six statements each (about 6 ms per row on PGlite: five minutes for 50,000 rows); these write a batch
// of a few hundred rows with three statements and produce exactly the rows VersionedStore does: the current
// row, and per record one version row with the full record and what changed (versioned-batch.test.ts holds
// them side by side). They belong in VersionedStore as createMany/updateMany; until then they live here and
// use only its public spec and fromRow.
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import { changesOf, normal, type Change, type Meta, type VersionedStore } from '../../db/versioned.js';

// The comparison is VersionedStore's own (src/db/versioned.ts), so batch and single writes record alike.
export { changesOf };

function toColumns<T extends Record<string, unknown>>(store: VersionedStore<T>, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(store.spec.fields)) if (field in data) out[column as string] = data[field] ?? null;
  return out;
}

/** The current rows of these numbers, locked for the rest of the transaction when `lock` is set. */
export async function currentRecords<T extends Record<string, unknown>>(store: VersionedStore<T>, scope: TenantScope, nrs: string[], lock = false): Promise<Map<string, T & Meta>> {
  if (!nrs.length) return new Map();
  const query = scope.table(store.spec.table).whereIn('nr', nrs);
  const rows: Record<string, unknown>[] = await (lock ? query.forUpdate() : query);
  return new Map(rows.map((r) => [String(r.nr), store.fromRow(r)]));
}

/** Creates records (none of whose numbers exist yet) as version 1, in the caller's transaction. */
export async function createMany<T extends Record<string, unknown>>(store: VersionedStore<T>, tx: TenantScope, items: { nr: string; data: T }[], benutzerId: number): Promise<void> {
  if (!items.length) return;
  const rows: Record<string, unknown>[] = await tx
    .insert(store.spec.table, items.map((it) => ({ nr: it.nr, ...toColumns(store, it.data), version: 1, status: 'aktiv', updated_by: benutzerId })))
    .returning('*');
  const fields = Object.keys(store.spec.fields);
  await tx.insert(`${store.spec.table}_versionen`, rows.map((row) => {
    const record = store.fromRow(row) as Record<string, unknown>;
    const changes = fields.filter((f) => normal(record[f]) !== null).map((f) => ({ field: f, before: null, after: record[f] }));
    return { nr: record.nr, version: 1, data: JSON.stringify(record), changes: JSON.stringify(changes), benutzer_id: benutzerId };
  }));
}

/**
 * Saves changed fields of existing records as a new version each, in the caller's transaction. `changes` are
 * the differences to the locked current row (changesOf); items without changes must not be passed.
 */
export async function updateMany<T extends Record<string, unknown>>(
  store: VersionedStore<T>,
  tx: TenantScope,
  items: { nr: string; data: Partial<T>; changes: Change[] }[],
  benutzerId: number,
): Promise<void> {
  if (!items.length) return;
  const table = store.spec.table;
  const knex = tx.knex;
  // One UPDATE … FROM a JSON record set per group of items that set the same columns (in an import: all of
  // them, the file's columns); jsonb_populate_recordset gives each value its column's type.
  const groups = new Map<string, { nr: string; columns: Record<string, unknown> }[]>();
  for (const it of items) {
    const columns = toColumns(store, it.data as Record<string, unknown>);
    const key = Object.keys(columns).sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), { nr: it.nr, columns }]);
  }
  const rows: Record<string, unknown>[] = [];
  for (const [key, group] of groups) {
    const set: Record<string, Knex.Raw | number> = { version: knex.raw('?? + 1', ['t.version']), updated_at: knex.fn.now(), updated_by: benutzerId };
    for (const column of key ? key.split(',') : []) set[column] = knex.raw('??', [`v.${column}`]);
    const payload = JSON.stringify(group.map((g) => ({ ...g.columns, nr: g.nr })));
    rows.push(...(await tx
      .table(table, 't')
      .updateFrom(knex.raw('jsonb_populate_recordset(null::??, ?::jsonb) as v', [table, payload]))
      .whereRaw('?? = ??', ['t.nr', 'v.nr'])
      .update(set)
      .returning('t.*')));
  }
  const changesByNr = new Map(items.map((it) => [it.nr, it.changes]));
  await tx.insert(`${table}_versionen`, rows.map((row) => {
    const record = store.fromRow(row);
    return { nr: record.nr, version: record.version, data: JSON.stringify(record), changes: JSON.stringify(changesByNr.get(record.nr)), benutzer_id: benutzerId };
  }));
}
