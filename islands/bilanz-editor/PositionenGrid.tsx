// The positions as a grid: priority, bio content and bio quantity editable in place (labelled with partner and
// position; Enter or the row's Save button saves), per row a small split form, the close page (a link) and
// delete. A refused change shows the server's message in the row below. Read-only: the values as text.
import { createContext, Fragment, useContext, useMemo, type FormEvent, type KeyboardEvent } from 'react';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import type { BilanzPosition } from '../../src/features/bilanzen/detail';
import type { EditorTexte } from '../../src/features/bilanzen/editor';
import { eingabe, ersterTeil, fill, menge, parseZahl, zahl, stellen } from './model';
import { iconHref } from '../lib/icons';

export type Feld = 'prioritaet' | 'biogehalt' | 'bioMenge';
export type Entwurf = Record<Feld, string>;
export interface Fehler {
  bereich: string;
  message: string;
  felder: Record<string, string>;
}
export interface Teilung {
  positionId: number;
  menge: string;
  prioritaet: string;
}

export interface PositionenGridProps {
  positionen: BilanzPosition[];
  einheit: string;
  lang: string;
  hier: string;
  texte: EditorTexte;
  /** The user may change the Bilanz (and it is open). */
  bearbeitbar: boolean;
  verteilt: boolean;
  /** Busy with a request: further clicks are ignored. */
  beschaeftigt: boolean;
  fehler: Fehler | null;
  entwuerfe: Record<number, Entwurf>;
  setEntwurf(id: number, feld: Feld, wert: string): void;
  speichern(p: BilanzPosition): void;
  /** Deleting a position posts the server's form, which asks first (src/http/confirm.ts): its token and version. */
  csrf: string;
  version: number;
  teilung: Teilung | null;
  setTeilung(t: Teilung | null): void;
  teilen(p: BilanzPosition, teile: { bleibt: string; neu: string; prioritaet: string }): void;
  /** During a preview: what the preview's lines give each position. */
  vorschauJePosition: Map<number, string> | null;
}

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, BilanzPosition>();
const GridContext = createContext<PositionenGridProps | null>(null);
const useGrid = () => useContext(GridContext)!;

/** What a position's input shows: the draft being typed, else the stored value. */
export function wertVon(p: BilanzPosition, entwurf: Entwurf | undefined, feld: Feld, lang: string): string {
  if (entwurf) return entwurf[feld];
  return feld === 'prioritaet' ? String(p.prioritaet) : eingabe(p[feld], lang);
}

export function istGeaendert(p: BilanzPosition, entwurf: Entwurf | undefined, lang: string): boolean {
  if (!entwurf) return false;
  return (['prioritaet', 'biogehalt', 'bioMenge'] as const).some((f) => entwurf[f] !== wertVon(p, undefined, f, lang));
}

const offen = (g: PositionenGridProps, p: BilanzPosition) => g.bearbeitbar && p.status === 'offen';
const feldId = (p: BilanzPosition, feld: Feld) => `bp-${p.id}-${feld}`;

function Eingabe({ p, feld }: { p: BilanzPosition; feld: Feld }) {
  const g = useGrid();
  const label = { prioritaet: g.texte.prioritaet, biogehalt: g.texte.positionBiogehalt, bioMenge: g.texte.positionBioMenge }[feld];
  const fehler = g.fehler?.bereich === `position-${p.id}` ? g.fehler.felder[feld] : undefined;
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      g.speichern(p);
    }
  };
  return (
    <>
      <label className="visually-hidden" htmlFor={feldId(p, feld)}>{fill(g.texte.feld, { feld: label, partner: p.partnerNr, position: p.id })}</label>
      <input
        className="input-sm" id={feldId(p, feld)} inputMode={feld === 'prioritaet' ? 'numeric' : 'decimal'} size={feld === 'bioMenge' ? 10 : feld === 'biogehalt' ? 6 : 4}
        value={wertVon(p, g.entwuerfe[p.id], feld, g.lang)} onChange={(e) => g.setEntwurf(p.id, feld, e.currentTarget.value)} onKeyDown={onKeyDown}
        aria-invalid={fehler ? true : undefined} aria-describedby={fehler ? `bp-${p.id}-fehler` : undefined}
      />
    </>
  );
}

function Wert({ p, feld }: { p: BilanzPosition; feld: Feld }) {
  const g = useGrid();
  if (offen(g, p)) return <Eingabe p={p} feld={feld} />;
  if (feld === 'prioritaet') return <>{p.prioritaet}</>;
  if (feld === 'biogehalt') return <>{p.biogehalt == null ? '–' : `${zahl(p.biogehalt, g.lang, stellen(p.biogehalt))}\u00a0%`}</>;
  return <>{menge(p.bioMenge, g.einheit, g.lang)}</>;
}

