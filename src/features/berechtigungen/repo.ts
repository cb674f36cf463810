// SQL of permission management. Every query goes through the request's TenantScope, so a user, a role or a
// location of another tenant is simply not there.
import type { TenantScope } from '../../db/scope.js';

export interface Member {
  id: number;
  login: string;
  vorname: string;
  nachname: string;
  status: 'active' | 'inactive';
  /** System administrator flag of the user. */
  adminKz: boolean;
  supportKz: boolean;
  /** Administrator of this tenant. */
  tenantAdminKz: boolean;
}

export interface RoleRow {
  typ: number;
  standortNr: string | null;
}

export interface Standort {
  nr: string;
  name: string;
}

const memberColumns = [
  'b.id', 'b.login', 'b.vorname', 'b.nachname', 'b.status', 'b.admin_kz as adminKz', 'b.support_kz as supportKz',
  'bm.admin_kz as tenantAdminKz',
];

/** Members of the tenant (via benutzer_mandanten); `forUpdate` locks the membership row for a change. */
export async function findMember(scope: TenantScope, userId: number, forUpdate = false): Promise<Member | undefined> {
  const query = scope
    .table('benutzer_mandanten', 'bm')
    .join('benutzer as b', 'b.id', 'bm.benutzer_id')
    .where('bm.benutzer_id', userId)
    .first(memberColumns);
  // Two admins saving the same user at once: the second waits for the first instead of colliding on rollen_uq.
  return (forUpdate ? query.forUpdate('bm') : query) as Promise<Member | undefined>;
}

/** Members who are neither administrators (of the system or this tenant) nor support staff. */
/**
 * The members an administrator may give rights, each with their roles in this tenant (one query: the page
 * that shows one member's matrix needs no second look-up).
 */
export async function listPlainMembers(scope: TenantScope): Promise<(Member & { roles: RoleRow[] })[]> {
  const rows = (await scope
    .table('benutzer_mandanten', 'bm')
    .join('benutzer as b', 'b.id', 'bm.benutzer_id')
    .where({ 'bm.admin_kz': false, 'b.admin_kz': false, 'b.support_kz': false })
    .orderBy([{ column: 'b.nachname' }, { column: 'b.vorname' }, { column: 'b.login' }])
    .select([
      ...memberColumns,
      scope.knex.raw(`coalesce((select json_agg(json_build_object('typ', r.typ, 'standortNr', r.standort_nr) order by r.typ, r.standort_nr)
        from rollen r where r.mandant = bm.mandant and r.benutzer_id = b.id), '[]'::json) as roles`),
    ])) as (Member & { roles: RoleRow[] | string })[];
  return rows.map((r) => ({ ...r, roles: typeof r.roles === 'string' ? (JSON.parse(r.roles) as RoleRow[]) : r.roles }));
}

export async function rolesOf(scope: TenantScope, userId: number): Promise<RoleRow[]> {
  return scope
    .table('rollen')
    .where('benutzer_id', userId)
    .orderBy([{ column: 'typ' }, { column: 'standort_nr' }])
    .select('typ', 'standort_nr as standortNr') as unknown as Promise<RoleRow[]>;
}

/** Replaces all of the user's roles in this tenant. Call inside scope.transaction(). */
export async function replaceRoles(scope: TenantScope, userId: number, roles: RoleRow[]): Promise<void> {
  await scope.table('rollen').where('benutzer_id', userId).del();
  if (roles.length === 0) return;
  await scope.insert(
    'rollen',
    roles.map((r) => ({ benutzer_id: userId, typ: r.typ, standort_nr: r.standortNr })),
  );
}

export async function listStandorte(scope: TenantScope): Promise<Standort[]> {
  return scope.table('standorte').orderBy('nr').select('nr', 'name') as unknown as Promise<Standort[]>;
}

export interface HolderRow {
  typ: number;
  benutzerId: number;
  vorname: string;
  nachname: string;
  login: string;
  standortNr: string | null;
}

/** Every role row of the tenant with its holder's name, for the role overview. */
export async function roleHolders(scope: TenantScope): Promise<HolderRow[]> {
  return scope
    .table('rollen', 'r')
    .join('benutzer as b', 'b.id', 'r.benutzer_id')
    // Only current members: rows of a user who has left the tenant grant nothing there.
    .join('benutzer_mandanten as bm', (j) => j.on('bm.benutzer_id', 'r.benutzer_id').andOn('bm.mandant', 'r.mandant'))
    .orderBy([{ column: 'r.typ' }, { column: 'b.nachname' }, { column: 'b.vorname' }, { column: 'b.login' }, { column: 'r.standort_nr' }])
    .select('r.typ', 'r.benutzer_id as benutzerId', 'b.vorname', 'b.nachname', 'b.login', 'r.standort_nr as standortNr') as unknown as Promise<
    HolderRow[]
  >;
}
