// The report catalogue: every report declared once (src/features/reports/definition.ts), in the order the
// catalogue page and GET /api/reports list them. Each report lives in berichte/<id>.ts.
import type { ReportDefinition } from './definition.js';
import { mengenbilanzReport } from './berichte/mengenbilanz.js';
// R2: import { nachweisKontoauszugReport } from './berichte/nachweis-kontoauszug.js';
// R2: import { thgBerichtReport } from './berichte/thg-bericht.js';
// R2: import { quotenberichtReport } from './berichte/quotenbericht.js';
import { lieferungenJePartnerReport } from './berichte/lieferungen-je-partner.js';

export const REPORTS: ReportDefinition[] = [
  mengenbilanzReport as ReportDefinition,
  // R2: nachweisKontoauszugReport as ReportDefinition,
  // R2: thgBerichtReport as ReportDefinition,
  // R2: quotenberichtReport as ReportDefinition,
  lieferungenJePartnerReport as ReportDefinition,
];

/** The report with this URL id, or undefined. */
export function findReport(id: string): ReportDefinition | undefined {
  return REPORTS.find((report) => report.id === id);
}
