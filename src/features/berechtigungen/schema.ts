// Inputs of permission management, validated at the edge. The HTML form is turned into the same body as the
// API's PUT and checked by the same schema, so both paths accept and refuse exactly the same things.
import { z } from 'zod';
import { PERMISSION_AREAS, type Permission } from '../../permissions/areas.js';

export const MAX_PERMISSIONS = 500;
const AREA_NAMES = PERMISSION_AREAS.map((a) => a.area) as [string, ...string[]];

/** A user id from the path or query: digits only. Anything else names no user (the caller's 404). */
export const UserId = z.string().regex(/^[1-9]\d{0,8}$/).transform(Number);

const StandortNr = z.string().trim().min(1).max(32);

export const PermissionEntry = z
  .object({
    area: z.enum(AREA_NAMES),
    canRead: z.boolean(),
    canWrite: z.boolean(),
    /** null: all locations of the tenant; else one of the tenant's locations (checked by the service). */
    standortNr: StandortNr.nullable(),
  })
  .strict();

export const PermissionsBody = z.object({ permissions: z.array(PermissionEntry).max(MAX_PERMISSIONS) }).strict();
export type PermissionsInput = z.infer<typeof PermissionsBody>;

const oneOrMany = (max: number) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().max(80)).max(max));

/**
 * The page's query: the chosen user, and the locations whose fieldsets the admin added with the "add location"
 * form (they show even before they hold a right). Invalid values are ignored rather than refused: a query
 * string is a link, and a stale link should still open the page.
 */
export const PageQuery = z.object({
  benutzer: z.string().max(20).optional().catch(undefined),
  standort: oneOrMany(100).catch([]),
});

/**
 * The plain HTML form of the matrix. Each checkbox is named `read` or `write`; its value is the area and the
 * location scope joined by `@` (`einlieferungen@` for all locations, `einlieferungen@1001` for one), so the
 * urlencoded body stays flat (`read=produkte@&write=einlieferungen@1001`). Area names never contain `@`.
 * Writing implies reading here as in the API.
 */
export const MatrixForm = z.object({
  read: oneOrMany(MAX_PERMISSIONS * 2),
  write: oneOrMany(MAX_PERMISSIONS * 2),
});

export function formToPermissions(form: z.infer<typeof MatrixForm>): Permission[] {
  const byKey = new Map<string, Permission>();
  const entry = (value: string) => {
    const at = value.indexOf('@');
    const area = at < 0 ? value : value.slice(0, at);
    const nr = at < 0 ? '' : value.slice(at + 1);
    const key = `${area}@${nr}`;
    let p = byKey.get(key);
    if (!p) {
      p = { area, canRead: false, canWrite: false, standortNr: nr === '' ? null : nr };
      byKey.set(key, p);
    }
    return p;
  };
  for (const v of form.read) entry(v).canRead = true;
  for (const v of form.write) {
    const p = entry(v);
    p.canWrite = true;
    p.canRead = true;
  }
  return [...byKey.values()];
}

/** The value of a checkbox of the plain form (see MatrixForm). */
export const checkboxValue = (area: string, standortNr: string | null) => `${area}@${standortNr ?? ''}`;