function Aktionen({ p }: { p: BilanzPosition }) {
  const g = useGrid();
  if (!offen(g, p)) return null;
  const fuer = <span className="visually-hidden"> {fill(g.texte.fuerPosition, { position: p.id })}</span>;
  const auf = g.teilung?.positionId === p.id;
  const geaendert = istGeaendert(p, g.entwuerfe[p.id], g.lang);
  return (
    <div className="button-row button-row-tight">
      <button type="button" className="btn btn-secondary btn-sm" aria-disabled={g.beschaeftigt || undefined} onClick={() => g.speichern(p)}>
        {g.texte.speichern}{fuer}
      </button>
      {p.bioMenge != null ? (
        <button
          type="button" id={`bp-${p.id}-teilen`} className="btn btn-secondary btn-sm" aria-expanded={auf} aria-controls={auf ? `bp-${p.id}-teilung` : undefined}
          onClick={() => g.setTeilung(auf ? null : { positionId: p.id, menge: '', prioritaet: '' })}
        >
          {g.texte.teilenOeffnen}{fuer}
        </button>
      ) : (
        // Without a bio quantity the position's size is its demand, which the server computes: its split page asks.
        <a className="btn btn-secondary btn-sm" href={`${g.hier}/positionen/${p.id}/teilung`}>{g.texte.teilenOeffnen}{fuer}</a>
      )}
      <form method="post" action={`${g.hier}/positionen/${p.id}/loeschen`}>
        <input type="hidden" name="_csrf" value={g.csrf} />
        <input type="hidden" name="version" value={g.version} />
        <button type="submit" className="btn btn-danger btn-sm" disabled={g.beschaeftigt || undefined}>
          {g.texte.positionLoeschen}{fuer}
        </button>
      </form>
      {g.verteilt && <a className="btn btn-secondary btn-sm" href={`${g.hier}/positionen/${p.id}/abschluss`}>{g.texte.positionAbschliessen}{fuer}</a>}
      {geaendert && <span className="badge badge-info">{g.texte.geaendert}</span>}
    </div>
  );
}

function TeilungsForm({ p, spalten }: { p: BilanzPosition; spalten: number }) {
  const g = useGrid();
  const t = g.teilung!;
  const neu = parseZahl(t.menge, g.lang);
  const bleibt = neu ? ersterTeil(p.bioMenge!, neu) : null;
  const fehler = g.fehler?.bereich === `teilung-${p.id}` ? g.fehler : null;
  const zuGross = neu != null && bleibt == null && !fehler;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // A new part the browser cannot read goes as typed: the server's message names the problem.
    g.teilen(p, { bleibt: bleibt ?? p.bioMenge!, neu: neu ?? t.menge.trim(), prioritaet: t.prioritaet });
  };
  const id = `bp-${p.id}-teilung`;
  return (
    <tr className="split-row" id={id}>
      <td colSpan={spalten}>
        <form className="split-form row-detail" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-titel`}>
          <h3 className="split-title" id={`${id}-titel`}>{fill(g.texte.teilenTitel, { position: p.id })}</h3>
          {fehler && (
            <div className="alert alert-error" role="alert">
              <svg className="icon" aria-hidden="true"><use href={iconHref('warning')} /></svg>
              <p>{fehler.message}</p>
            </div>
          )}
          <div className="split-fields">
            <div className={`field${fehler || zuGross ? ' has-error' : ''}`}>
              <label htmlFor={`${id}-menge`}>{fill(g.texte.neuerTeil, { einheit: g.einheit })}</label>
              <input
                id={`${id}-menge`} inputMode="decimal" value={t.menge} autoFocus aria-describedby={`${id}-bleibt`}
                aria-invalid={fehler || zuGross ? true : undefined} onChange={(e) => g.setTeilung({ ...t, menge: e.currentTarget.value })}
              />
              <p className={zuGross ? 'error-text' : 'hint'} id={`${id}-bleibt`} aria-live="polite">
                {zuGross
                  ? fill(g.texte.teilMengeZuGross, { menge: zahl(p.bioMenge, g.lang, stellen(p.bioMenge!)), einheit: g.einheit })
                  : bleibt ? fill(g.texte.bleibt, { position: p.id, menge: menge(bleibt, g.einheit, g.lang) }) : ''}
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${id}-prioritaet`}>{g.texte.neuePrioritaet}</label>
              <p className="hint" id={`${id}-prioritaet-hint`}>{g.texte.neuePrioritaetHinweis}</p>
              <input id={`${id}-prioritaet`} inputMode="numeric" value={t.prioritaet} aria-describedby={`${id}-prioritaet-hint`} onChange={(e) => g.setTeilung({ ...t, prioritaet: e.currentTarget.value })} />
            </div>
          </div>
          <div className="button-row">
            <button type="submit" className="btn btn-primary btn-sm" aria-disabled={g.beschaeftigt || zuGross || undefined}>{g.texte.teilen}</button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => g.setTeilung(null)}>{g.texte.abbrechen}</button>
          </div>
        </form>
      </td>
    </tr>
  );
}

