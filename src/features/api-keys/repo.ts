// API keys and idempotency reservations in SQL, always through the tenant's scope (row-level security).
import type { TenantScope } from '../../db/scope.js';

export interface ApiKeyRow {
  id: number;
  name: string;
  praefix: string;
  rollen: number[];
  standorte: string[] | null;
  erstellt_am: Date;
  erstellt_von_login: string | null;
  zuletzt_benutzt_am: Date | null;
  widerrufen_am: Date | null;
}

const asJson = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const toRow = (r: Record<string, unknown>): ApiKeyRow => ({
  ...(r as unknown as ApiKeyRow),
  id: Number(r.id),
  rollen: asJson<number[]>(r.rollen),
  standorte: r.standorte == null ? null : asJson<string[]>(r.standorte),
});

/** The tenant's keys, live ones first, newest first. */
export async function list(scope: TenantScope): Promise<ApiKeyRow[]> {
  const rows = await scope
    .table('api_keys', 'k')
    .leftJoin('benutzer as b', 'b.id', 'k.erstellt_von')
    .orderByRaw('k.widerrufen_am is not null, k.erstellt_am desc, k.id desc')
    .select('k.id', 'k.name', 'k.praefix', 'k.rollen', 'k.standorte', 'k.erstellt_am', 'b.login as erstellt_von_login', 'k.zuletzt_benutzt_am', 'k.widerrufen_am');
  return rows.map(toRow);
}

export async function find(scope: TenantScope, id: number): Promise<ApiKeyRow | null> {
  const row = await scope
    .table('api_keys', 'k')
    .leftJoin('benutzer as b', 'b.id', 'k.erstellt_von')
    .where('k.id', id)
    .first('k.id', 'k.name', 'k.praefix', 'k.rollen', 'k.standorte', 'k.erstellt_am', 'b.login as erstellt_von_login', 'k.zuletzt_benutzt_am', 'k.widerrufen_am');
  return row ? toRow(row) : null;
}

export async function nameTaken(scope: TenantScope, name: string): Promise<boolean> {
  return Boolean(await scope.table('api_keys').whereNull('widerrufen_am').whereRaw('lower(name) = lower(?)', [name]).first('id'));
}

export async function insert(
  scope: TenantScope,
  k: { name: string; praefix: string; hash: string; rollen: number[]; standorte: string[] | null; erstelltVon: number | null; erstelltAm?: Date; widerrufenAm?: Date | null },
): Promise<number> {
  const [row] = await scope
    .insert('api_keys', {
      name: k.name, praefix: k.praefix, hash: k.hash, rollen: JSON.stringify(k.rollen), standorte: k.standorte ? JSON.stringify(k.standorte) : null,
      erstellt_von: k.erstelltVon, ...(k.erstelltAm ? { erstellt_am: k.erstelltAm } : {}),
      ...(k.widerrufenAm ? { widerrufen_am: k.widerrufenAm, widerrufen_von: k.erstelltVon } : {}),
    })
    .returning('id');
  return Number(row.id);
}

/** Marks a live key revoked; false when it was revoked already. */
export async function revoke(scope: TenantScope, id: number, by: number, at: Date): Promise<boolean> {
  const n = await scope.table('api_keys').where({ id }).whereNull('widerrufen_am').update({ widerrufen_am: at, widerrufen_von: by });
  return Number(n) > 0;
}

/** Of the given location numbers, those the tenant does not have. */
export async function unknownStandorte(scope: TenantScope, nrs: readonly string[]): Promise<string[]> {
  if (!nrs.length) return [];
  const found = new Set((await scope.table('standorte').whereIn('nr', nrs as string[]).select('nr')).map((r: { nr: string }) => r.nr));
  return nrs.filter((n) => !found.has(n));
}

