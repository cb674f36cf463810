// The permission matrix as one table: rows are the areas grouped by category, column groups the location scopes
// ("all locations" first) with a read and a write checkbox each. Write implies read as the user clicks; saving
// PUTs the whole set to /api/berechtigungen/{userId}. Every text arrives translated in the props.
import { createContext, useContext, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { ApiError, api } from '../lib/api';
import { showNoPermission } from '../lib/dialogs';
import { toast } from '../lib/toasts';
import { fill, fromPermissions, grantOf, toPermissions, toggle, withoutScope, type AreaDef, type Grants, type Permission } from './matrix';
import { iconHref } from '../lib/icons';

export interface PermissionMatrixProps {
  userId: number;
  userName: string;
  groups: { key: string; label: string; areas: AreaDef[] }[];
  /** Every location of the tenant, labelled "Standort 1001 – Name". */
  standorte: { nr: string; label: string }[];
  /** The locations shown at first besides "all locations". */
  scopes: string[];
  permissions: Permission[];
  labels: Record<
    | 'caption' | 'area' | 'read' | 'write' | 'readAction' | 'writeAction' | 'checkbox' | 'readComesWithWrite' | 'notWritable'
    | 'notAvailable' | 'allStandorte' | 'addStandortLegend' | 'addStandortLabel' | 'addStandort' | 'removeStandort'
    | 'allStandorteShown' | 'noStandorte' | 'save' | 'saving' | 'saved' | 'savedDescription' | 'saveFailed' | 'unsaved' | 'scopeHint',
    string
  >;
}

interface Row extends AreaDef {
  category: string;
}

interface MatrixState {
  grants: Grants;
  set(area: AreaDef, standortNr: string | null, which: 'read' | 'write', checked: boolean): void;
  scopeLabel(standortNr: string | null): string;
  /** Stable, id-safe name of a scope: "all" or the location's index in the tenant's list. */
  scopeId(standortNr: string | null): string;
  labels: PermissionMatrixProps['labels'];
}

const MatrixContext = createContext<MatrixState | null>(null);
const features = tableFeatures({});
const helper = createColumnHelper<typeof features, Row>();
const rowId = (row: Row) => row.area;

function Box({ area, standortNr, which }: { area: AreaDef; standortNr: string | null; which: 'read' | 'write' }) {
  const m = useContext(MatrixContext)!;
  const g = grantOf(m.grants, area.area, standortNr);
  const id = `pmi-${m.scopeId(standortNr)}-${area.area}-${which}`;
  const label = fill(m.labels.checkbox, {
    area: area.label, action: which === 'read' ? m.labels.readAction : m.labels.writeAction, scope: m.scopeLabel(standortNr),
  });
  if (which === 'write' && !area.write) {
    return (
      <>
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">{m.labels.notAvailable}</span>
      </>
    );
  }
  // Without a read role of its own, reading comes with writing: shown, but not a choice.
  const readOnlyWithWrite = which === 'read' && !area.read;
  const checked = which === 'read' ? (readOnlyWithWrite ? g.canWrite : g.canRead) : g.canWrite;
  return (
    <>
      <input
        type="checkbox"
        id={id}
        checked={checked}
        disabled={readOnlyWithWrite}
        aria-describedby={readOnlyWithWrite ? 'pmi-read-with-write' : undefined}
        onChange={(e) => m.set(area, standortNr, which, e.currentTarget.checked)}
      />
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
    </>
  );
}

function ScopeHeader({ standortNr, onRemove }: { standortNr: string | null; onRemove: (nr: string) => void }) {
  const m = useContext(MatrixContext)!;
  const label = m.scopeLabel(standortNr);
  return (
    <span className="permission-scope-head">
      <span>{label}</span>
      {standortNr !== null && (
        <button type="button" className="btn btn-ghost btn-icon btn-sm" aria-label={fill(m.labels.removeStandort, { scope: label })} title={fill(m.labels.removeStandort, { scope: label })} onClick={() => onRemove(standortNr)}>
          <svg className="icon" aria-hidden="true">
            <use href={iconHref('close')} />
          </svg>
        </button>
      )}
    </span>
  );
}

export function PermissionMatrix(props: PermissionMatrixProps) {
  const { labels } = props;
  const [grants, setGrants] = useState<Grants>(() => fromPermissions(props.permissions));
  const [scopes, setScopes] = useState<(string | null)[]>(() => [null, ...props.scopes]);
  const [adding, setAdding] = useState('');
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  // Where keyboard focus goes after a column appears or disappears, so it is never lost with a removed button.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const standortIndex = useMemo(() => new Map(props.standorte.map((s, i) => [s.nr, i])), [props.standorte]);
  const areas = useMemo(() => props.groups.flatMap((g) => g.areas), [props.groups]);
  const data = useMemo<Row[]>(() => props.groups.flatMap((g) => g.areas.map((a) => ({ ...a, category: g.key }))), [props.groups]);

  const removeScope = (nr: string) => {
    focusNext.current = 'pmi-add';
    setScopes((s) => s.filter((x) => x !== nr));
    setGrants((g) => withoutScope(g, nr));
    setDirty(true);
  };

  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor('label', { id: 'area', header: labels.area, cell: (info) => info.getValue() }),
        ...scopes.map((nr) =>
          helper.group({
            id: `scope-${nr ?? ''}`,
            header: () => <ScopeHeader standortNr={nr} onRemove={removeScope} />,
            columns: [
              helper.display({ id: `read-${nr ?? ''}`, header: labels.read, cell: ({ row }) => <Box area={row.original} standortNr={nr} which="read" /> }),
              helper.display({ id: `write-${nr ?? ''}`, header: labels.write, cell: ({ row }) => <Box area={row.original} standortNr={nr} which="write" /> }),
            ],
          }),
        ),
      ]),
    // removeScope only uses state setters and a ref, which React keeps stable.
    [scopes, labels],
  );

  const table = useTable({ features, columns, data, getRowId: rowId });

  const state: MatrixState = {
    grants,
    labels,
    set(area, standortNr, which, checked) {
      setGrants((g) => toggle(g, area, standortNr, which, checked));
      setDirty(true);
    },
    scopeLabel: (nr) => (nr === null ? labels.allStandorte : (props.standorte[standortIndex.get(nr) ?? -1]?.label ?? nr)),
    scopeId: (nr) => (nr === null ? 'all' : String(standortIndex.get(nr) ?? nr.replace(/[^\w-]/g, '_'))),
  };

  const addable = props.standorte.filter((s) => !scopes.includes(s.nr));
  const rowsByCategory = props.groups.map((g) => ({ group: g, rows: table.getRowModel().rows.filter((r) => r.original.category === g.key) }));
  const columnCount = 1 + scopes.length * 2;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      const res = await api<{ data: { permissions: Permission[] } }>(`/berechtigungen/${props.userId}`, {
        method: 'PUT',
        body: JSON.stringify({ permissions: toPermissions(grants, areas, scopes) }),
      });
      setGrants(fromPermissions(res.data.permissions));
      setDirty(false);
      toast({ title: labels.saved, description: labels.savedDescription, type: 'success' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) showNoPermission();
      else if (!(err instanceof ApiError && err.status === 401)) {
        toast({ title: labels.saveFailed, description: err instanceof Error ? err.message : undefined, type: 'error' });
      }
    } finally {
      setSaving(false);
    }
  }

  function addScope() {
    if (!adding || scopes.includes(adding)) return;
    focusNext.current = `pmi-${state.scopeId(adding)}-${areas[0]?.area}-read`;
    setScopes((s) => [...s, adding].sort((a, b) => (a === null ? -1 : b === null ? 1 : (standortIndex.get(a) ?? 0) - (standortIndex.get(b) ?? 0))));
    setAdding('');
  }

  return (
    <MatrixContext.Provider value={state}>
      {props.standorte.length > 0 && (
        <div className="permission-add">
          <div className="field">
            <label htmlFor="pmi-add">
              {labels.addStandortLegend}
            </label>
            {addable.length ? (
              <select id="pmi-add" value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
                <option value="">{labels.addStandortLabel}</option>
                {addable.map((s) => (
                  <option key={s.nr} value={s.nr}>
                    {s.label}
                  </option>
                ))}
              </select>
            ) : (
              <p className="hint">{labels.allStandorteShown}</p>
            )}
          </div>
          {addable.length > 0 && (
            <button type="button" className="btn btn-secondary" onClick={addScope}>
              {labels.addStandort}
            </button>
          )}
        </div>
      )}
      <form className="permission-form" onSubmit={save} noValidate>
        <div className="table-wrap" tabIndex={0} role="region" aria-label={labels.caption}>
          <table className="table permission-table permission-grid">
            <caption className="visually-hidden">{labels.caption}</caption>
            <colgroup>
              <col />
            </colgroup>
            {scopes.map((nr) => (
              <colgroup key={nr ?? ''} span={2} className="permission-colgroup" />
            ))}
            <thead>
              {table.getHeaderGroups().map((hg) => (
                <tr key={hg.id}>
                  {hg.headers
                    .filter((h) => h.rowSpan !== 0)
                    .map((h) => (
                      <th
                        key={h.id}
                        colSpan={h.colSpan > 1 ? h.colSpan : undefined}
                        rowSpan={h.rowSpan > 1 ? h.rowSpan : undefined}
                        scope={h.colSpan > 1 ? 'colgroup' : 'col'}
                        className={h.column.id === 'area' ? undefined : 'permission-col'}
                      >
                        <table.FlexRender header={h} />
                      </th>
                    ))}
                </tr>
              ))}
            </thead>
            {rowsByCategory.map(({ group, rows }) => (
              <tbody key={group.key}>
                <tr className="permission-category">
                  <th scope="rowgroup" colSpan={columnCount}>
                    {group.label}
                  </th>
                </tr>
                {rows.map((row) => (
                  <tr key={row.id}>
                    {row.getAllCells().map((cell) =>
                      cell.column.id === 'area' ? (
                        <th key={cell.id} scope="row">
                          <table.FlexRender cell={cell} />
                        </th>
                      ) : (
                        <td key={cell.id} className="permission-col">
                          <table.FlexRender cell={cell} />
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
        <p className="hint" id="pmi-read-with-write">
          {labels.readComesWithWrite}
        </p>
        <div className="button-row permission-actions">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? labels.saving : labels.save}
          </button>
          <p className="permission-status" role="status">
            {dirty ? labels.unsaved : ''}
          </p>
        </div>
      </form>
    </MatrixContext.Provider>
  );
}
