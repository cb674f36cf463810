// The tenant-list rules of spec sections 4 and 5, for clients that receive `mandanten` from the login call:
// only an array counts, entries without a string `mandant` are dropped, an empty result is rejected, names
// compare case-insensitively (stored upper-case). One tenant is chosen at once; several need a choice.
export interface TenantEntry {
  mandant: string;
  adminKz: boolean;
}

export function normaliseTenantList(input: unknown): TenantEntry[] | null {
  if (!Array.isArray(input)) return null;
  const seen = new Set<string>();
  const list: TenantEntry[] = [];
  for (const entry of input) {
    const name = (entry as { mandant?: unknown })?.mandant;
    if (typeof name !== 'string' || !name.trim()) continue;
    const mandant = name.trim().toUpperCase();
    if (seen.has(mandant)) continue;
    seen.add(mandant);
    list.push({ mandant, adminKz: (entry as { adminKz?: unknown }).adminKz === true });
  }
  return list.length ? list : null;
}

/** The tenant to use without asking: the only one; or the current one, if it is in the list. */
export function chooseTenant(list: TenantEntry[], current?: string | null): string | null {
  if (list.length === 1) return list[0].mandant;
  const wanted = current?.trim().toUpperCase();
  return wanted && list.some((t) => t.mandant === wanted) ? wanted : null;
}
