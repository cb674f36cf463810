// The areas of permission management (spec section 6) and the role types behind them. The matrix reads a
// user's roles as canRead/canWrite per area and writes them back as role rows; this is the only mapping.
import type { RoleType } from './roles.js';

export type PermissionCategory = 'standorte' | 'stammdaten' | 'bewegungsdaten' | 'nachweise' | 'berichte';

export interface PermissionArea {
  area: string;
  category: PermissionCategory;
  /** Role type that grants reading; null when only the write role exists. */
  read: RoleType | null;
  /** Role type that grants writing; null when the area cannot be written. */
  write: RoleType | null;
}

export const PERMISSION_AREAS: readonly PermissionArea[] = [
  { area: 'standorte', category: 'standorte', read: 3, write: 4 },
  { area: 'produkte', category: 'stammdaten', read: 1, write: 2 },
  { area: 'partner', category: 'stammdaten', read: 5, write: 6 },
  { area: 'abholungen', category: 'bewegungsdaten', read: 7, write: 8 },
  { area: 'einlieferungen', category: 'bewegungsdaten', read: 9, write: 10 },
  { area: 'ablieferungen', category: 'bewegungsdaten', read: 11, write: 12 },
  { area: 'bestaende', category: 'bewegungsdaten', read: 13, write: 14 },
  { area: 'cockpit', category: 'bewegungsdaten', read: 17, write: null },
  // Beyond the spec's list: the two import rights (role types 19 and 20) need a place in the matrix too.
  { area: 'import-einlieferungen', category: 'bewegungsdaten', read: 19, write: null },
  { area: 'import-ablieferungen', category: 'bewegungsdaten', read: 20, write: null },
  { area: 'nachweise', category: 'nachweise', read: null, write: 15 },
  { area: 'nachweisverfolgung', category: 'nachweise', read: null, write: 16 },
  { area: 'zertifikate', category: 'nachweise', read: 21, write: 22 },
  { area: 'bilanzen', category: 'nachweise', read: 23, write: 24 },
  { area: 'poc', category: 'nachweise', read: 25, write: null },
  { area: 'berichte', category: 'berichte', read: null, write: 18 },
];

export const PERMISSION_CATEGORIES: readonly PermissionCategory[] = ['standorte', 'stammdaten', 'bewegungsdaten', 'nachweise', 'berichte'];

export interface Permission {
  area: string;
  canRead: boolean;
  canWrite: boolean;
  /** null: all locations of the tenant. */
  standortNr: string | null;
}

export function findArea(area: string): PermissionArea | undefined {
  return PERMISSION_AREAS.find((a) => a.area === area);
}

/** A user's roles in one tenant as permissions (one entry per area and location scope that grants something). */
export function permissionsFromRoles(rollen: { typ: number; standortNr: string | null }[]): Permission[] {
  const result: Permission[] = [];
  for (const a of PERMISSION_AREAS) {
    const scopes = new Set(rollen.filter((r) => r.typ === a.read || r.typ === a.write).map((r) => r.standortNr));
    for (const standortNr of scopes) {
      const has = (typ: number | null) => typ != null && rollen.some((r) => r.typ === typ && r.standortNr === standortNr);
      const canWrite = has(a.write);
      // Whoever may write may read (spec: viewing needs read or write); an area with only a write role reads with it.
      result.push({ area: a.area, canRead: has(a.read) || canWrite, canWrite, standortNr });
    }
  }
  return result;
}

/** Permissions back to role rows. Unknown areas and writes on read-only areas are the caller's 400. */
export function rolesFromPermissions(permissions: Permission[]): { typ: number; standortNr: string | null }[] {
  const roles = new Map<string, { typ: number; standortNr: string | null }>();
  const add = (typ: number | null, standortNr: string | null) => {
    if (typ != null) roles.set(`${typ}|${standortNr ?? ''}`, { typ, standortNr });
  };
  for (const p of permissions) {
    const a = findArea(p.area);
    if (!a) continue;
    if (p.canWrite) add(a.write, p.standortNr);
    if (p.canRead || p.canWrite) add(a.read ?? a.write, p.standortNr);
  }
  return [...roles.values()];
}
