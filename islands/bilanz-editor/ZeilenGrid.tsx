// The allocation lines as a grid: sortable headers (buttons, the state in aria-sort), a labelled text filter, the
// running total in the order shown, the sums below, and each line's reason behind a button (aria-expanded, the
// reason in the row below it) and on hover (title). Order, filter and sums come from model.ts.
import { createContext, Fragment, useContext, useMemo, useState } from 'react';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import type { EditorTexte } from '../../src/features/bilanzen/editor';
import { ansicht, datum, fill, menge, naechsteSortierung, zahl, type MitLaufsumme, type Sortierung, type Zeile, type ZeilenSpalte } from './model';
import { iconHref } from '../lib/icons';

export interface ZeilenGridProps {
  zeilen: Zeile[];
  einheit: string;
  restBioMenge: string | null;
  lang: string;
  datumsformat: string;
  texte: EditorTexte;
  /** The lines are a preview's: nothing stored, no POCs, no dates. */
  vorschau: boolean;
  /** Shown when there are no lines at all. */
  leer: string;
}

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, MitLaufsumme>();
const enc = encodeURIComponent;

/** Which reasons are open, read by the line's button; in a context, so the columns stay the same objects and a
 *  button keeps its focus when it opens its reason. */
const OffenContext = createContext<{ offen: ReadonlySet<number>; umschalten(nr: number): void; label: string }>({ offen: new Set(), umschalten() {}, label: '' });

function GrundKnopf({ nr }: { nr: number }) {
  const { offen, umschalten, label } = useContext(OffenContext);
  const auf = offen.has(nr);
  return (
    <button
      type="button" className="btn btn-ghost btn-sm reason-toggle" aria-expanded={auf} aria-controls={auf ? `bz-${nr}-grund` : undefined}
      aria-label={fill(label, { nr })} onClick={() => umschalten(nr)}
    >
      <svg className="icon" aria-hidden="true"><use href={iconHref('chevron-right')} /></svg>
      {nr}
    </button>
  );
}

