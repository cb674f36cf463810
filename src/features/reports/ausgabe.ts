// A report's result as a file (CSV, XLSX, PDF) through the shared export writers: its rows (computed, so held
// in memory: a report's rows are aggregates, a few hundred at most), its sums, its explanation lines after the
// sums in every format, and for the PDF a title page with tenant, period, parameters, when and by whom.
import type { Request, Response } from 'express';
import type { TenantScope } from '../../db/scope.js';
import { formatter } from '../../http/format.js';
import { exportFile, rowsInMemory, writeExport, type ExportFormat } from '../../records/export/index.js';
import type { ReportDefinition, ReportErgebnis, ReportParameter } from './definition.js';
import { erlaeuterungen, titelseite, zeitraumInWorten, type T } from './service.js';

/** The file name of a report: its id and period ("mengenbilanz_2025-01-01_2025-12-31"). */
export function dateiname(def: ReportDefinition, params: ReportParameter): string {
  return [def.id, params.startDate, params.endDate].filter(Boolean).join('_');
}

/** Answers with the report as a file of the format, in the language `lang` (the page's path, the API's Accept-Language). */
export async function sendeDatei<R>(
  req: Request, res: Response, scope: TenantScope, def: ReportDefinition<R>, params: ReportParameter, ergebnis: ReportErgebnis<R>, format: ExportFormat, lang: 'de' | 'en',
): Promise<void> {
  const user = res.locals.currentUser!;
  const settings = user.settings;
  const t = req.t as T;
  const fmt = formatter(settings, lang);
  const now = new Date();
  const title = t(`reports:katalog.${def.id}.name`);
  const ctx = {
    t: req.t, fmt, lang, settings, title, now,
    description: `${t('reports:titelseite.zeitraum')}: ${zeitraumInWorten(params, fmt)}`,
    notes: erlaeuterungen(ergebnis, t, fmt),
    titelseite: format === 'pdf' ? { zeilen: await titelseite(scope, def as ReportDefinition, params, t, fmt, user, now) } : undefined,
  };
  const { contentType, extension } = exportFile(format);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${dateiname(def as ReportDefinition, params)}.${extension}"`);
  try {
    await writeExport(format, rowsInMemory({ columns: def.columns, totals: def.summen ?? [] }, ergebnis.rows, ergebnis.sums), ctx, res);
  } catch (err) {
    if (!res.headersSent) {
      res.removeHeader('Content-Disposition');
      res.removeHeader('Content-Type');
    }
    throw err;
  }
}

/** An AbortSignal that fires when the client goes away before the answer is complete. */
export function clientSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
