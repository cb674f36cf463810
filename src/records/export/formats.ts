// The export formats and the one function that reads the `format` list parameter (kept apart from the
// writers, so the list parameter parsing can use it without loading them).
import type { FieldError } from '../../http/errors.js';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The `format` list parameter: absent (the list itself, no error), one of EXPORT_FORMATS, or an error naming
 * the parameter. The only place that knows which values `format` takes.
 */
export function parseExportFormat(value: unknown): { format: ExportFormat | null; error: FieldError | null } {
  if (value === undefined) return { format: null, error: null };
  if (typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value)) return { format: value as ExportFormat, error: null };
  return { format: null, error: { field: 'format', message: 'list.invalidFormat', params: { formats: EXPORT_FORMATS.join(', ') } } };
}
