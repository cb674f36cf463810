import type { TenantScope } from '../../db/scope.js';
import type { ListColumn } from '../../records/list/engine.js';

export const REPORT_PARAMETER = ['startDate', 'endDate', 'partner', 'standort', 'produkt'] as const;
export type ReportParameterName = (typeof REPORT_PARAMETER)[number];
export const REPORT_FORMATE = ['json', 'csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATE)[number];

/** Validated parameters: ISO dates (endDate >= startDate, period <= 5 years), numbers that exist in the tenant. */
export interface ReportParameter {
  startDate: string | null;
  endDate: string | null;
  partner: string | null;   // tauschpartner nr
  standort: string | null;  // standort nr, always one of the user's locations
  produkt: string | null;   // produkt nr
}

export interface ReportContext {
  /** Tenant scope already limited to the user's locations (scope.atStandorte(qb, column) limits a query). */
  scope: TenantScope;
  params: ReportParameter;
  /** Today in Germany, ISO. */
  heute: string;
  lang: 'de' | 'en';
  t: (key: string, options?: Record<string, unknown>) => string;
  /** The period split into calendar months [{von, bis}] clipped to startDate..endDate (empty without dates). */
  monate: { von: string; bis: string }[];
  /**
   * Call between slices of work (e.g. after each month's query): yields to the event loop so other requests are
   * answered while a large report runs on the embedded database, reports progress, and throws if the client left.
   */
  pause(done: number, total: number): Promise<void>;
}

export interface ReportSumme {
  key: string;       // a column key
  label: string;     // i18n key
  digits?: number;
}

/** What a report computes: rows in display order, sums as exact decimal strings, explanation lines. */
export interface ReportErgebnis<R> {
  rows: R[];
  sums: Record<string, string | null>;
  /** Lines shown under the table, in the PDF/XLSX/CSV after the sums: the formula, the law values that applied … */
  erlaeuterungen?: { key: string; params?: Record<string, unknown> }[];
}

export interface ReportDefinition<R = Record<string, unknown>> {
  /** URL id: /api/reports/{id}, e.g. 'mengenbilanz'. Name/question i18n: reports:katalog.<id>.name / .frage */
  id: string;
  /** Parameters the report takes, and which of them are required. */
  parameter: readonly ReportParameterName[];
  pflicht: readonly ReportParameterName[];
  formate: readonly ReportFormat[];
  /** Columns as the list engine/export writers know them (labels = i18n keys, e.g. 'reports:spalten.mengenbilanz.zugang'). */
  columns: ListColumn<R>[];
  summen?: ReportSumme[];
  run(ctx: ReportContext): Promise<ReportErgebnis<R>>;
}
