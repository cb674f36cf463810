// What movement data refers to: partners, locations and products, by number and (for deliveries) version.
// One place resolves a typed number to the master record, offers the choices of forms and filters, and tells
// master data whether movement data still refers to it (then it cannot be deleted, only deactivated).
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import { prepared } from '../../db/knex-internals.js';
import type { FieldError } from '../../http/errors.js';
import type { ChoiceOptions, ListColumn } from '../../records/list/engine.js';

export const REFERENCES = {
  partnerNr: { table: 'tauschpartner', column: 'partner_nr', versionField: 'partnerVersion', unknown: 'bewegungsdaten:errors.unknownPartner' },
  standortNr: { table: 'standorte', column: 'standort_nr', versionField: 'standortVersion', unknown: 'bewegungsdaten:errors.unknownStandort' },
  produktNr: { table: 'produkte', column: 'produkt_nr', versionField: 'produktVersion', unknown: 'bewegungsdaten:errors.unknownProdukt' },
} as const;
export type ReferenceField = keyof typeof REFERENCES;

/** Tables of movement data and the references each holds (`columns`: where a table names one otherwise). */
const MOVEMENT_TABLES: { table: string; refs: ReferenceField[]; columns?: Partial<Record<ReferenceField, string>> }[] = [
  { table: 'einlieferungen', refs: ['partnerNr', 'standortNr', 'produktNr'] },
  { table: 'ablieferungen', refs: ['partnerNr', 'standortNr', 'produktNr'] },
  { table: 'abholungen', refs: ['standortNr', 'produktNr'], columns: { standortNr: 'lieferstelle_nr' } },
  { table: 'bestaende', refs: ['standortNr', 'produktNr'] },
  { table: 'nachweise', refs: ['standortNr', 'produktNr'] },
  { table: 'nachweisbescheinigungen', refs: ['standortNr', 'produktNr'] },
  { table: 'bilanzen', refs: ['standortNr', 'produktNr'] },
  { table: 'bilanz_positionen', refs: ['partnerNr'] },
];

export interface MasterRow {
  nr: string;
  version: number;
  status: string;
  name: string;
  [column: string]: unknown;
}

/** The current master record of a number, or null. */
export async function currentRecord(scope: TenantScope, field: ReferenceField, nr: string): Promise<MasterRow | null> {
  return ((await scope.table(REFERENCES[field].table).where({ nr }).first()) as MasterRow | undefined) ?? null;
}

/**
 * A newly chosen reference must exist and be active: returns the record, or pushes the problem (named by
 * field), so a form shows every unknown reference at once.
 */
export function checkReference(field: ReferenceField, nr: string, row: MasterRow | null, errors: FieldError[]): MasterRow | null {
  if (!row) errors.push({ field, message: REFERENCES[field].unknown, params: { nr } });
  else if (row.status !== 'aktiv') errors.push({ field, message: 'bewegungsdaten:errors.inactive', params: { nr } });
  return row && row.status === 'aktiv' ? row : null;
}

/** checkReference against the database. */
export async function resolveNew(scope: TenantScope, field: ReferenceField, nr: string, errors: FieldError[]): Promise<MasterRow | null> {
  return checkReference(field, nr, await currentRecord(scope, field, nr), errors);
}

/**
 * The tenant's whole master data that movement data refers to, current rows by number: loaded once per import.
 * `fields` limits it to the references an import has (certificates name no partner).
 */
export async function allMasterRecords<F extends ReferenceField = ReferenceField>(
  scope: TenantScope, fields: readonly F[] = Object.keys(REFERENCES) as F[],
): Promise<Record<F, Map<string, MasterRow>>> {
  const out = {} as Record<F, Map<string, MasterRow>>;
  for (const field of fields) {
    const rows = (await scope.table(REFERENCES[field].table).select('*')) as unknown as MasterRow[];
    out[field] = new Map(rows.map((r) => [String(r.nr), r]));
  }
  return out;
}