export function ZeilenGrid(props: ZeilenGridProps) {
  const { texte, lang, einheit } = props;
  const [sortierung, setSortierung] = useState<Sortierung | null>(null);
  const [filter, setFilter] = useState('');
  const [offen, setOffen] = useState<ReadonlySet<number>>(() => new Set());
  const v = useMemo(() => ansicht(props.zeilen, sortierung, filter), [props.zeilen, sortierung, filter]);
  const m = (x: string | null) => menge(x, einheit, lang);

  const umschalten = (nr: number) =>
    setOffen((s) => {
      const n = new Set(s);
      if (n.has(nr)) n.delete(nr);
      else n.add(nr);
      return n;
    });

  const columns = useMemo(() => {
    const sortierbar = (id: ZeilenSpalte, label: string, num = false) => ({ id, header: label, meta: { sortierbar: true, num } });
    return helper.columns([
      helper.display({
        ...sortierbar('nr', texte.zeile, true),
        cell: ({ row }) => <GrundKnopf nr={row.original.nr} />,
      }),
      helper.display({
        ...sortierbar('ablieferungNr', texte.lieferung),
        cell: ({ row }) => <a href={`/${lang}/bewegungsdaten/ablieferungen/${enc(row.original.ablieferungNr)}`}>{row.original.ablieferungNr}</a>,
      }),
      helper.display({ ...sortierbar('lieferdatum', texte.lieferdatum), cell: ({ row }) => datum(row.original.lieferdatum, props.datumsformat) }),
      helper.display({ ...sortierbar('partnerNr', texte.partner), cell: ({ row }) => row.original.partnerNr }),
      helper.display({
        ...sortierbar('nachweisNr', texte.nachweis),
        cell: ({ row }) => (
          <>
            <a className="nowrap" href={`/${lang}/bewegungsdaten/nachweise/${enc(row.original.nachweisNr)}`}>{row.original.nachweisNr}</a>
            {row.original.vorlaeufig && <> <span className="badge badge-warning">{texte.vorlaeufig}</span></>}
          </>
        ),
      }),
      helper.display({ ...sortierbar('menge', texte.menge, true), cell: ({ row }) => m(row.original.menge) }),
      helper.display({ id: 'laufsumme', header: texte.laufsumme, meta: { num: true }, cell: ({ row }) => m(row.original.laufsumme) }),
      helper.display({ ...sortierbar('thg', texte.thg, true), cell: ({ row }) => zahl(row.original.thg, lang, 2) }),
      helper.display({ ...sortierbar('thgMinderungT', texte.thgMinderungT, true), cell: ({ row }) => zahl(row.original.thgMinderungT, lang, 4) }),
      helper.display({
        ...sortierbar('nachweisbescheinigungNr', texte.poc),
        cell: ({ row }) => {
          const nr = row.original.nachweisbescheinigungNr;
          return nr ? <a href={`/${lang}/bewegungsdaten/nachweisbescheinigungen/${enc(nr)}`}>{nr}</a> : '–';
        },
      }),
    ]);
    // m: derived from the props listed.
  }, [texte, lang, einheit, props.datumsformat]);

  const table = useTable({ features, columns, data: v.zeilen, getRowId: (z) => String(z.nr) });
  const spalten = columns.length;
  const sortiert = (id: string) => (sortierung?.spalte === id ? sortierung.richtung : null);

  return (
    <OffenContext.Provider value={{ offen, umschalten, label: texte.begruendungZeigen }}>
      <div className="bilanz-filter">
        <div className="field">
          <label htmlFor="bz-filter">{texte.filter}</label>
          <p className="hint" id="bz-filter-hint">{texte.filterHinweis}</p>
          <input id="bz-filter" type="search" value={filter} aria-describedby="bz-filter-hint" onChange={(e) => setFilter(e.currentTarget.value)} />
        </div>
        <p className="hint bilanz-anzahl" role="status">
          {v.gefiltert ? fill(texte.anzahl, { anzahl: v.zeilen.length, gesamt: props.zeilen.length }) : ''}
        </p>
      </div>
      <p className="hint bilanz-sortier-hint" id="bz-sortier-hint">{texte.sortierHinweis}</p>
      <div className="table-wrap bilanz-grid" tabIndex={0} role="region" aria-labelledby="zuordnungen-heading" aria-describedby="bz-sortier-hint">
        <table className={`table bilanz-zeilen${props.vorschau ? ' is-preview' : ''}`}>
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const meta = h.column.columnDef.meta as { sortierbar?: boolean; num?: boolean } | undefined;
                  const r = sortiert(h.column.id);
                  return (
                    <th key={h.id} scope="col" className={meta?.num ? 'num' : undefined} aria-sort={r ? (r === 'asc' ? 'ascending' : 'descending') : undefined}>
                      {meta?.sortierbar ? (
                        <button type="button" className="sort-button" onClick={() => setSortierung((s) => naechsteSortierung(s, h.column.id as ZeilenSpalte))}>
                          <table.FlexRender header={h} />
                          <span className="sort-indicator" aria-hidden="true">{r === 'asc' ? '▲' : r === 'desc' ? '▼' : '↕'}</span>
                        </button>
                      ) : (
                        <table.FlexRender header={h} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {props.zeilen.length === 0 && (
              <tr>
                <td colSpan={spalten} className="empty">{props.leer}</td>
              </tr>
            )}
            {props.zeilen.length > 0 && v.zeilen.length === 0 && (
              <tr>
                <td colSpan={spalten} className="empty">{fill(texte.keineTreffer, { filter })}</td>
              </tr>
            )}
            {table.getRowModel().rows.map((row) => {
              const z = row.original;
              return (
                <Fragment key={row.id}>
                  <tr title={z.begruendung} className={offen.has(z.nr) ? 'is-open' : undefined}>
                    {row.getAllCells().map((cell) => {
                      const meta = cell.column.columnDef.meta as { num?: boolean } | undefined;
                      return cell.column.id === 'ablieferungNr' ? (
                        <th key={cell.id} scope="row"><table.FlexRender cell={cell} /></th>
                      ) : (
                        <td key={cell.id} className={meta?.num ? 'num' : undefined}><table.FlexRender cell={cell} /></td>
                      );
                    })}
                  </tr>
                  {offen.has(z.nr) && (
                    <tr className="reason-row" id={`bz-${z.nr}-grund`}>
                      <td colSpan={spalten}>
                        <span className="row-detail"><span className="reason-label">{texte.begruendung}:</span> {z.begruendung}</span>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
          {v.zeilen.length > 0 && (
            <tfoot>
              <tr>
                <th scope="row" colSpan={5}>{v.gefiltert ? texte.summeGezeigt : texte.summe}</th>
                <td className="num">{m(v.summen.menge)}</td>
                <td colSpan={2} />
                <td className="num">{zahl(v.summen.thgMinderungT, lang, 4)}</td>
                <td />
              </tr>
              <tr>
                <th scope="row" colSpan={5}>{texte.restBioMenge}</th>
                <td className="num">{m(props.restBioMenge)}</td>
                <td colSpan={4} />
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </OffenContext.Provider>
  );
}
