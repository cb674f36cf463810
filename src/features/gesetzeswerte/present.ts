// How the legal values appear on the page: a value with its unit, a reference in words, a row's state (in force
// since, in force from, replaced), and the history's entries. Pure, so the views only lay out what this decides.
import { BEZUG_DER_ART, GESETZESWERT_ARTEN, type GesetzeswertArt } from '../../domain/gesetzeswerte.js';
import type { Formatter } from '../../http/format.js';
import type { FieldChange } from '../logmeldungen/diff.js';
import type { LogEntry } from '../logmeldungen/service.js';
import type { GesetzeswertRow } from './repo.js';

type T = (key: string, options?: Record<string, unknown>) => string;

const decimals = (wert: string) => (wert.split('.')[1] ?? '').length;

/** "15. April" / "15 April": the day of the year of nachweis_ablauf. */
function tagImJahr(mmdd: string, lang: string): string {
  const [m, d] = mmdd.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'de-DE', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(Date.UTC(2001, m - 1, d));
}

/** A value with its unit, as the language writes it: "94 g CO₂-Äq/MJ", "9,25 %", "15. April des Folgejahres", "21 kg CO₂-Äq". */
export function wertText(art: GesetzeswertArt, wert: string, ctx: { fmt: Formatter; t: T; lang: string }): string {
  if (art === 'nachweis_ablauf') return ctx.t('gesetzeswerte:einheiten.nachweis_ablauf', { tag: tagImJahr(wert, ctx.lang) });
  return ctx.t(`gesetzeswerte:einheiten.${art}`, { wert: ctx.fmt.number(wert, decimals(wert)) });
}

/** The value as the edit form shows it: the language's decimal separator, a day as "15.04." / "04-15". */
export function wertEditierbar(art: GesetzeswertArt, wert: string, lang: string): string {
  if (art === 'nachweis_ablauf') {
    const [m, d] = wert.split('-');
    return lang === 'de' ? `${d}.${m}.` : wert;
  }
  return lang === 'de' ? wert.replace('.', ',') : wert;
}

type MitBezug = Pick<GesetzeswertRow, 'art' | 'anlageAb' | 'jahr'> & { einheit?: GesetzeswertRow['einheit'] };

/**
 * The reference of a row as its column shows it: the plant date ("frühester Tag" for the first band), the year,
 * the equivalent's unit in words; '' for the others.
 */
export function bezugWert(row: MitBezug, ctx: { fmt: Formatter; t: T }): string {
  if (row.art === 'schwelle' && row.anlageAb) {
    // The first band reaches back to the beginning of time: a word reads better than "01.01.0001".
    return row.anlageAb < '1000-01-01' ? ctx.t('gesetzeswerte:bezug.beginn') : ctx.fmt.date(row.anlageAb);
  }
  if (row.art === 'quote' && row.jahr != null) return String(row.jahr);
  if (row.art === 'aequivalent' && row.einheit) return ctx.t(`gesetzeswerte:aequivalentEinheiten.${row.einheit}`);
  return '';
}

/** The reference of a row in words: "Anlage in Betrieb ab 06.10.2015", "Jahr 2024", "je Autofahrt …"; '' for the kinds without one. */
export function bezugText(row: MitBezug, ctx: { fmt: Formatter; t: T }): string {
  if (row.art === 'schwelle' && row.anlageAb) return ctx.t('gesetzeswerte:bezug.anlageAb', { datum: bezugWert(row, ctx) });
  if (row.art === 'quote' && row.jahr != null) return ctx.t('gesetzeswerte:bezug.jahr', { jahr: row.jahr });
  if (row.art === 'aequivalent' && row.einheit) return ctx.t('gesetzeswerte:bezug.einheit', { einheit: bezugWert(row, ctx) });
  return '';
}

/** The field of a row's reference (its form field and column), or null for the kinds without one. */
export const bezugFeld = (art: GesetzeswertArt) => BEZUG_DER_ART[art];

export interface Status {
  label: string;
  variant: 'success' | 'info' | 'neutral';
}

/** In force today ("gültig seit …"), announced for later ("gilt ab …"), or replaced by a later row. */
export function statusOf(row: GesetzeswertRow, gueltig: Set<number>, heute: string, ctx: { fmt: Formatter; t: T }): Status {
  const datum = ctx.fmt.date(row.gueltigAb);
  if (gueltig.has(row.id)) return { label: ctx.t('gesetzeswerte:status.gueltig', { datum }), variant: 'success' };
  if (row.gueltigAb > heute) return { label: ctx.t('gesetzeswerte:status.kuenftig', { datum }), variant: 'info' };
  return { label: ctx.t('gesetzeswerte:status.abgeloest'), variant: 'neutral' };
}

export interface Abschnitt {
  art: GesetzeswertArt;
  /** The field of the kind's reference (its column), if it has one. */
  bezug: 'anlageAb' | 'jahr' | 'einheit' | null;
  rows: GesetzeswertRow[];
}

/** The rows by kind, in the order the page names the kinds. */
export function abschnitte(rows: GesetzeswertRow[]): Abschnitt[] {
  return GESETZESWERT_ARTEN.map((art) => ({ art, bezug: BEZUG_DER_ART[art], rows: rows.filter((r) => r.art === art) }));
}

/** The fields of a history entry that say what happened; the row's identity is in the entry's heading. */
const GEZEIGT = ['wert', 'kommentar'];

export interface Verlaufseintrag {
  at: string;
  benutzer: string | null;
  aktion: string;
  /** Which row: kind, reference and valid-from date in words. */
  zeile: string;
  changes: { feld: string; vorher: string; nachher: string }[];
}

/** An audit entry of the table as the history section shows it. */
export function verlaufseintrag(entry: LogEntry & { changes: FieldChange[] }, ctx: { fmt: Formatter; t: T; lang: string }): Verlaufseintrag {
  const row = (entry.after ?? entry.before ?? {}) as Partial<GesetzeswertRow>;
  const art = row.art as GesetzeswertArt;
  const aktion = entry.kind.split('.').pop() ?? entry.kind;
  const bezug = art ? bezugText({ art, anlageAb: row.anlageAb ?? null, jahr: row.jahr ?? null, einheit: row.einheit ?? null }, ctx) : '';
  const show = (field: string, v: unknown) =>
    v === null || v === undefined || v === '' ? '–' : field === 'wert' && art ? wertText(art, String(v), ctx) : String(v);
  return {
    at: entry.at,
    benutzer: entry.benutzer,
    aktion: ctx.t(`gesetzeswerte:verlauf.${aktion}`, { defaultValue: entry.kind }),
    zeile: [art ? ctx.t(`gesetzeswerte:arten.${art}`) : '', bezug, row.gueltigAb ? ctx.t('gesetzeswerte:verlauf.ab', { datum: ctx.fmt.date(row.gueltigAb) }) : '']
      .filter(Boolean)
      .join(' · '),
    changes: entry.changes
      .filter((c) => GEZEIGT.includes(c.path) && c.change !== 'unchanged')
      .map((c) => ({
        feld: ctx.t(`gesetzeswerte:fields.${c.path}`),
        vorher: show(c.path, c.before),
        nachher: show(c.path, c.after),
      })),
  };
}