export interface KeyPrincipalRow {
  id: number;
  name: string;
  rollen: number[];
  standorte: string[] | null;
  zuletzt_benutzt_am: Date | null;
  benutzer_id: number | null;
  login: string | null;
  benutzer_status: string | null;
  /** The creator is still an administrator here: system administrator (not support), or tenant administrator. */
  verwaltet: boolean;
  mandant_status: string;
}

/** A live key by its hash, with what decides whether it may still act: its creator and its tenant. */
export async function byHash(scope: TenantScope, hash: string): Promise<KeyPrincipalRow | null> {
  const row = await scope
    .table('api_keys', 'k')
    .join('mandanten as m', 'm.mandant', 'k.mandant')
    .leftJoin('benutzer as b', 'b.id', 'k.erstellt_von')
    .where('k.hash', hash)
    .whereNull('k.widerrufen_am')
    .first(
      'k.id', 'k.name', 'k.rollen', 'k.standorte', 'k.zuletzt_benutzt_am', 'b.id as benutzer_id', 'b.login', 'b.status as benutzer_status',
      'm.status as mandant_status',
      scope.knex.raw(`(not b.support_kz and (b.admin_kz or exists (select 1 from benutzer_mandanten bm
        where bm.benutzer_id = b.id and bm.mandant = k.mandant and bm.admin_kz))) as verwaltet`),
    );
  if (!row) return null;
  return { ...(row as KeyPrincipalRow), id: Number(row.id), rollen: asJson(row.rollen), standorte: row.standorte == null ? null : asJson(row.standorte), verwaltet: Boolean(row.verwaltet) };
}

/** Records a use, at most once a minute per key (a write per API call would cost more than the call). */
export async function touch(scope: TenantScope, id: number, at: Date): Promise<void> {
  await scope.table('api_keys').where({ id })
    .where((q) => q.whereNull('zuletzt_benutzt_am').orWhere('zuletzt_benutzt_am', '<', new Date(at.getTime() - 60_000)))
    .update({ zuletzt_benutzt_am: at });
}

// Idempotency reservations ---------------------------------------------------------------------------------

export interface Reservation {
  anfrage_hash: string;
  status: number | null;
  antwort: unknown;
  erstellt_am: Date;
}

/**
 * Reserves the key for this request: true when this request is the first (or the earlier reservation was older
 * than `expiredBefore` and is replaced), else the reservation that stands. One statement, so of two concurrent
 * requests with the same key exactly one gets true.
 */
export async function reserve(scope: TenantScope, aufrufer: string, schluessel: string, hash: string, at: Date, expiredBefore: Date): Promise<true | Reservation> {
  const inserted = await scope.transaction(async (tx) => {
    // Answers older than a day are forgotten on the way (an index range, usually empty).
    await tx.table('idempotency_keys').where('erstellt_am', '<', expiredBefore).delete();
    return tx.knex.raw(
      `insert into idempotency_keys (mandant, aufrufer, schluessel, anfrage_hash, erstellt_am) values (?, ?, ?, ?, ?)
       on conflict (mandant, aufrufer, schluessel) do update set anfrage_hash = excluded.anfrage_hash, erstellt_am = excluded.erstellt_am, status = null, antwort = null
         where idempotency_keys.erstellt_am < ?
       returning 1 as neu`,
      [scope.mandant, aufrufer, schluessel, hash, at, expiredBefore],
    );
  }) as { rows: unknown[] };
  if (inserted.rows.length) return true;
  const row = await scope.table('idempotency_keys').where({ aufrufer, schluessel }).first('anfrage_hash', 'status', 'antwort', 'erstellt_am');
  return row as Reservation;
}

export async function complete(scope: TenantScope, aufrufer: string, schluessel: string, status: number, antwort: unknown): Promise<void> {
  await scope.table('idempotency_keys').where({ aufrufer, schluessel }).update({ status, antwort: JSON.stringify(antwort ?? null) });
}

export async function release(scope: TenantScope, aufrufer: string, schluessel: string): Promise<void> {
  await scope.table('idempotency_keys').where({ aufrufer, schluessel }).whereNull('status').delete();
}
