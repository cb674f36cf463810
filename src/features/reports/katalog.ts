// The report catalogue: every report declared once (src/features/reports/definition.ts), in the order the
// catalogue page and GET /api/reports list them. Each report lives in berichte/<id>.ts.
import type { ReportDefinition } from './definition.js';
import { mengenbilanzReport } from './berichte/mengenbilanz.js';
import { nachweisKontoauszugReport } from './berichte/nachweis-kontoauszug.js';
import { thgBerichtReport } from './berichte/thg-bericht.js';
import { quotenberichtReport } from './berichte/quotenbericht.js';
import { lieferungenJePartnerReport } from './berichte/lieferungen-je-partner.js';

/** A report of any row type as a catalogue entry (the framework only hands its rows to its own columns). */
const eintrag = <R>(def: ReportDefinition<R>) => def as unknown as ReportDefinition;

export const REPORTS: ReportDefinition[] = [
  eintrag(mengenbilanzReport),
  eintrag(nachweisKontoauszugReport),
  eintrag(thgBerichtReport),
  eintrag(quotenberichtReport),
  eintrag(lieferungenJePartnerReport),
];

/** The report with this URL id, or undefined. */
export function findReport(id: string): ReportDefinition | undefined {
  return REPORTS.find((report) => report.id === id);
}
