// SQL of user administration. Users are global; what a tenant administrator may see is decided by membership
// in their tenant (benutzer_mandanten), which every query here takes as a parameter.
import type { Knex } from 'knex';
import { affectedRows } from '../../db/knex.js';
import { platformSource, type ListDefinition, type ListSource } from '../../records/list/engine.js';

export interface UserRow {
  id: number;
  login: string;
  vorname: string;
  nachname: string;
  email: string;
  status: 'active' | 'inactive';
  adminKz: boolean;
  supportKz: boolean;
  mfaEnabled: boolean;
  mandanten: { mandant: string; adminKz: boolean }[];
}

const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

function base(knex: Knex) {
  return knex('benutzer as b').select(
    'b.id', 'b.login', 'b.vorname', 'b.nachname', 'b.email', 'b.status', 'b.admin_kz', 'b.support_kz', 'b.mfa_enabled',
    knex.raw(`coalesce((select json_agg(json_build_object('mandant', bm.mandant, 'adminKz', bm.admin_kz) order by bm.mandant)
      from benutzer_mandanten bm where bm.benutzer_id = b.id), '[]'::json) as mandanten`),
  );
}

function toUser(r: Record<string, unknown>): UserRow {
  return {
    id: r.id as number, login: r.login as string, vorname: r.vorname as string, nachname: r.nachname as string,
    email: r.email as string, status: r.status as UserRow['status'], adminKz: r.admin_kz as boolean,
    supportKz: r.support_kz as boolean, mfaEnabled: r.mfa_enabled as boolean, mandanten: parse(r.mandanten) as UserRow['mandanten'],
  };
}

/** `mandant` null: every user (system administrator); else the members of that tenant. */
function visible(q: Knex.QueryBuilder, mandant: string | null) {
  if (mandant) q.whereExists((s) => s.from('benutzer_mandanten as v').whereRaw('v.benutzer_id = b.id').andWhere('v.mandant', mandant));
  return q;
}

/** Where the user list reads: the platform tables, limited to the members of `visibleTenant` unless it is null. */
export interface UserListSource extends ListSource {
  /** null: every user (system administrator); else the members of that tenant. */
  visibleTenant: string | null;
}

export const userListSource = (knex: Knex, visibleTenant: string | null): UserListSource => ({ ...platformSource(knex), visibleTenant });

/** The user list (administration page and /api/benutzer): search by login, name and e-mail, sorted by login. */
export const userList: ListDefinition<UserRow, UserListSource> = {
  id: 'benutzer',
  columns: [
    { key: 'login', label: 'benutzer:fields.login', sql: 'b.login', notNull: true },
    { key: 'vorname', label: 'benutzer:fields.vorname', sql: 'b.vorname' },
    { key: 'nachname', label: 'benutzer:fields.nachname', sql: 'b.nachname' },
    { key: 'email', label: 'benutzer:fields.email', sql: 'b.email' },
    { key: 'status', label: 'benutzer:fields.status', sql: 'b.status' },
  ],
  filters: [],
  search: ['b.login', 'b.vorname', 'b.nachname', 'b.email'],
  defaultSort: { key: 'login', dir: 'asc' },
  tieBreaker: 'b.id',
  query: (source) => visible(base(source.knex), source.visibleTenant),
  countAll: true,
  toRow: toUser,
};

export async function findUser(knex: Knex, id: number, mandant: string | null): Promise<UserRow | null> {
  const row = await visible(base(knex).where('b.id', id), mandant).first();
  return row ? toUser(row) : null;
}

export async function loginOrEmailTaken(knex: Knex, login: string, email: string, exceptId?: number) {
  const q = knex('benutzer').where((w) => w.where({ login }).orWhereRaw('lower(email) = lower(?)', [email])).first('login', 'email');
  if (exceptId) q.whereNot({ id: exceptId });
  return q as Promise<{ login: string; email: string } | undefined>;
}

export async function activeTenantAdmins(knex: Knex, mandant: string): Promise<number[]> {
  const rows = await knex('benutzer_mandanten as bm')
    .join('benutzer as b', 'b.id', 'bm.benutzer_id')
    .where({ 'bm.mandant': mandant, 'bm.admin_kz': true, 'b.status': 'active' })
    .select('b.id');
  return rows.map((r) => r.id);
}

/** Every tenant, for the user form's choice of memberships. */
export function allTenants(knex: Knex): Promise<{ mandant: string; name: string; status: string }[]> {
  return knex('mandanten').orderBy('mandant').select('mandant', 'name', 'status');
}

export async function existingTenants(knex: Knex, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  return (await knex('mandanten').whereIn('mandant', ids).select('mandant')).map((r) => r.mandant);
}

export async function deleteSessions(knex: Knex, userId: number): Promise<number> {
  return affectedRows(await knex('sessions').where({ benutzer_id: userId }).delete());
}