/** Products as deliveries saw them, for many (number, version) pairs in one query. */
export async function produkteAtVersions(scope: TenantScope, pairs: { nr: string; version: number }[]): Promise<Map<string, Record<string, unknown>>> {
  if (!pairs.length) return new Map();
  const rows = await scope.table('produkte_versionen').whereIn(['nr', 'version'], pairs.map((p) => [p.nr, p.version])).select('nr', 'version', 'data');
  return new Map(rows.map((r: Record<string, unknown>) => [`${r.nr}@${r.version}`, (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>]));
}

/** The master record as a delivery saw it (its stored version), from the versions table. */
export async function atVersion(scope: TenantScope, field: ReferenceField, nr: string, version: number): Promise<Record<string, unknown> | null> {
  const row = await scope.table(`${REFERENCES[field].table}_versionen`).where({ nr, version }).first('data');
  if (!row) return null;
  return (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>;
}

type Part = Knex.QueryBuilder;
interface MasterDataRow {
  kind: 'choice' | 'reference';
  field: ReferenceField;
  nr: string;
  name: string | null;
  /** A reference's current master version (null when the record is gone). */
  current: number | null;
}

/** The choices of one reference field: number and name of each record (locations limited to the scope's). */
function choicePart(scope: TenantScope, field: ReferenceField, activeOnly: boolean): Part {
  const { knex } = scope;
  const q = scope.table(REFERENCES[field].table).select(knex.raw("'choice' as kind"), knex.raw('?::text as field', [field]), 'nr', 'name', knex.raw('null::int as current'));
  if (activeOnly) q.where('status', 'aktiv');
  return field === 'standortNr' ? scope.atStandorte(q, 'nr') : q;
}

/** A delivery's reference as it saw it: the name at its stored version, and the master record's current version. */
function referencePart(scope: TenantScope, field: ReferenceField, nr: string, version: number): Part {
  const { knex } = scope;
  const { table } = REFERENCES[field];
  const current = scope.table(table, 'c').where('c.nr', knex.ref('v.nr')).select('c.version');
  return scope
    .table(`${table}_versionen`, 'v')
    .where('v.nr', nr)
    .andWhere('v.version', version)
    .select(knex.raw("'reference' as kind"), knex.raw('?::text as field', [field]), 'v.nr', knex.raw("v.data->>'name' as name"), current.as('current'));
}

/** Runs the parts as one statement (UNION ALL), in a stable order. */
async function readParts([first, ...rest]: Part[]): Promise<MasterDataRow[]> {
  return (await prepared(first.unionAll(rest, true).orderBy([{ column: 'kind' }, { column: 'field' }, { column: 'nr' }]))) as MasterDataRow[];
}

function choicesFrom(rows: MasterDataRow[]): Record<ReferenceField, ChoiceOptions> {
  const out: Record<ReferenceField, ChoiceOptions> = { partnerNr: [], standortNr: [], produktNr: [] };
  for (const r of rows) if (r.kind === 'choice') out[r.field].push({ value: r.nr, label: `${r.nr} · ${r.name}`, raw: true });
  return out;
}

const FIELDS = Object.keys(REFERENCES) as ReferenceField[];

/**
 * Choices of partners, locations and products (number · name), in one query. Locations are limited to the
 * scope's; `activeOnly` leaves out deactivated records (new entries), filters offer all (old entries).
 */
export function masterDataChoices(scope: TenantScope, opts: { activeOnly: boolean }): Promise<Record<ReferenceField, ChoiceOptions>> {
  // Kept across requests while the master data is unchanged (src/db/stand-cache.ts): frozen, callers copy.
  return scope.memoWhileStammdaten(`bewegungsdaten:choices:${opts.activeOnly}`, async () =>
    choicesFrom(await readParts(FIELDS.map((f) => choicePart(scope, f, opts.activeOnly)))));
}

/**
 * The request's memo key of the active choices: read once per request (and location scope) however many
 * selects of one form ask (one query, not three), or taken from the delivery page's query (lieferungMasterData).
 */
const ACTIVE_CHOICES = 'bewegungsdaten:activeChoices';

/** Choices of one reference field, for a form's select. */
export const choicesOf = (field: ReferenceField) => async (scope: TenantScope) => {
  const choices = await scope.memo(ACTIVE_CHOICES, () => masterDataChoices(scope, { activeOnly: true }));
  return choices[field].map((o) => ({ ...o }));
};

export interface ReferenceView {
  field: ReferenceField;
  nr: string;
  version: number;
  /** The name at the stored version. */
  name: string | null;
  currentVersion: number | null;
}

/**
 * What a delivery's page needs of master data, in one query: the references as the delivery saw them (name at
 * the stored version, and whether the record changed since) and the active choices of the form's three selects,
 * which choicesOf() then finds in the request's memo (scope.memo) without asking again.
 */
export async function lieferungMasterData(
  scope: TenantScope, record: { [F in ReferenceField]?: unknown } & Record<string, unknown>,
): Promise<ReferenceView[]> {
  const refs = FIELDS.map((field) => ({ field, nr: record[field] as string, version: record[REFERENCES[field].versionField] as number }));
  const rows = await readParts([...FIELDS.map((f) => choicePart(scope, f, true)), ...refs.map((r) => referencePart(scope, r.field, r.nr, r.version))]);
  const choices = choicesFrom(rows);
  await scope.memo(ACTIVE_CHOICES, async () => choices);
  return refs.map((ref) => {
    const row = rows.find((r) => r.kind === 'reference' && r.field === ref.field);
    return { ...ref, name: row?.name ?? null, currentVersion: row?.current ?? null };
  });
}

/** Does any movement data refer to this master record? (Then it may be deactivated but not deleted.) */
export async function referencedByMovementData(scope: TenantScope, field: ReferenceField, nr: string): Promise<boolean> {
  for (const { table, refs, columns } of MOVEMENT_TABLES) {
    if (!refs.includes(field)) continue;
    if (await scope.table(table).where(columns?.[field] ?? REFERENCES[field].column, nr).first(scope.knex.raw('1 as x'))) return true;
  }
  return false;
}

/**
 * The list columns of a reference (partner, location, product): its name on the page (the filters choose it by
 * number), number and name in the exports. Rows carry `<key>Nr` and `<key>Name`.
 */
export function referenzSpalten<R>(key: 'partner' | 'standort' | 'produkt', alias?: string): ListColumn<R>[] {
  // With the rows' table alias: sortable by the name the row shows, the name of the version it refers to, kept
  // sortable in `<key>_sort` by a trigger (migration 20261204100000_lieferung_sortnamen) and served by an index.
  const byName = alias && `${alias}.${key}_sort`;
  return [
    { key: `${key}Name`, label: `bewegungsdaten:fields.${key}`, pageOnly: true, ...(byName ? { sql: byName, notNull: true } : {}) },
    { key: `${key}Nr`, label: `bewegungsdaten:fields.${key}Nr`, csvOnly: true },
    { key: `${key}Name`, label: `bewegungsdaten:fields.${key}Name`, csvOnly: true },
  ];
}

/** A reference's number and name from a list row (`<key>_nr`, and `<key>_name` joined for the page; the number when there is none). */
export function referenzWerte<K extends 'partner' | 'standort' | 'produkt'>(r: Record<string, unknown>, key: K): Record<`${K}Nr` | `${K}Name`, string> {
  const nr = String(r[`${key}_nr`]);
  return { [`${key}Nr`]: nr, [`${key}Name`]: String(r[`${key}_name`] ?? nr) } as Record<`${K}Nr` | `${K}Name`, string>;
}