export function PositionenGrid(props: PositionenGridProps) {
  const { texte, bearbeitbar } = props;
  const columns = useMemo(
    () =>
      helper.columns([
        helper.display({
          id: 'partner', header: texte.partner,
          cell: ({ row }) => (
            <>
              <a href={`/${props.lang}/stammdaten/tauschpartner/${encodeURIComponent(row.original.partnerNr)}`}>{row.original.partnerName}</a>
              <span className="cell-sub">{row.original.partnerNr} · {texte.position} {row.original.id}</span>
            </>
          ),
        }),
        helper.display({ id: 'prioritaet', header: texte.prioritaet, meta: { num: true }, cell: ({ row }) => <Wert p={row.original} feld="prioritaet" /> }),
        helper.display({ id: 'biogehalt', header: texte.positionBiogehalt, meta: { num: true }, cell: ({ row }) => <Wert p={row.original} feld="biogehalt" /> }),
        helper.display({ id: 'bioMenge', header: texte.positionBioMenge, meta: { num: true }, cell: ({ row }) => <Wert p={row.original} feld="bioMenge" /> }),
        helper.display({ id: 'zugeordnet', header: texte.zugeordnet, meta: { num: true }, cell: ({ row }) => <Zugeordnet p={row.original} /> }),
        helper.display({
          id: 'status', header: texte.status,
          cell: ({ row }) => (
            <span className={`badge badge-${row.original.status === 'offen' ? 'info' : 'success'}`}>
              {row.original.status === 'offen' ? texte.statusOffen : texte.statusGeschlossen}
            </span>
          ),
        }),
        ...(bearbeitbar ? [helper.display({ id: 'aktion', header: texte.aktion, cell: ({ row }) => <Aktionen p={row.original} /> })] : []),
      ]),
    [texte, bearbeitbar, props.lang],
  );
  const table = useTable({ features, columns, data: props.positionen, getRowId: (p) => String(p.id) });
  const spalten = columns.length;

  return (
    <GridContext.Provider value={props}>
      <div className="table-wrap bilanz-grid" tabIndex={0} role="region" aria-labelledby="positionen-heading" id="bp-tabelle">
        <table className="table bilanz-positionen">
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => (
                  <th key={h.id} scope="col" className={(h.column.columnDef.meta as { num?: boolean } | undefined)?.num ? 'num' : undefined}>
                    <table.FlexRender header={h} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {props.positionen.length === 0 && (
              <tr>
                <td colSpan={spalten} className="empty">{texte.leerPositionen}</td>
              </tr>
            )}
            {table.getRowModel().rows.map((row) => {
              const p = row.original;
              const fehler = props.fehler?.bereich === `position-${p.id}` ? props.fehler : null;
              return (
                <Fragment key={row.id}>
                  <tr className={fehler ? 'has-error' : undefined}>
                    {row.getAllCells().map((cell) => {
                      const num = (cell.column.columnDef.meta as { num?: boolean } | undefined)?.num;
                      return cell.column.id === 'partner' ? (
                        <th key={cell.id} scope="row"><table.FlexRender cell={cell} /></th>
                      ) : (
                        <td key={cell.id} className={num ? 'num' : undefined}><table.FlexRender cell={cell} /></td>
                      );
                    })}
                  </tr>
                  {fehler && (
                    <tr className="error-row">
                      <td colSpan={spalten}>
                        <div className="alert alert-error row-detail" role="alert" id={`bp-${p.id}-fehler`}>
                          <svg className="icon" aria-hidden="true"><use href={iconHref('warning')} /></svg>
                          <p>{mitFeldern(fehler, texte)}</p>
                        </div>
                      </td>
                    </tr>
                  )}
                  {props.teilung?.positionId === p.id && p.bioMenge != null && offen(props, p) && <TeilungsForm p={p} spalten={spalten} />}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </GridContext.Provider>
  );
}

/** A row's refusal naming its fields ("Biogehalt (%): Erlaubt sind Werte von 0 bis 100"); else the message alone. */
export function mitFeldern(f: Fehler, texte: EditorTexte): string {
  const namen: Record<string, string> = { prioritaet: texte.prioritaet, biogehalt: texte.positionBiogehalt, bioMenge: texte.positionBioMenge };
  const jeText = new Map<string, string[]>();
  for (const [feld, text] of Object.entries(f.felder)) if (namen[feld]) jeText.set(text, [...(jeText.get(text) ?? []), namen[feld]]);
  return jeText.size ? [...jeText].map(([text, felder]) => `${felder.join(', ')}: ${text}`).join(' ') : f.message;
}

function Zugeordnet({ p }: { p: BilanzPosition }) {
  const g = useGrid();
  if (g.vorschauJePosition) {
    return (
      <>
        {menge(g.vorschauJePosition.get(p.id) ?? '0', g.einheit, g.lang)}
        <span className="cell-sub">{g.texte.vorschauBadge}</span>
      </>
    );
  }
  return <>{menge(p.zugeordnet, g.einheit, g.lang)}</>;
}
