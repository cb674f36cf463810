// CSV: what spreadsheet programs open by double-click. German lists use `;` (what German spreadsheet programs
// expect with a decimal comma), English `,`; CRLF line ends and a byte order mark, by which they read UTF-8.
// Values are the page's text (numbers and dates as the user reads them), the sums after an empty line.
//
// Records are written by csvRecord below rather than csv-stringify: for a list of strings the library built
// about 7 KB of short-lived arrays and objects per row of 25 columns (700 MB of a 100,000-row export's 1.7 GB
// allocated, bench/README.md), and with a record delimiter set it left a field with a lone line break
// unquoted, which spreadsheet programs read as the start of a new row (a delivery's comment can hold one).
// csvRecord is RFC 4180 and nothing more; writers.test.ts checks it against csv-parse and csv-stringify.
import { cellText } from '../list/engine.js';
import { EXPORT_CHUNK } from './rows.js';
import type { ExportWriter } from './writer.js';

/** Spreadsheet programs run cells that start with these as formulas: neutralised with a leading apostrophe. */
export function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export type CsvDelimiter = ';' | ',';
const NEEDS_QUOTES: Record<CsvDelimiter, RegExp> = { ';': /[;"\r\n]/, ',': /[,"\r\n]/ };

/**
 * One record with its CRLF: the fields joined by the delimiter, each one in quotes (inner quotes doubled) if it
 * holds the delimiter, a quote or a line break (RFC 4180). No fields: an empty line.
 */
export function csvRecord(fields: readonly string[], delimiter: CsvDelimiter): string {
  const needsQuotes = NEEDS_QUOTES[delimiter];
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    const value = fields[i];
    if (i > 0) line += delimiter;
    line += needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  }
  return `${line}\r\n`;
}

export const csvWriter: ExportWriter = {
  contentType: 'text/csv; charset=utf-8',
  extension: 'csv',
  chunkSize: EXPORT_CHUNK,
  async write(source, ctx, sink) {
    const { columns } = source;
    const delimiter: CsvDelimiter = ctx.lang === 'de' ? ';' : ',';
    // Written a chunk at a time as one string: the compressing encoder then works on a hundred pieces of a
    // large export instead of a hundred thousand rows one by one (which took twice as long and 40 MB more).
    const write = (records: string[][], prefix = '') => sink.write(prefix + records.map((r) => csvRecord(r, delimiter)).join(''));
    // The header row goes out at once (with the byte order mark), so the download starts while the keys are read.
    if (!(await write([columns.map((c) => csvSafe(ctx.t(c.label)))], '\uFEFF'))) return;
    for await (const rows of source.chunks()) {
      if (!(await write(rows.map((row) => columns.map((c) => csvSafe(cellText(c, row, ctx.fmt, ctx.t))))))) return;
    }
    // The sums after an empty line, each as label and value.
    if (source.totals.length) {
      const sums = await source.sums();
      const records = source.totals.map((x) => [csvSafe(ctx.t(x.label)), sums[x.key] == null ? '' : ctx.fmt.number(sums[x.key]!, x.digits ?? 0)]);
      if (!(await write([[], ...records]))) return;
    }
    // A report's explanations, one per line, after another empty line.
    if (ctx.notes?.length && !(await write([[], ...ctx.notes.map((note) => [csvSafe(note)])]))) return;
    await sink.end();
  },
};
