// CSV: what spreadsheet programs open by double-click. German lists use `;` (what German spreadsheet programs
// expect with a decimal comma), English `,`; CRLF line ends and a byte order mark, by which they read UTF-8.
// Values are the page's text (numbers and dates as the user reads them), the sums after an empty line.
import { stringify } from 'csv-stringify/sync';
import { cellText } from '../list/engine.js';
import { EXPORT_CHUNK } from './rows.js';
import type { ExportWriter } from './writer.js';

/** Spreadsheet programs run cells that start with these as formulas: neutralised with a leading apostrophe. */
export function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const csvWriter: ExportWriter = {
  contentType: 'text/csv; charset=utf-8',
  extension: 'csv',
  chunkSize: EXPORT_CHUNK,
  async write(source, ctx, sink) {
    const { columns } = source;
    const format = { delimiter: ctx.lang === 'de' ? ';' : ',', record_delimiter: 'windows' as const };
    // Written a chunk at a time as one string: the compressing encoder then works on a hundred pieces of a
    // large export instead of a hundred thousand rows one by one (which took twice as long and 40 MB more).
    const write = (records: string[][], prefix = '') => sink.write(prefix + stringify(records, format));
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
