// The rules of permission management (spec section 6). An administrator sets, per area and per location scope,
// canRead and canWrite for a non-administrative member of the current tenant; the permissions are stored as
// role rows (src/permissions/areas.ts is the only mapping). Administrators and support staff are refused as
// targets: administrators pass every check anyway, and support's rights are not the tenant's to give.
// Saving replaces the user's rows of this tenant in one transaction, together with its audit entry.
import type { Knex } from 'knex';
import { audit } from '../../db/audit.js';
import type { TenantScope } from '../../db/scope.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import {
  findArea, permissionsFromRoles, rolesFromPermissions, PERMISSION_AREAS, PERMISSION_CATEGORIES, type Permission,
} from '../../permissions/areas.js';
import { AREAS, ROLE_TYPES, can, isAdmin, principalKind, standortScope, type Area, type Principal } from '../../permissions/index.js';
import * as repo from './repo.js';

export type { Member, Standort } from './repo.js';

export const userNotFound = () => new HttpError(404, 'NOT_FOUND', 'errors.userNotFound');

export interface UserPermissions {
  userId: number;
  permissions: Permission[];
}

/**
 * The member whose permissions may be managed here: a member of this tenant (else 404, as if there were no such
 * user) who is neither an administrator (409: they pass every check, rights would mean nothing) nor support.
 */
export async function manageableMember(scope: TenantScope, userId: number, forUpdate = false): Promise<repo.Member> {
  const member = await repo.findMember(scope, userId, forUpdate);
  if (!member) throw userNotFound();
  const kind = principalKind(member);
  if (kind === 'support') throw new HttpError(409, 'TARGET_IS_SUPPORT', 'berechtigungen:errors.targetIsSupport');
  if (kind !== 'user') throw new HttpError(409, 'TARGET_IS_ADMIN', 'berechtigungen:errors.targetIsAdmin');
  return member;
}

export async function getPermissions(scope: TenantScope, userId: number): Promise<UserPermissions> {
  return permissionsOf(scope, await manageableMember(scope, userId));
}

/** The permissions of a member that manageableMember() returned (the page has checked already: no second look-up). */
/** A member's permissions: from the roles read with the member (a candidate), else read now. */
export async function permissionsOf(scope: TenantScope, member: repo.Member & { roles?: repo.RoleRow[] }): Promise<UserPermissions> {
  return { userId: member.id, permissions: permissionsFromRoles(member.roles ?? (await repo.rolesOf(scope, member.id))) };
}

/**
 * What the schema cannot know: locations must be the tenant's, a write needs a write role, reading an area
 * that has only a write role comes with writing (never alone: that would silently grant the write role),
 * and each area and scope appears once.
 */
function problems(permissions: Permission[], standorte: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  permissions.forEach((p, i) => {
    const area = findArea(p.area);
    if (!area) {
      errors.push({ field: `permissions.${i}.area`, message: 'validation.invalid' });
      return;
    }
    if (p.standortNr !== null && !standorte.has(p.standortNr)) {
      errors.push({ field: `permissions.${i}.standortNr`, message: 'berechtigungen:errors.unknownStandort' });
    }
    if (p.canWrite && area.write === null) {
      errors.push({ field: `permissions.${i}.canWrite`, message: 'berechtigungen:errors.notWritable' });
    }
    if (p.canRead && !p.canWrite && area.read === null) {
      errors.push({ field: `permissions.${i}.canRead`, message: 'berechtigungen:errors.readComesWithWrite' });
    }
    const key = `${p.area}@${p.standortNr ?? ''}`;
    if (seen.has(key)) errors.push({ field: `permissions.${i}`, message: 'berechtigungen:errors.duplicate' });
    seen.add(key);
  });
  return errors;
}

export interface Actor {
  id: number;
  ip?: string;
}

/** Replaces the user's permissions in this tenant; nothing changes on any error. */
export async function savePermissions(scope: TenantScope, actor: Actor, userId: number, permissions: Permission[]): Promise<UserPermissions> {
  return scope.transaction(async (tx) => {
    await manageableMember(tx, userId, true);
    const standorte = new Set((await repo.listStandorte(tx)).map((s) => s.nr));
    const errors = problems(permissions, standorte);
    if (errors.length) throw new HttpError(400, 'BAD_REQUEST', 'errors.badRequest', errors);

    const before = permissionsFromRoles(await repo.rolesOf(tx, userId));
    await repo.replaceRoles(tx, userId, rolesFromPermissions(permissions));
    const after = permissionsFromRoles(await repo.rolesOf(tx, userId));
    await audit(tx.knex as Knex, {
      kind: 'admin.berechtigungen.update', mandant: tx.mandant, benutzerId: actor.id, entity: 'benutzer', entityId: userId,
      before, after, ip: actor.ip,
    });
    return { userId, permissions: after };
  });
}

/** The users an administrator can pick in permission management. */
export const candidates = (scope: TenantScope) => repo.listPlainMembers(scope);

export const standorteOf = (scope: TenantScope) => repo.listStandorte(scope);

/** The permission areas grouped by category, in the order of the matrix. */
export function areasByCategory() {
  return PERMISSION_CATEGORIES.map((category) => ({
    category,
    areas: PERMISSION_AREAS.filter((a) => a.category === category),
  })).filter((g) => g.areas.length > 0);
}

export interface RoleOverviewRow {
  typ: number;
  name: string;
  holders: { benutzerId: number; vorname: string; nachname: string; login: string; allStandorte: boolean; standorte: string[] }[];
}

/** The 25 role types and who holds each in this tenant (for all locations, or for which ones). */
export async function roleOverview(scope: TenantScope): Promise<RoleOverviewRow[]> {
  const rows = await repo.roleHolders(scope);
  return Object.entries(ROLE_TYPES).map(([typ, name]) => {
    const holders = new Map<number, RoleOverviewRow['holders'][number]>();
    for (const r of rows.filter((row) => row.typ === Number(typ))) {
      let h = holders.get(r.benutzerId);
      if (!h) {
        h = { benutzerId: r.benutzerId, vorname: r.vorname, nachname: r.nachname, login: r.login, allStandorte: false, standorte: [] };
        holders.set(r.benutzerId, h);
      }
      if (r.standortNr === null) h.allStandorte = true;
      else h.standorte.push(r.standortNr);
    }
    return { typ: Number(typ), name, holders: [...holders.values()] };
  });
}

export type Reach = { allowed: false } | { allowed: true; standorte: 'all' | string[] };

export interface OwnArea {
  area: Area;
  view: Reach;
  edit: Reach;
}

/** What the principal may see and do per area of the route tree: asked of can() and standortScope() only. */
export function ownPermissions(principal: Principal): { admin: boolean; areas: OwnArea[] } {
  const reach = (action: 'view' | 'edit', area: Area): Reach =>
    can(principal, action, area) ? { allowed: true, standorte: standortScope(principal, action, area) } : { allowed: false };
  return {
    admin: isAdmin(principal),
    areas: (Object.keys(AREAS) as Area[]).map((area) => ({ area, view: reach('view', area), edit: reach('edit', area) })),
  };
}
