// Versioned records (master data, later movement data): the current row plus one row per version with the
// full record and what changed, written in the same transaction. An update names the version it was based
// on; if someone else saved in between, it is refused (409) instead of silently overwriting.
import type { Knex } from 'knex';
import { invalid, notFound } from '../errors.js';
import { auditKey } from './audit.js';
import { prepared } from './knex-internals.js';
import type { TenantScope } from './scope.js';

export interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

/** The writer of a version that is not a person (column `quelle`): 'demo' for the demo-data seeds. */
export const DEMO_DATA = 'demo';
export type VersionSource = typeof DEMO_DATA;

export interface VersionInfo {
  version: number;
  at: string;
  /** The login of the user who saved it; null when no user did (see `quelle`) or the user is gone. */
  benutzer: string | null;
  /** Who saved it when no user did: 'demo', the demo data. */
  quelle: VersionSource | null;
  /** The name of the API key that saved it (its creator is `benutzer`), or null. */
  apiKey: string | null;
  changes: Change[];
  data: Record<string, unknown>;
}

export interface Meta {
  nr: string;
  version: number;
  /** Master data: 'aktiv' or 'inaktiv', kept by the store. Records whose status is a field of their own (a
   * delivery's open … locked) declare it in `fields` and set `managedStatus: false`. */
  status: string;
  updatedAt: string;
}

export interface VersionedSpec<T> {
  table: string;
  /** camelCase field → column, without nr/version/status (handled here). */
  fields: { [K in keyof T & string]: string };
  /** Whether the store keeps an aktiv/inaktiv status (default true; see Meta.status). */
  managedStatus?: boolean;
}

/** How a value is stored in a version: empty is null, dates as ISO text, numbers as text. */
export const normal = (v: unknown) => (v === undefined || v === '' ? null : v instanceof Date ? v.toISOString() : typeof v === 'number' ? String(v) : v);

/** JSON with the keys of every object in order: jsonb hands keys back in an order of its own. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value);

/** Whether a field changed: empty equals null, decimals compare by value, lists and objects (jsonb) by content. */
export function same(a: unknown, b: unknown): boolean {
  const x = normal(a);
  const y = normal(b);
  if (x === null || y === null) return x === y;
  if (typeof x === 'object' && typeof y === 'object') return canonical(x) === canonical(y);
  // Decimals compare by value: "12.50" equals "12.5".
  if (typeof x === 'string' && typeof y === 'string' && /^-?\d+(\.\d+)?$/.test(x) && /^-?\d+(\.\d+)?$/.test(y)) return Number(x) === Number(y);
  return x === y;
}

/** The fields of `data` that differ from `before`, as a version records them. */
export function changesOf(before: Record<string, unknown>, data: Record<string, unknown>, fields: readonly string[]): Change[] {
  const changes: Change[] = [];
  for (const field of fields) {
    if (!(field in data)) continue;
    if (!same(before[field], data[field])) changes.push({ field, before: normal(before[field]), after: normal(data[field]) });
  }
  return changes;
}

const HISTORY_COLUMN = '__history';
const parseJson = (x: unknown) => (typeof x === 'string' ? JSON.parse(x) : x);

/** A version's author columns: the user, and the API key when one acts in this request (src/db/audit.ts). */
const author = (benutzerId: number | null) => {
  const key = auditKey.getStore();
  return key ? { benutzer_id: benutzerId, api_key_name: key.name } : { benutzer_id: benutzerId };
};

/** A version row (with the login of who saved it) as the pages and the API show it; `at` as ISO 8601. */
const versionInfo = (r: Record<string, unknown>): VersionInfo => ({
  version: r.version as number,
  at: new Date(r.at as string | Date).toISOString(),
  benutzer: (r.login as string) ?? null,
  quelle: (r.quelle as VersionSource) ?? null,
  apiKey: (r.api_key_name as string) ?? null,
  changes: parseJson(r.changes),
  data: parseJson(r.data),
});

export class VersionedStore<T extends Record<string, unknown>> {
  constructor(readonly spec: VersionedSpec<T>) {}

  private get managed() {
    return this.spec.managedStatus !== false;
  }

  private get versions() {
    return `${this.spec.table}_versionen`;
  }

  /** (field, column) of the spec, taken once: fromRow runs for every row of a page and of an export. */
  private fieldColumns?: [string, string][];

  /** Database row → record (fields + meta): a new object, the caller's to add to. */
  fromRow(row: Record<string, unknown>): T & Meta {
    const out: Record<string, unknown> = { nr: row.nr, version: row.version, updatedAt: row.updated_at };
    if (this.managed) out.status = row.status;
    this.fieldColumns ??= Object.entries(this.spec.fields) as [string, string][];
    for (const [field, column] of this.fieldColumns) out[field] = row[column] ?? null;
    return out as T & Meta;
  }

