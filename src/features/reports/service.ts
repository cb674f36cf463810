// Generating a report: check its parameters (form, period, numbers that exist in the tenant, locations that are
// the user's), build its context and run it. The page (routes.ts) and the API (api.ts) call the same functions.
import type { TenantScope } from '../../db/scope.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import type { Formatter } from '../../http/format.js';
import type { ReportContext, ReportDefinition, ReportErgebnis, ReportFormat, ReportParameter, ReportParameterName } from './definition.js';
import * as repo from './repo.js';
import { monateIn, PARAMETER_LABEL, parseReportQuery } from './schema.js';

export type T = (key: string, options?: Record<string, unknown>) => string;

export interface Darstellung {
  lang: 'de' | 'en';
  t: T;
}

/** The client went away while the report ran: nothing more to do. */
export class ReportAbgebrochen extends Error {
  constructor() {
    super('report aborted: the client went away');
  }
}

const STAMMTABELLE: Partial<Record<ReportParameterName, repo.Stammtabelle>> = { partner: 'tauschpartner', standort: 'standorte', produkt: 'produkte' };

export interface GeprueftAnfrage {
  params: ReportParameter;
  format: ReportFormat | null;
  page: number;
  pageSize: number | null;
}

/**
 * The request's parameters, checked: a 400 naming each wrong parameter (missing required ones with the spec's
 * message listing them), a 403 for a location that is the tenant's but not the user's. Another tenant's number
 * is unknown here, as one that does not exist.
 */
export async function pruefen(scope: TenantScope, def: ReportDefinition, query: Record<string, unknown>, t: T): Promise<GeprueftAnfrage> {
  const anfrage = parseReportQuery(def, query);
  const fehler: FieldError[] = [...anfrage.fehler];
  let fremderStandort = false;
  for (const name of ['partner', 'standort', 'produkt'] as const) {
    const nr = anfrage.params[name];
    if (nr == null) continue;
    if (!(await repo.existiert(scope, STAMMTABELLE[name]!, nr))) fehler.push({ field: name, message: `reports:fehler.unbekannt.${name}`, params: { nr } });
    else if (name === 'standort' && !scope.allowsStandort(nr)) fremderStandort = true;
  }
  if (anfrage.fehlend.length) {
    const felder = anfrage.fehlend.map((name) => t(PARAMETER_LABEL[name])).join(', ');
    const pflicht: FieldError[] = anfrage.fehlend.map((field) => ({ field, message: 'reports:fehler.pflichtfeld' }));
    throw new HttpError(400, 'VALIDATION', t('reports:fehler.pflicht', { felder }), [...pflicht, ...fehler]);
  }
  if (fehler.length) throw new HttpError(400, 'VALIDATION', fehler.map((f) => t(f.message, f.params)).join(' '), fehler);
  if (fremderStandort) throw new HttpError(403, 'FORBIDDEN', 'reports:fehler.standortNichtErlaubt');
  return { params: anfrage.params, format: anfrage.format, page: anfrage.page, pageSize: anfrage.pageSize };
}

export interface Lauf extends Darstellung {
  heute: string;
  /** Aborted when the client goes away: the report stops at its next pause. */
  signal?: AbortSignal;
  /** Progress of the slices (e.g. months) done of all. */
  fortschritt?: (done: number, total: number) => void;
}

/** Waits for the event loop's next turn: requests that came in meanwhile (and their queries) go first. */
const naechsteRunde = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The context a report runs in (exported for the reports' own tests). */
export function reportContext(scope: TenantScope, params: ReportParameter, lauf: Lauf): ReportContext {
  return {
    scope,
    params,
    heute: lauf.heute,
    lang: lauf.lang,
    t: lauf.t,
    monate: monateIn(params.startDate, params.endDate),
    async pause(done, total) {
      lauf.fortschritt?.(done, total);
      if (lauf.signal?.aborted) throw new ReportAbgebrochen();
      await naechsteRunde();
      if (lauf.signal?.aborted) throw new ReportAbgebrochen();
    },
  };
}

/** Runs the report with checked parameters, limited to the scope's locations (and the chosen one). */
export async function ausfuehren<R>(scope: TenantScope, def: ReportDefinition<R>, params: ReportParameter, lauf: Lauf): Promise<ReportErgebnis<R>> {
  return def.run(reportContext(scope, params, lauf));
}

const ISO_TAG = /^\d{4}-\d{2}-\d{2}$/;

/** The report's explanation lines, translated; days among their values in the user's date format. */
export function erlaeuterungen(ergebnis: ReportErgebnis<unknown>, t: T, fmt?: Formatter): string[] {
  return (ergebnis.erlaeuterungen ?? []).map((e) => {
    const params = Object.fromEntries(Object.entries(e.params ?? {}).map(([k, v]) => [k, fmt && typeof v === 'string' && ISO_TAG.test(v) ? fmt.date(v) : v]));
    return t(e.key, params);
  });
}

/** The parameters in words ("Partner: 20001 Nordöl GmbH"), for the title page and the page's heading. */
export async function parameterInWorten(scope: TenantScope, def: ReportDefinition, params: ReportParameter, t: T, fmt: Formatter): Promise<[string, string][]> {
  const zeilen: [string, string][] = [];
  for (const name of def.parameter) {
    const value = params[name];
    if (name === 'startDate' || name === 'endDate') continue;
    if (value == null) {
      zeilen.push([t(PARAMETER_LABEL[name]), t('reports:alle')]);
      continue;
    }
    const name_ = await repo.namen(scope, STAMMTABELLE[name]!, value);
    zeilen.push([t(PARAMETER_LABEL[name]), name_ ? `${value} ${name_}` : value]);
  }
  return zeilen;
}

/** The period in words ("01.01.2025 – 31.12.2025"), or "—" without dates. */
export function zeitraumInWorten(params: ReportParameter, fmt: Formatter): string {
  if (!params.startDate && !params.endDate) return '—';
  return `${params.startDate ? fmt.date(params.startDate) : '…'} – ${params.endDate ? fmt.date(params.endDate) : '…'}`;
}

/** The lines of the PDF's title page: tenant, period, parameters, made when and by whom. */
export async function titelseite(
  scope: TenantScope, def: ReportDefinition, params: ReportParameter, t: T, fmt: Formatter, wer: { vorname: string; nachname: string; login: string }, jetzt: Date,
): Promise<[string, string][]> {
  return [
    [t('reports:titelseite.bericht'), t(`reports:katalog.${def.id}.name`)],
    [t('reports:titelseite.frage'), t(`reports:katalog.${def.id}.frage`)],
    [t('reports:titelseite.mandant'), `${await repo.mandantName(scope)} (${scope.mandant})`],
    [t('reports:titelseite.zeitraum'), zeitraumInWorten(params, fmt)],
    ...(await parameterInWorten(scope, def, params, t, fmt)),
    [t('reports:titelseite.erstellt'), fmt.dateTime(jetzt)],
    [t('reports:titelseite.erstelltVon'), `${wer.vorname} ${wer.nachname} (${wer.login})`],
  ];
}
