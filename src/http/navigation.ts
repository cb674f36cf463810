// The shell's navigation model: the sidebar groups with the entries the signed-in user may see, built from
// the route tree and the permission service (never decided in templates).
import { can, type Principal } from '../permissions/index.js';
import { PAGES, SIDEBAR_GROUPS, type GroupKey } from '../permissions/route-tree.js';

export interface NavEntry {
  key: string;
  href: string;
  active: boolean;
}

export interface NavGroup {
  key: GroupKey;
  entries: NavEntry[];
  active: boolean;
}

export function sidebarFor(principal: Principal, lang: string, currentPath: string): NavGroup[] {
  return SIDEBAR_GROUPS.map((group) => {
    // The spec's sidebar roles decide visibility (movement import with 19, 20 or 22; Tankstelle with 17); the
    // page behind an entry opens to them too ('open'), so no entry bounces (docs/decisions.md, "Navigation").
    const entries = PAGES.filter(
      (p) => p.group === group && p.inSidebar && can(principal, 'sidebar', p.gate) && can(principal, p.action === 'edit' ? 'edit' : 'open', p.gate),
    ).map((p) => ({
      key: p.key,
      href: `/${lang}/${p.path}`,
      active: currentPath === p.path || currentPath.startsWith(`${p.path}/`),
    }));
    return { key: group, entries, active: entries.some((e) => e.active) };
  }).filter((g) => g.entries.length > 0); // a group shows only if at least one child is permitted
}