  /**
   * Record fields → column values. An array is a jsonb column's value (a certificate's warnings): as a query
   * parameter it is sent as JSON text, since `pg` would send a JavaScript array as a PostgreSQL array literal
   * (PGlite sends JSON either way). `asParameters: false` keeps it as it is, for a JSON payload (updateMany).
   */
  private toColumns(data: Partial<T>, asParameters = true): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(this.spec.fields)) {
      if (!(field in data)) continue;
      const value = (data as Record<string, unknown>)[field] ?? null;
      out[column as string] = asParameters && Array.isArray(value) ? JSON.stringify(value) : value;
    }
    return out;
  }

  /**
   * One record by its number: what a detail page reads after the session. Kept by the process while the table's
   * change counter stands still (scope.rememberWhileTable): asked for again, it costs no round trip. Else
   * prepared (one text per table): on PostgreSQL its BEGIN, tenant settings and COMMIT then travel with it in one
   * round trip instead of two (src/db/knex-internals.ts, aloneIn), and it is parsed and planned once per
   * connection.
   */
  async get(scope: TenantScope, nr: string): Promise<(T & Meta) | null> {
    const { row } = await scope.rememberWhileTable(this.spec.table, `nr:${nr}`, async () => ({
      row: ((await prepared(scope.table(this.spec.table).where({ nr }).first())) ?? null) as Record<string, unknown> | null,
    }));
    return row ? this.fromRow(row) : null;
  }

  // Writing. The primitives below work inside the caller's transaction (`tx` from scope.transaction()), so the
  // record service (src/records/service.ts) can lock, check, write the version and audit in one transaction,
  // and write several records in it. create/update/renumber/remove wrap them in a transaction of their own.

  /** The current row of a number, locked until the end of the caller's transaction; null when there is none. */
  async lock(tx: TenantScope, nr: string): Promise<(T & Meta) | null> {
    const row = await tx.table(this.spec.table).where({ nr }).forUpdate().first();
    return row ? this.fromRow(row) : null;
  }

  /** Writes a new record as version 1 (its number must be free: else a 400 naming `nr`). */
  async insert(tx: TenantScope, nr: string, data: T, benutzerId: number): Promise<T & Meta> {
    if (await tx.table(this.spec.table).where({ nr }).first('nr')) {
      throw invalid([{ field: 'nr', message: 'records:errors.nrTaken' }]);
    }
    const [row] = await tx
      .insert(this.spec.table, { nr, ...this.toColumns(data), version: 1, ...(this.managed ? { status: 'aktiv' } : {}), updated_by: benutzerId })
      .returning('*');
    const record = this.fromRow(row);
    const changes = Object.keys(this.spec.fields).filter((f) => normal(record[f]) !== null).map((f) => ({ field: f, before: null, after: record[f] }));
    await tx.insert(this.versions, { nr, version: 1, data: JSON.stringify(record), changes: JSON.stringify(changes), ...author(benutzerId) });
    return record;
  }

  /**
   * Saves the fields of `data` that differ from `before` (the locked current record) as a new version; no
   * change at all writes nothing and returns `before`.
   */
  async write(tx: TenantScope, before: T & Meta, data: Partial<T> & { status?: Meta['status'] }, benutzerId: number): Promise<T & Meta> {
    const changes = changesOf(before, data as Record<string, unknown>, [...Object.keys(this.spec.fields), ...(this.managed ? ['status'] : [])]);
    if (!changes.length) return before;
    const version = before.version + 1;
    const [row] = await tx
      .table(this.spec.table)
      .where({ nr: before.nr })
      .update({ ...this.toColumns(data), ...(this.managed && data.status ? { status: data.status } : {}), version, updated_at: tx.knex.fn.now(), updated_by: benutzerId })
      .returning('*');
    const record = this.fromRow(row);
    await tx.insert(this.versions, { nr: before.nr, version, data: JSON.stringify(record), changes: JSON.stringify(changes), ...author(benutzerId) });
    return record;
  }

  /** Gives the locked record `before` a new number; its history moves with it (a taken number: 400 naming `nr`). */
  async writeNr(tx: TenantScope, before: T & Meta, newNr: string, benutzerId: number): Promise<T & Meta> {
    if (await tx.table(this.spec.table).where({ nr: newNr }).first('nr')) {
      throw invalid([{ field: 'nr', message: 'records:errors.nrTaken' }]);
    }
    const [row] = await tx
      .table(this.spec.table)
      .where({ nr: before.nr })
      .update({ nr: newNr, version: before.version + 1, updated_at: tx.knex.fn.now(), updated_by: benutzerId })
      .returning('*');
    await tx.table(this.versions).where({ nr: before.nr }).update({ nr: newNr });
    const record = this.fromRow(row);
    await tx.insert(this.versions, {
      nr: newNr, version: record.version, data: JSON.stringify(record), changes: JSON.stringify([{ field: 'nr', before: before.nr, after: newNr }]), ...author(benutzerId),
    });
    return record;
  }

  /** Deletes the locked record and its history. */
  async delete(tx: TenantScope, nr: string): Promise<void> {
    await tx.table(this.versions).where({ nr }).delete();
    await tx.table(this.spec.table).where({ nr }).delete();
  }

  /** insert() in a transaction of its own (tests and tools; features write through the record service). */
  async create(scope: TenantScope, nr: string, data: T, benutzerId: number): Promise<T & Meta> {
    return scope.transaction((tx) => this.insert(tx, nr, data, benutzerId));
  }

  /** write() of the current record in a transaction of its own (tests and tools). */
  async update(scope: TenantScope, nr: string, data: Partial<T> & { status?: Meta['status'] }, benutzerId: number): Promise<T & Meta> {
    return scope.transaction(async (tx) => {
      const before = await this.lock(tx, nr);
      if (!before) throw notFound();
      return this.write(tx, before, data, benutzerId);
    });
  }

  async history(scope: TenantScope, nr: string): Promise<VersionInfo[]> {
    const rows = await scope
      .table(this.versions, 'v')
      .leftJoin('benutzer as b', 'b.id', 'v.benutzer_id')
      .where('v.nr', nr)
      .orderBy('v.version', 'desc')
      .select('v.version', 'v.at', 'v.changes', 'v.data', 'b.login', 'v.quelle', 'v.api_key_name');
    return rows.map(versionInfo);
  }

  /**
   * The record and its history (newest first) in one statement, for the detail page: a round trip less on a
   * slow link than get() and history() one after the other.
   */
  async getWithHistory(scope: TenantScope, nr: string): Promise<{ record: T & Meta; history: VersionInfo[] } | null> {
    const history = scope.knex.raw(
      `(select coalesce(json_agg(json_build_object('version', v.version, 'at', v.at, 'changes', v.changes, 'data', v.data, 'login', b.login, 'quelle', v.quelle, 'api_key_name', v.api_key_name)
          order by v.version desc), '[]'::json)
        from ?? v left join benutzer b on b.id = v.benutzer_id where v.mandant = t.mandant and v.nr = t.nr) as ??`,
      [this.versions, HISTORY_COLUMN],
    );
    const row = await prepared(scope.table(this.spec.table, 't').where('t.nr', nr).first('t.*', history));
    if (!row) return null;
    const rows = row[HISTORY_COLUMN];
    return { record: this.fromRow(row), history: (typeof rows === 'string' ? JSON.parse(rows) : rows).map(versionInfo) };
  }

  // Many records at once, for the imports. create/update write one record with four to six statements each
  // (about 6 ms per row on PGlite: five minutes for 50,000 rows); these write a batch of a few hundred rows
  // with three statements and leave exactly the rows create/update leave: the current row, and per record one
  // version row with the full record and what changed (versioned-batch.test.ts holds them side by side).

  /** The current rows of these numbers, locked for the rest of the transaction when `lock` is set. */
  async currentMany(scope: TenantScope, nrs: string[], lock = false): Promise<Map<string, T & Meta>> {
    if (!nrs.length) return new Map();
    const query = scope.table(this.spec.table).whereIn('nr', nrs);
    const rows: Record<string, unknown>[] = await (lock ? query.forUpdate() : query);
    return new Map(rows.map((r) => [String(r.nr), this.fromRow(r)]));
  }

  /** Creates records (none of whose numbers exist yet) as version 1, in the caller's transaction. */
  async createMany(tx: TenantScope, items: { nr: string; data: T }[], benutzerId: number): Promise<void> {
    if (!items.length) return;
    const rows: Record<string, unknown>[] = await tx
      .insert(this.spec.table, items.map((it) => ({ nr: it.nr, ...this.toColumns(it.data), version: 1, ...(this.managed ? { status: 'aktiv' } : {}), updated_by: benutzerId })))
      .returning('*');
    const fields = Object.keys(this.spec.fields);
    await tx.insert(this.versions, rows.map((row) => {
      const record = this.fromRow(row) as Record<string, unknown>;
      const changes = fields.filter((f) => normal(record[f]) !== null).map((f) => ({ field: f, before: null, after: record[f] }));
      return { nr: record.nr, version: 1, data: JSON.stringify(record), changes: JSON.stringify(changes), ...author(benutzerId) };
    }));
  }

  /**
   * Saves changed fields of existing records as a new version each, in the caller's transaction. `changes` are
   * the differences to the locked current row (changesOf); items without changes must not be passed.
   */
  async updateMany(tx: TenantScope, items: { nr: string; data: Partial<T>; changes: Change[] }[], benutzerId: number): Promise<void> {
    if (!items.length) return;
    const table = this.spec.table;
    const knex = tx.knex;
    // One UPDATE … FROM a JSON record set per group of items that set the same columns (in an import: all of
    // them, the file's columns); jsonb_populate_recordset gives each value its column's type.
    const groups = new Map<string, { nr: string; columns: Record<string, unknown> }[]>();
    for (const it of items) {
      const columns = this.toColumns(it.data, false);
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
    await tx.insert(this.versions, rows.map((row) => {
      const record = this.fromRow(row);
      return { nr: record.nr, version: record.version, data: JSON.stringify(record), changes: JSON.stringify(changesByNr.get(record.nr)), ...author(benutzerId) };
    }));
  }

  /** The record as it was in one version (movement data shows this). */
  async atVersion(scope: TenantScope, nr: string, version: number): Promise<(T & Meta) | null> {
    const row = await scope.table(this.versions).where({ nr, version }).first('data');
    if (!row) return null;
    return (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as T & Meta;
  }
}

export type { Knex };
