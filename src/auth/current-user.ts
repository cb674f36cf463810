// The signed-in user as every request sees it, loaded in one query: user, tenant list, roles, locations
// and personal settings.
import type { Knex } from 'knex';
import type { Principal, Role } from '../permissions/index.js';
import { DEFAULT_PAGE_SIZE } from '../records/list/page-size.js';

export interface UserSettings {
  language: 'de' | 'en';
  itemsPerPage: number;
  emailNotifications: boolean;
  browserNotifications: boolean;
  compactMode: boolean;
  timezone: string;
  dateFormat: string;
  theme: 'light' | 'dark';
}

export const DEFAULT_SETTINGS: UserSettings = {
  language: 'de',
  itemsPerPage: DEFAULT_PAGE_SIZE,
  emailNotifications: true,
  browserNotifications: true,
  compactMode: false,
  timezone: 'Europe/Berlin',
  dateFormat: 'dd.MM.yyyy',
  theme: 'light',
};

export interface MandantEntry {
  mandant: string;
  adminKz: boolean;
}

export interface CurrentUser {
  id: number;
  login: string;
  email: string;
  vorname: string;
  nachname: string;
  status: 'active' | 'inactive';
  adminKz: boolean;
  supportKz: boolean;
  mfaEnabled: boolean;
  /** Active tenants the user belongs to. */
  mandanten: MandantEntry[];
  rollen: (Role & { mandant: string })[];
  standorte: { mandant: string; nr: string; name: string }[];
  settings: UserSettings;
  /**
   * Set when an API key acts (src/features/api-keys): the key's scope is `rollen`, its tenant the only entry
   * of `mandanten`, and `id` is its creator's, who answers for what it writes.
   */
  apiKey?: { id: number; name: string };
}

function parseJson<T>(value: unknown, fallback: T): T {
  if (value == null) return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/**
 * The columns of a CurrentUser row, for the user aliased `b` (benutzer): one row with the tenant list, roles,
 * locations and settings aggregated, so a user costs one round trip (and, read with the session, none of its own).
 */
export function currentUserColumns(knex: Knex) {
  return [
    'b.id', 'b.login', 'b.email', 'b.vorname', 'b.nachname', 'b.status', 'b.admin_kz', 'b.support_kz', 'b.mfa_enabled',
    knex.raw(`coalesce((select json_agg(json_build_object('mandant', bm.mandant, 'adminKz', bm.admin_kz) order by bm.mandant)
      from benutzer_mandanten bm join mandanten m on m.mandant = bm.mandant
      where bm.benutzer_id = b.id and m.status = 'active'), '[]'::json) as mandanten`),
    knex.raw(`coalesce((select json_agg(json_build_object('mandant', r.mandant, 'typ', r.typ, 'standortNr', r.standort_nr) order by r.mandant, r.typ)
      from rollen r where r.benutzer_id = b.id), '[]'::json) as rollen`),
    // Location names are tenant data under row-level security: the database function reads each of the
    // user's tenants with that tenant set (migrations/20261125000000_row_level_security.ts).
    knex.raw(`coalesce((select json_agg(json_build_object('mandant', s.mandant, 'nr', s.nr, 'name', s.name) order by s.mandant, s.nr)
      from benutzer_standorte_namen(b.id) s), '[]'::json) as standorte`),
    knex.raw(`(select e.data from einstellungen e where e.benutzer_id = b.id and e.typ = 1) as settings`),
  ];
}

/** A row of currentUserColumns() as the CurrentUser every request sees. */
export function toCurrentUser(row: Record<string, unknown>): CurrentUser {
  const stored = parseJson<Partial<UserSettings>>(row.settings, {});
  return {
    id: row.id as number,
    login: row.login as string,
    email: row.email as string,
    vorname: row.vorname as string,
    nachname: row.nachname as string,
    status: row.status as CurrentUser['status'],
    adminKz: row.admin_kz as boolean,
    supportKz: row.support_kz as boolean,
    mfaEnabled: row.mfa_enabled as boolean,
    mandanten: parseJson(row.mandanten, []),
    rollen: parseJson(row.rollen, []),
    standorte: parseJson(row.standorte, []),
    settings: { ...DEFAULT_SETTINGS, ...stored },
  };
}

export async function loadCurrentUser(knex: Knex, id: number): Promise<CurrentUser | null> {
  const row = await knex('benutzer as b').where('b.id', id).first(currentUserColumns(knex));
  return row ? toCurrentUser(row) : null;
}

/** The permission service's view of the user in one tenant: roles filtered to that tenant. */
export function principalFor(user: CurrentUser, mandant: string | null): Principal {
  const entry = user.mandanten.find((m) => m.mandant === mandant);
  return {
    adminKz: user.adminKz,
    supportKz: user.supportKz,
    tenantAdminKz: entry?.adminKz ?? false,
    rollen: mandant ? user.rollen.filter((r) => r.mandant === mandant).map(({ typ, standortNr }) => ({ typ, standortNr })) : [],
  };
}

export function fullName(user: Pick<CurrentUser, 'vorname' | 'nachname'> | null | undefined): string {
  if (!user) return '';
  return [user.vorname, user.nachname].filter(Boolean).join(' ');
}

/** Login names are trimmed and upper-cased unless they contain @ (spec section 5). */
export function normaliseLogin(login: string): string {
  const trimmed = login.trim();
  return trimmed.includes('@') ? trimmed : trimmed.toUpperCase();
}

export async function findUserForLogin(knex: Knex, login: string) {
  const normalised = normaliseLogin(login);
  const query = knex('benutzer').select('id', 'password_hash', 'status', 'mfa_enabled');
  return normalised.includes('@')
    ? query.whereRaw('lower(email) = lower(?)', [normalised]).first()
    : query.where({ login: normalised }).first();
}
