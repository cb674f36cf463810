// List exports: one row source (rows.ts) and a writer per format. `?format=csv|xlsx|pdf` on a list page or
// list API chooses the writer (src/records/list/routes.ts); everything else about the file is decided here.
import { csvWriter } from './csv.js';
import type { ExportFormat } from './formats.js';
import { pdfWriter } from './pdf.js';
import type { ExportSource } from './rows.js';
import { Sink, type ExportOutput } from './sink.js';
import { xlsxWriter } from './xlsx.js';
import type { ExportContext, ExportWriter } from './writer.js';

export { describeList } from './describe.js';
export { EXPORT_FORMATS, parseExportFormat, type ExportFormat } from './formats.js';
export { EXPORT_CHUNK, listRows, rowsInMemory, type ExportSource, type ExportTotal } from './rows.js';
export type { ExportOutput } from './sink.js';
export type { ExportContext, ExportWriter } from './writer.js';

const WRITERS: Record<ExportFormat, ExportWriter> = { csv: csvWriter, xlsx: xlsxWriter, pdf: pdfWriter };

/** Content type and file extension of a format (for the answer's headers), and the rows to read at a time. */
export function exportFile(format: ExportFormat): { contentType: string; extension: string; chunkSize: number } {
  const { contentType, extension, chunkSize } = WRITERS[format];
  return { contentType, extension, chunkSize };
}

/**
 * Writes the rows as a file of the format to `out` and ends it. Resolves quietly when the client goes away;
 * rejects when reading fails (after the first byte: cut the connection, see ExportWriter).
 */
export function writeExport<R>(format: ExportFormat, source: ExportSource<R>, ctx: ExportContext, out: ExportOutput): Promise<void> {
  return WRITERS[format].write(source, ctx, new Sink(out));
}
