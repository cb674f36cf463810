// The one place that decides permissions. Routes, the sidebar, buttons and the API all ask `can()`.
import { AREAS, type Area, type Gate, type RoleType } from './roles.js';

export { AREAS, IMPORT_AREAS, ROLE_TYPES, type Area, type Gate, type RoleType } from './roles.js';

export interface Role {
  typ: number;
  /** null: the right holds for all locations of the tenant. */
  standortNr: string | null;
}

/** What the permission service needs to know about the signed-in user in the current tenant. */
export interface Principal {
  adminKz: boolean; // system administrator
  supportKz: boolean;
  tenantAdminKz: boolean; // adminKz of the current tenant's entry
  rollen: Role[]; // already filtered to the current tenant
}

/**
 * `sidebar`: the area's sidebar entry is shown (the spec's sidebar roles, where it names them apart from view).
 * `open`: the page that entry leads to opens, for view or sidebar holders, so an entry never bounces; the page
 * shows a sidebar-only holder what they may do there (docs/decisions.md, "Navigation").
 */
export type Action = 'view' | 'edit' | 'sidebar' | 'open';

/** System administrator: the system flag, never support. */
export function isSystemAdmin(p: Pick<Principal, 'adminKz' | 'supportKz'>): boolean {
  return p.adminKz && !p.supportKz;
}

/** The kind of user the principal is in the current tenant, as pages name it. */
export function principalKind(p: Pick<Principal, 'adminKz' | 'supportKz' | 'tenantAdminKz'>): 'support' | 'systemAdmin' | 'tenantAdmin' | 'user' {
  if (p.supportKz) return 'support';
  if (isSystemAdmin(p)) return 'systemAdmin';
  return p.tenantAdminKz ? 'tenantAdmin' : 'user';
}

/**
 * May an administrator manage (edit, reset, deactivate) this user? A system administrator anyone; a tenant
 * administrator only ordinary users, never system administrators or support staff.
 */
export function mayManageUser(p: Principal, target: { adminKz: boolean; supportKz: boolean }): boolean {
  if (!isAdmin(p)) return false;
  return isSystemAdmin(p) || (!target.adminKz && !target.supportKz);
}

/** Admin check (spec section 6): system flag or tenant-admin flag on the current tenant; support never. */
export function isAdmin(p: Principal): boolean {
  if (p.supportKz) return false;
  return p.adminKz || p.tenantAdminKz;
}

function holds(p: Principal, types: readonly RoleType[], standortNr?: string): boolean {
  return p.rollen.some(
    (r) =>
      (types as readonly number[]).includes(r.typ) &&
      (standortNr === undefined || r.standortNr === null || r.standortNr === standortNr),
  );
}

/** May the principal perform `action` on `gate`, optionally for one location? */
export function can(p: Principal, action: Action, gate: Gate, standortNr?: string): boolean {
  switch (gate) {
    case 'open':
      return true;
    case 'admin':
      return isAdmin(p);
    case 'systemAdmin':
      return isSystemAdmin(p);
    case 'support':
      return p.supportKz;
  }
  if (isAdmin(p)) return true;
  const rule = AREAS[gate as Area];
  if (!rule) return false;
  const sidebar = 'sidebar' in rule ? rule.sidebar : rule.view;
  if (action === 'open') return holds(p, rule.view, standortNr) || holds(p, sidebar, standortNr);
  return holds(p, action === 'edit' ? rule.edit : action === 'sidebar' ? sidebar : rule.view, standortNr);
}

/**
 * The locations whose rows the principal may see in an area: `all`, or the list of location numbers.
 * Feature repositories pass this to the tenant-scoped query helper, so location limits hold on data too.
 */
export function standortScope(p: Principal, action: 'view' | 'edit', area: Area): 'all' | string[] {
  if (isAdmin(p)) return 'all';
  const types = (action === 'edit' ? AREAS[area].edit : AREAS[area].view) as readonly number[];
  const matching = p.rollen.filter((r) => types.includes(r.typ));
  if (matching.some((r) => r.standortNr === null)) return 'all';
  return [...new Set(matching.map((r) => r.standortNr as string))];
}
