// A preview in words: errors and warnings as sentences ("Zeile 3, Spalte „PLZ“: Zu lang"), values as the user
// reads them.
// Shared by both imports' preview pages and JSON APIs, so all of them say the same.
import { z } from 'zod';
import type { HttpError } from '../http/errors.js';
import { PREVIEW_ROWS } from './engine.js';
import type { Counts, PreviewRow, RowError, RowStatus, Translate } from './schema.js';
import type { Staging } from './staging.js';

export const STATUS_VARIANT: Record<RowStatus, 'success' | 'info' | 'neutral' | 'error'> = {
  create: 'success', update: 'info', unchanged: 'neutral', refused: 'error',
};

export function valueText(v: unknown, t: Translate): string {
  if (v === null || v === undefined || v === '') return t('import:preview.emptyValue');
  if (typeof v === 'boolean') return t(v ? 'list.yes' : 'list.no');
  return String(v);
}

export const errorMessage = (e: RowError, t: Translate) => t(e.message, e.params ?? {});

/** How a sentence names a field: as the import calls it (a mapped import: its code's field name), or by its label. */
export type FieldName = (field: string) => string;
const asIs: FieldName = (field) => field;

/**
 * "Zeile 3, Spalte „PLZ“: Zu lang", with the field where the column alone does not name it ("Zeile 7, Spalte
 * „Menge“ (Feld entladeneMenge): …"), or without the column when the problem is the row's or its field has none.
 */
export function errorSentence(e: RowError, t: Translate, fieldName: FieldName = asIs): string {
  const message = errorMessage(e, t);
  const params = { row: e.row, column: e.column, field: e.field && fieldName(e.field), message };
  if (e.column) return t(e.field ? 'import:preview.errorAtField' : 'import:preview.errorAt', params);
  return t(e.field ? 'import:preview.errorAtRowField' : 'import:preview.errorAtRow', params);
}

/** The same without the row, for a row's own list of problems. */
export function errorInRow(e: RowError, t: Translate, fieldName: FieldName = asIs): string {
  const message = errorMessage(e, t);
  const params = { column: e.column, field: e.field && fieldName(e.field), message };
  if (e.column) return t(e.field ? 'import:preview.columnFieldError' : 'import:preview.columnError', params);
  return e.field ? t('import:preview.fieldError', params) : message;
}

/** Counts in their natural order (jsonb keeps keys in its own). */
export const ordered = (c: Counts): Counts => ({ create: c.create, update: c.update, unchanged: c.unchanged, refused: c.refused });

/** The API's view of counts (for the API description, src/features/api-docs). */
export const CountsAnswer = z.object({ create: z.number().int(), update: z.number().int(), unchanged: z.number().int(), refused: z.number().int() }).strict();
const RowErrorAnswer = z.object({ row: z.number().int(), column: z.string().nullable().optional(), field: z.string().optional(), message: z.string() }).strict();

/** apiPreview's answer, for the API description; the movement-data import adds its `typ`. */
export const PreviewAnswer = z.object({
  token: z.string(), entity: z.string(), counts: CountsAnswer, dataRows: z.number().int(), errorCount: z.number().int(), errors: z.array(RowErrorAnswer),
  warned: z.number().int(), warningCount: z.number().int(), warnings: z.array(RowErrorAnswer),
  rows: z.array(z.object({
    row: z.number().int(), nr: z.string().nullable(), status: z.string(),
    changes: z.array(z.object({ field: z.string(), column: z.string().nullable().optional(), before: z.unknown(), after: z.unknown() }).strict()).optional(),
    errors: z.array(RowErrorAnswer).optional(), warnings: z.array(RowErrorAnswer).optional(), values: z.record(z.string(), z.unknown()).optional(),
  }).strict()),
  result: CountsAnswer.optional(),
}).strict();

/** A commit's answer. */
export const CommitAnswer = z.object({ success: z.literal(true), data: z.object({ token: z.string(), counts: CountsAnswer }).strict() }).strict();

/** The API's view: translated errors and the first rows (with the values as they would be stored, if kept). */
export function apiPreview(staging: Staging, t: Translate) {
  const { summary } = staging;
  const error = (e: RowError) => ({ row: e.row, column: e.column, ...(e.field ? { field: e.field } : {}), message: errorMessage(e, t) });
  return {
    token: staging.id,
    entity: staging.entity,
    counts: ordered(summary.counts),
    dataRows: summary.dataRows,
    errorCount: summary.errorCount,
    errors: summary.errors.map(error),
    warned: summary.warned,
    warningCount: summary.warningCount,
    warnings: summary.warnings.map(error),
    rows: summary.rows.slice(0, PREVIEW_ROWS).map((r: PreviewRow) => ({
      row: r.row,
      nr: r.nr,
      status: r.status,
      ...(r.changes ? { changes: r.changes.map((c) => ({ field: c.field, column: c.column, before: c.before, after: c.after })) } : {}),
      ...(r.errors ? { errors: r.errors.map(error) } : {}),
      ...(r.warnings ? { warnings: r.warnings.map(error) } : {}),
      ...(r.values ? { values: r.values } : {}),
    })),
    ...(staging.result ? { result: ordered(staging.result) } : {}),
  };
}

export const toSave = (c: Counts) => c.create + c.update;

/** A refused upload as its page shows it: the message, each column the header row got wrong, what it expects. */
export function uploadFailure(err: HttpError, t: Translate) {
  return {
    message: t(err.messageKey, err.params),
    columns: err.errors.map((e) => t('import:upload.columnProblem', { column: e.field, message: t(e.message) })),
    expected: err.code === 'IMPORT_HEADERS' ? String(err.params.expected ?? '') : null,
  };
}
