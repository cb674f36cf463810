// What the permission matrix shows, for the plain form (views/berechtigungen/verwaltung.ejs) and for the island
// that replaces it (islands/permission-matrix): scopes, areas by category, the checked boxes and every text,
// translated here so the island needs no dictionary of its own.
import type { TFunction } from 'i18next';
import type { Permission } from '../../permissions/areas.js';
import { checkboxValue } from './schema.js';
import { areasByCategory, type Standort } from './service.js';

export interface MatrixInput {
  lang: string;
  userId: number;
  userName: string;
  standorte: Standort[];
  permissions: Permission[];
  /** Locations added with the "add location" form, shown even while they hold no right yet. */
  requested: string[];
}

export interface MatrixScope {
  nr: string | null;
  label: string;
}

export interface MatrixCell {
  name: 'read' | 'write';
  id: string;
  value: string;
  checked: boolean;
  /** Names area, action and scope: "Einlieferungen – lesen – Alle Standorte". */
  label: string;
}

export function matrixModel(t: TFunction, input: MatrixInput) {
  const k = (key: string, options?: Record<string, unknown>) => t(`berechtigungen:verwaltung.${key}`, options ?? {}) as string;
  const order = new Map(input.standorte.map((s, i) => [s.nr, i]));
  const name = new Map(input.standorte.map((s) => [s.nr, s.name]));
  const scopeLabel = (nr: string | null) => (nr === null ? k('allStandorte') : k('standort', { nr, name: name.get(nr) ?? '' }));

  const nrs = new Set<string>();
  for (const p of input.permissions) if (p.standortNr !== null) nrs.add(p.standortNr);
  for (const nr of input.requested) if (order.has(nr)) nrs.add(nr);
  const scopes: MatrixScope[] = [null, ...[...nrs].sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || a.localeCompare(b))].map(
    (nr) => ({ nr, label: scopeLabel(nr) }),
  );

  const groups = areasByCategory().map((g) => ({
    key: g.category,
    label: t(`berechtigungen:categories.${g.category}`) as string,
    areas: g.areas.map((a) => ({ area: a.area, label: t(`berechtigungen:areas.${a.area}`) as string, read: a.read !== null, write: a.write !== null })),
  }));

  const granted = new Map(input.permissions.map((p) => [checkboxValue(p.area, p.standortNr), p]));
  const cell = (scopeIndex: number, area: { area: string; label: string }, name: 'read' | 'write'): MatrixCell => {
    const scope = scopes[scopeIndex];
    const p = granted.get(checkboxValue(area.area, scope.nr));
    return {
      name,
      id: `pm-${scopeIndex}-${area.area}-${name}`,
      value: checkboxValue(area.area, scope.nr),
      checked: Boolean(name === 'read' ? p?.canRead : p?.canWrite),
      label: k('checkbox', { area: area.label, action: k(name === 'read' ? 'readAction' : 'writeAction'), scope: scope.label }),
    };
  };

  const shown = new Set(scopes.map((s) => s.nr));
  const addable = input.standorte.filter((s) => !shown.has(s.nr)).map((s) => ({ value: s.nr, label: scopeLabel(s.nr) }));

  const props = {
    userId: input.userId,
    userName: input.userName,
    groups,
    standorte: input.standorte.map((s) => ({ nr: s.nr, label: scopeLabel(s.nr) })),
    scopes: scopes.filter((s) => s.nr !== null).map((s) => s.nr),
    permissions: input.permissions,
    labels: {
      caption: k('matrixCaption'),
      area: k('area'),
      read: k('read'),
      write: k('write'),
      readAction: k('readAction'),
      writeAction: k('writeAction'),
      checkbox: k('checkbox', { area: '{area}', action: '{action}', scope: '{scope}' }),
      readComesWithWrite: k('readComesWithWrite'),
      notWritable: k('notWritable'),
      notAvailable: k('notAvailable'),
      allStandorte: k('allStandorte'),
      addStandortLegend: k('addStandortLegend'),
      addStandortLabel: k('addStandortLabel'),
      addStandort: k('addStandort'),
      removeStandort: k('removeStandort', { scope: '{scope}' }),
      allStandorteShown: k('allStandorteShown'),
      noStandorte: k('noStandorte'),
      save: k('save'),
      saving: k('saving'),
      saved: k('saved'),
      savedDescription: k('savedDescription', { name: input.userName }),
      saveFailed: k('saveFailed'),
      unsaved: k('unsaved'),
      scopeHint: k('scopeHint'),
    },
  };

  return {
    userId: input.userId,
    userName: input.userName,
    action: `/${input.lang}/benutzer/berechtigungsverwaltung/${input.userId}`,
    scopes,
    groups,
    cell,
    addable,
    hasStandorte: input.standorte.length > 0,
    /** The locations already shown, carried along by the "add location" form. */
    shownStandorte: scopes.filter((s) => s.nr !== null).map((s) => s.nr as string),
    props,
  };
}

export type MatrixModel = ReturnType<typeof matrixModel>;
