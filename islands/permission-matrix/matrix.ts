// The matrix's state rules, free of React so they are tested on their own: grants per area and location scope,
// "write implies read" kept as the user clicks, and the PUT body built from what is shown.
export interface AreaDef {
  area: string;
  label: string;
  /** The area has a read role; without one, reading comes with writing. */
  read: boolean;
  /** The area has a write role. */
  write: boolean;
}

export interface Permission {
  area: string;
  canRead: boolean;
  canWrite: boolean;
  standortNr: string | null;
}

export interface Grant {
  canRead: boolean;
  canWrite: boolean;
}

export type Grants = Readonly<Record<string, Grant>>;

export const grantKey = (area: string, standortNr: string | null) => `${area}@${standortNr ?? ''}`;

export function fromPermissions(permissions: Permission[]): Grants {
  const grants: Record<string, Grant> = {};
  for (const p of permissions) grants[grantKey(p.area, p.standortNr)] = { canRead: p.canRead || p.canWrite, canWrite: p.canWrite };
  return grants;
}

export function grantOf(grants: Grants, area: string, standortNr: string | null): Grant {
  return grants[grantKey(area, standortNr)] ?? { canRead: false, canWrite: false };
}

/**
 * One click. Ticking write ticks read; unticking read unticks write (whoever may write may read). Unticking write
 * keeps read where the area has a read role of its own; where it has none, reading goes with writing.
 */
export function toggle(grants: Grants, area: AreaDef, standortNr: string | null, which: 'read' | 'write', checked: boolean): Grants {
  const current = grantOf(grants, area.area, standortNr);
  let next: Grant;
  if (which === 'write') {
    if (!area.write) return grants;
    next = checked ? { canRead: true, canWrite: true } : { canRead: area.read ? current.canRead : false, canWrite: false };
  } else {
    if (!area.read) return grants;
    next = checked ? { canRead: true, canWrite: current.canWrite } : { canRead: false, canWrite: false };
  }
  return { ...grants, [grantKey(area.area, standortNr)]: next };
}

/** Forgets every grant of one location scope (its column was removed). */
export function withoutScope(grants: Grants, standortNr: string): Grants {
  // Area names never contain "@": everything after the first one is the location.
  return Object.fromEntries(Object.entries(grants).filter(([key]) => key.slice(key.indexOf('@') + 1) !== standortNr));
}

/** The PUT body's list: one entry per shown scope and area that grants something. */
export function toPermissions(grants: Grants, areas: AreaDef[], scopes: (string | null)[]): Permission[] {
  const result: Permission[] = [];
  for (const standortNr of scopes) {
    for (const a of areas) {
      const g = grantOf(grants, a.area, standortNr);
      const canWrite = a.write && g.canWrite;
      const canRead = a.read ? g.canRead || canWrite : canWrite;
      if (canRead || canWrite) result.push({ area: a.area, canRead, canWrite, standortNr });
    }
  }
  return result;
}

/** Replaces {area}, {action} and {scope} in a label the server translated. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
