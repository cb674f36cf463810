// The preview in words: errors as sentences ("Zeile 3, Spalte „PLZ“: Zu lang"), values as the user reads
// them. Shared by the preview page and the JSON API, so both say the same.
import type { Translate } from './columns.js';
import type { Counts, PreviewRow, RowError, RowStatus } from './schema.js';
import type { Staging } from './repo.js';
import { PREVIEW_ROWS } from './service.js';

export const STATUS_VARIANT: Record<RowStatus, 'success' | 'info' | 'neutral' | 'error'> = {
  create: 'success', update: 'info', unchanged: 'neutral', refused: 'error',
};

export function valueText(v: unknown, t: Translate): string {
  if (v === null || v === undefined || v === '') return t('import:preview.emptyValue');
  if (typeof v === 'boolean') return t(v ? 'list.yes' : 'list.no');
  return String(v);
}

export const errorMessage = (e: RowError, t: Translate) => t(e.message, e.params ?? {});

/** "Zeile 3, Spalte „PLZ“: Zu lang" (or without the column when the problem is the row's). */
export function errorSentence(e: RowError, t: Translate): string {
  const message = errorMessage(e, t);
  return e.column ? t('import:preview.errorAt', { row: e.row, column: e.column, message }) : t('import:preview.errorAtRow', { row: e.row, message });
}

/** Counts in their natural order (jsonb keeps keys in its own). */
export const ordered = (c: Counts): Counts => ({ create: c.create, update: c.update, unchanged: c.unchanged, refused: c.refused });

/** The API's view: translated errors and the first rows. */
export function apiPreview(staging: Staging, t: Translate) {
  const { summary } = staging;
  const error = (e: RowError) => ({ row: e.row, column: e.column, message: errorMessage(e, t) });
  return {
    token: staging.id,
    entity: staging.entity,
    counts: ordered(summary.counts),
    dataRows: summary.dataRows,
    errorCount: summary.errorCount,
    errors: summary.errors.map(error),
    rows: summary.rows.slice(0, PREVIEW_ROWS).map((r: PreviewRow) => ({
      row: r.row,
      nr: r.nr,
      status: r.status,
      ...(r.changes ? { changes: r.changes.map((c) => ({ field: c.field, column: c.column, before: c.before, after: c.after })) } : {}),
      ...(r.errors ? { errors: r.errors.map(error) } : {}),
    })),
    ...(staging.result ? { result: ordered(staging.result) } : {}),
  };
}

export const toSave = (c: Counts) => c.create + c.update;
