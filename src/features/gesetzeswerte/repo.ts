// SQL of the legal values. The table is platform data without a tenant (no row-level security): reads work on the
// base connection and inside a tenant transaction alike (the app role may SELECT it); writes come only from
// the system administrators' service, on the base connection.
import type { Knex } from 'knex';
import { ohneNachkommaNullen, type AequivalentEinheit, type GesetzeswertArt, type GesetzeswertZeile } from '../../domain/gesetzeswerte.js';

/** A row as the page and the API show it. */
export interface GesetzeswertRow {
  id: number;
  art: GesetzeswertArt;
  /** The plant date of a threshold (ISO); null for the other kinds. */
  anlageAb: string | null;
  /** The year of a quota; null for the other kinds. */
  jahr: number | null;
  /** The unit of an equivalent of the THG display; null for the other kinds. */
  einheit: AequivalentEinheit | null;
  gueltigAb: string;
  /** A decimal without trailing zeros; for nachweis_ablauf the day of the year, 'MM-DD'. */
  wert: string;
  kommentar: string | null;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

interface DbRow {
  id: number;
  art: GesetzeswertArt;
  bezug: string;
  gueltig_ab: string;
  wert: string | null;
  wert_text: string | null;
  kommentar: string | null;
  created_at: Date | string;
  created_by_login: string | null;
  updated_at: Date | string;
  updated_by_login: string | null;
}

const wertOf = (r: Pick<DbRow, 'wert' | 'wert_text'>) => r.wert_text ?? ohneNachkommaNullen(String(r.wert));

export function toRow(r: DbRow): GesetzeswertRow {
  return {
    id: Number(r.id),
    art: r.art,
    anlageAb: r.art === 'schwelle' ? r.bezug : null,
    jahr: r.art === 'quote' ? Number(r.bezug) : null,
    einheit: r.art === 'aequivalent' ? (r.bezug as AequivalentEinheit) : null,
    gueltigAb: r.gueltig_ab,
    wert: wertOf(r),
    kommentar: r.kommentar,
    createdAt: new Date(r.created_at).toISOString(),
    createdBy: r.created_by_login,
    updatedAt: new Date(r.updated_at).toISOString(),
    updatedBy: r.updated_by_login,
  };
}

/** The stored form of a row's reference: the plant date, the year, the equivalent's unit, or ''. */
export function bezugOf(input: { anlageAb?: string | null; jahr?: number | null; einheit?: string | null }): string {
  return input.anlageAb ?? (input.jahr != null ? String(input.jahr) : input.einheit ?? '');
}

/** The stored value columns of a kind: nachweis_ablauf keeps its day in `wert_text`, the others a number in `wert`. */
export function wertColumns(art: GesetzeswertArt, wert: string): { wert: string | null; wert_text: string | null } {
  return art === 'nachweis_ablauf' ? { wert: null, wert_text: wert } : { wert, wert_text: null };
}

function withAuthors(db: Knex | Knex.Transaction) {
  return db({ g: 'gesetzeswerte' })
    .leftJoin({ c: 'benutzer' }, 'c.id', 'g.created_by')
    .leftJoin({ u: 'benutzer' }, 'u.id', 'g.updated_by')
    .select('g.*', 'c.login as created_by_login', 'u.login as updated_by_login');
}

/** Every row, by kind, reference and valid-from date. */
export async function listRows(db: Knex | Knex.Transaction): Promise<GesetzeswertRow[]> {
  const rows: DbRow[] = await withAuthors(db).orderBy([{ column: 'g.art' }, { column: 'g.bezug' }, { column: 'g.gueltig_ab' }]);
  return rows.map(toRow);
}

export async function findRow(db: Knex | Knex.Transaction, id: number, forUpdate = false): Promise<GesetzeswertRow | null> {
  const query = withAuthors(db).where('g.id', id).first();
  // A row lock holds back a concurrent correction or deletion of the same row until this transaction ends.
  if (forUpdate) query.forUpdate('g');
  const row: DbRow | undefined = await query;
  return row ? toRow(row) : null;
}

/**
 * The rows of some kinds (all when none are named) in the shape the pure selection reads, with their comment
 * (the equivalents' source): one query.
 */
export async function zeilen(db: Knex | Knex.Transaction, arten?: readonly GesetzeswertArt[]): Promise<(GesetzeswertZeile & { kommentar: string | null })[]> {
  const query = db('gesetzeswerte').select('art', 'bezug', 'gueltig_ab', 'wert', 'wert_text', 'kommentar');
  if (arten) query.whereIn('art', [...arten]);
  const rows: Pick<DbRow, 'art' | 'bezug' | 'gueltig_ab' | 'wert' | 'wert_text' | 'kommentar'>[] = await query;
  return rows.map((r) => ({ art: r.art, bezug: r.bezug, gueltigAb: r.gueltig_ab, wert: wertOf(r), kommentar: r.kommentar }));
}

export async function exists(db: Knex | Knex.Transaction, key: { art: string; bezug: string; gueltigAb: string }): Promise<boolean> {
  return !!(await db('gesetzeswerte').where({ art: key.art, bezug: key.bezug, gueltig_ab: key.gueltigAb }).first('id'));
}

export async function insertRow(
  trx: Knex.Transaction,
  row: { art: GesetzeswertArt; bezug: string; gueltigAb: string; wert: string; kommentar: string | null; benutzerId: number },
): Promise<number> {
  const [{ id }] = await trx('gesetzeswerte')
    .insert({
      art: row.art, bezug: row.bezug, gueltig_ab: row.gueltigAb, ...wertColumns(row.art, row.wert), kommentar: row.kommentar,
      created_by: row.benutzerId, updated_by: row.benutzerId,
    })
    .returning('id');
  return Number(id);
}

export async function updateRow(trx: Knex.Transaction, id: number, art: GesetzeswertArt, change: { wert: string; kommentar: string | null; benutzerId: number }) {
  await trx('gesetzeswerte')
    .where({ id })
    .update({ ...wertColumns(art, change.wert), kommentar: change.kommentar, updated_by: change.benutzerId, updated_at: trx.fn.now() });
}

export async function deleteRow(trx: Knex.Transaction, id: number) {
  await trx('gesetzeswerte').where({ id }).delete();
}

/** A unique violation: the same kind, reference and valid-from date written concurrently. */
export const isDuplicate = (err: unknown) => (err as { code?: string })?.code === '23505';
