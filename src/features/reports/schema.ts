// The parameters of a report request, as the generator's GET form and GET /api/reports/{id} send them:
// startDate and endDate as ISO days, partner, standort and produkt as numbers, format one of REPORT_FORMATE,
// page and pageSize for the rows shown. This checks what can be checked without the database (form, order and
// length of the period, required parameters); whether a number exists in the tenant, and whether a location is
// the user's, the service checks (service.ts). Every refusal names its parameter.
import { z } from 'zod';
import type { FieldError } from '../../http/errors.js';
import { MAX_PAGE_SIZE } from '../../records/list/page-size.js';
import { REPORT_FORMATE, REPORT_PARAMETER, type ReportDefinition, type ReportFormat, type ReportParameter, type ReportParameterName } from './definition.js';

/** The longest period a report covers: five years (endDate before startDate + 5 years). */
export const MAX_JAHRE = 5;
const NR_MAX = 32;

/** i18n keys of the parameters' names (labels of the form, names in messages). */
export const PARAMETER_LABEL: Record<ReportParameterName | 'format', string> = {
  startDate: 'reports:parameter.startDate',
  endDate: 'reports:parameter.endDate',
  partner: 'reports:parameter.partner',
  standort: 'reports:parameter.standort',
  produkt: 'reports:parameter.produkt',
  format: 'reports:parameter.format',
};

/** A calendar day that exists ("2025-02-30" does not). */
export function isIsoTag(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The day `jahre` years after an ISO day (29 February of a leap year becomes 1 March, as Date counts). */
export function plusJahre(iso: string, jahre: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const date = new Date(Date.UTC(y + jahre, m - 1, d));
  return date.toISOString().slice(0, 10);
}

const text = z.string().trim();
/** One value per parameter: a repeated one (`?standort=1&standort=2`) is refused rather than guessed. */
const QuerySchema = z.object({
  startDate: text.optional(),
  endDate: text.optional(),
  partner: text.optional(),
  standort: text.optional(),
  produkt: text.optional(),
  format: text.optional(),
  page: text.optional(),
  pageSize: text.optional(),
});

export interface ReportAnfrage {
  params: ReportParameter;
  /** null: on screen (the page) or JSON (the API). */
  format: ReportFormat | null;
  page: number;
  pageSize: number | null;
  /** Refusals that need no database, each naming its parameter. */
  fehler: FieldError[];
  /** Required parameters left empty (their names), for the spec's message that lists them. */
  fehlend: ReportParameterName[];
}

/**
 * Reads a report request's query. Parameters the report does not take are left out (the generator's form sends
 * every field for every report); an empty field counts as not given.
 */
export function parseReportQuery(def: ReportDefinition, query: Record<string, unknown>): ReportAnfrage {
  const fehler: FieldError[] = [];
  const roh: Record<string, string | undefined> = {};
  for (const key of Object.keys(QuerySchema.shape) as (keyof typeof QuerySchema.shape)[]) {
    const parsed = QuerySchema.shape[key].safeParse(query[key]);
    if (parsed.success) roh[key] = parsed.data === '' ? undefined : parsed.data;
    else fehler.push({ field: key, message: 'reports:fehler.einWert', params: { feld: key } });
  }
  const params: ReportParameter = { startDate: null, endDate: null, partner: null, standort: null, produkt: null };
  for (const name of REPORT_PARAMETER) {
    if (!def.parameter.includes(name)) continue;
    const value = roh[name];
    if (value === undefined) continue;
    if (name === 'startDate' || name === 'endDate') {
      if (isIsoTag(value)) params[name] = value;
      else fehler.push({ field: name, message: `reports:fehler.datum.${name}` });
    } else if (value.length > NR_MAX) {
      fehler.push({ field: name, message: `reports:fehler.unbekannt.${name}` });
    } else {
      params[name] = value;
    }
  }
  const fehlend = def.pflicht.filter((name) => roh[name] === undefined);
  if (params.startDate && params.endDate) {
    if (params.endDate < params.startDate) fehler.push({ field: 'endDate', message: 'reports:fehler.endeVorStart' });
    else if (params.endDate >= plusJahre(params.startDate, MAX_JAHRE)) fehler.push({ field: 'endDate', message: 'reports:fehler.zeitraumZuLang', params: { jahre: MAX_JAHRE } });
  }
  let format: ReportFormat | null = null;
  if (roh.format !== undefined) {
    if ((REPORT_FORMATE as readonly string[]).includes(roh.format) && def.formate.includes(roh.format as ReportFormat)) format = roh.format as ReportFormat;
    else fehler.push({ field: 'format', message: 'reports:fehler.format', params: { formate: def.formate.join(', ') } });
  }
  let page = 1;
  if (roh.page !== undefined) {
    if (/^\d{1,6}$/.test(roh.page) && Number(roh.page) >= 1) page = Number(roh.page);
    else fehler.push({ field: 'page', message: 'reports:fehler.page' });
  }
  let pageSize: number | null = null;
  if (roh.pageSize !== undefined) {
    if (/^\d{1,6}$/.test(roh.pageSize) && Number(roh.pageSize) >= 1) pageSize = Math.min(Number(roh.pageSize), MAX_PAGE_SIZE);
    else fehler.push({ field: 'pageSize', message: 'reports:fehler.pageSize', params: { max: MAX_PAGE_SIZE } });
  }
  return { params, format, page, pageSize, fehler, fehlend };
}

/** The calendar months of a period, clipped to it: [{von, bis}] (none without both dates). */
export function monateIn(startDate: string | null, endDate: string | null): { von: string; bis: string }[] {
  if (!startDate || !endDate || endDate < startDate) return [];
  const out: { von: string; bis: string }[] = [];
  let [y, m] = startDate.split('-').map(Number);
  for (;;) {
    const first = `${y}-${String(m).padStart(2, '0')}-01`;
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const von = first < startDate ? startDate : first;
    const bis = last > endDate ? endDate : last;
    out.push({ von, bis });
    if (last >= endDate) return out;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
}
