import type { ReportDefinition } from '../definition.js';

// Skeleton: the report is built in the following commits.
export const lieferungenJePartnerReport: ReportDefinition = {
  id: 'lieferungen-je-partner',
  parameter: ['startDate', 'endDate', 'partner', 'standort', 'produkt'],
  pflicht: ['startDate', 'endDate'],
  formate: ['json', 'csv', 'xlsx', 'pdf'],
  columns: [],
  run: async () => ({ rows: [], sums: {} }),
};
