// Reading an uploaded spreadsheet row by row: what kind of file it is (by its content, never by the name),
// then its rows as text cells, streamed, so a 50,000-row file is never held as a second copy next to the
// upload. CSV: `;`, `,` or tab (detected from the header line), UTF-8 with or without BOM, else Windows-1252
// (what Excel on Windows writes as "CSV"). XLSX: the first worksheet, with exceljs' streaming reader, its parts
// put in the order the reader needs them (src/import/zip-order.ts); its numbers and dates arrive as machine text
// ("1234.5", "2025-11-03") and say so in `kinds`.
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { HttpError } from '../http/errors.js';
import { zipInReadingOrder } from './zip-order.js';

export type FileKind = 'csv' | 'xlsx';

/** What an XLSX cell held: a number or a date is machine text, whatever the spreadsheet showed. */
export type CellKind = 'text' | 'number' | 'date';

/** One row as the user sees it in the spreadsheet: its number (header = 1) and its cells as text. */
export interface SheetRow {
  row: number;
  cells: string[];
  /** XLSX only: the kind of each cell. */
  kinds?: CellKind[];
}

/** Far beyond any real import file; stops a decompressed XLSX or a CSV of single bytes from running on. */
export const MAX_ROWS = 100_000;
export const MAX_COLUMNS = 200;
const CHUNK_BYTES = 64 * 1024;

export const fileError = (key: string, params: Record<string, unknown> = {}) => new HttpError(400, 'IMPORT_FILE', `import:errors.${key}`, [], params);

const startsWith = (buf: Buffer, bytes: number[]) => bytes.every((b, i) => buf[i] === b);

/** Formats that are clearly not a spreadsheet we read, by their first bytes. */
const BINARY_SIGNATURES = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x1f, 0x8b], // gzip
  [0x42, 0x4d], // BMP
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x4d, 0x5a], // Windows executable
];

/** Decides by content: ZIP container → XLSX, text → CSV, anything else is refused with a clear message. */
export function sniff(buf: Buffer): FileKind {
  if (buf.length === 0) throw fileError('empty');
  if (startsWith(buf, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (startsWith(buf, [0xd0, 0xcf, 0x11, 0xe0])) throw fileError('xls');
  if (BINARY_SIGNATURES.some((sig) => startsWith(buf, sig)) || buf.includes(0)) throw fileError('notSpreadsheet');
  // Text with control characters other than tab, CR, LF, form feed is a binary file with a lucky start.
  const head = buf.subarray(0, CHUNK_BYTES);
  for (const byte of head) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) throw fileError('notSpreadsheet');
  return 'csv';
}

/** The delimiter of the header line: the most frequent of `;`, `,` and tab outside quotes (`;` on a tie). */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>([[';', 0], [',', 0], ['\t', 0]]);
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ';';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}

async function* csvRows(buf: Buffer): AsyncGenerator<SheetRow> {
  // A file that is not valid UTF-8 is read as Windows-1252, so umlauts from Excel's plain "CSV" survive.
  const encoding = isUtf8(buf) ? 'utf-8' : 'windows-1252';
  const head = new TextDecoder(encoding).decode(buf.subarray(0, CHUNK_BYTES));
  if (!head.trim()) throw fileError('empty');
  const decoder = new TextDecoder(encoding); // drops a UTF-8 byte order mark
  function* text() {
    for (let i = 0; i < buf.length; i += CHUNK_BYTES) yield decoder.decode(buf.subarray(i, i + CHUNK_BYTES), { stream: true });
    const tail = decoder.decode();
    if (tail) yield tail;
  }
  const parser = parse({ delimiter: detectDelimiter(head), relax_column_count: true, max_record_size: 100_000 });
  const source = Readable.from(text());
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      yield { row, cells: record };
    }
  } catch (err) {
    if (err instanceof CsvError) throw fileError('csvSyntax', { row: row + 1 });
    throw err;
  } finally {
    source.destroy();
  }
}

/** The text of an XLSX cell: formulas give their computed result, rich text and links their text. */
export function xlsxCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('formula' in v || 'sharedFormula' in v) return xlsxCellText(v.result);
    if ('text' in v) return xlsxCellText(v.text);
    if ('error' in v) return String(v.error);
  }
  return String(value);
}

function xlsxCellKind(value: unknown): CellKind {
  if (typeof value === 'number') return 'number';
  if (value instanceof Date) return 'date';
  if (value && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value)) return xlsxCellKind((value as { result?: unknown }).result);
  return 'text';
}

async function* xlsxRows(buf: Buffer): AsyncGenerator<SheetRow> {
  // Loaded on the first spreadsheet: exceljs holds about 16 MB that a server which never imports one need not.
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(zipInReadingOrder(buf)), {
    worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'emit',
  });
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values : [];
        if (values.length - 1 > MAX_COLUMNS) throw fileError('tooManyColumns', { max: MAX_COLUMNS });
        // row.values is 1-based (index 0 is empty); empty rows are not emitted, their numbers are skipped.
        const length = Math.max(0, values.length - 1);
        yield {
          row: row.number,
          cells: Array.from({ length }, (_, i) => xlsxCellText(values[i + 1])),
          kinds: Array.from({ length }, (_, i) => xlsxCellKind(values[i + 1])),
        };
      }
      break; // the first worksheet only
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw fileError('xlsxUnreadable');
  }
  if (!sawSheet) throw fileError('xlsxUnreadable');
}

/** The rows of the file, header first. File-level problems are 400s with a translated message. */
export async function* readRows(buf: Buffer): AsyncGenerator<SheetRow> {
  const kind = sniff(buf);
  let count = 0;
  for await (const r of kind === 'xlsx' ? xlsxRows(buf) : csvRows(buf)) {
    if (++count > MAX_ROWS + 1) throw fileError('tooManyRows', { max: MAX_ROWS });
    if (r.cells.length > MAX_COLUMNS) throw fileError('tooManyColumns', { max: MAX_COLUMNS });
    yield r;
  }
}

/**
 * The ISO day of a spreadsheet's date number (days since 30 Dec 1899; a time of day is the fraction), or null
 * when the text is no such number. A date cell arrives as one when the reader ignores the cell's format.
 */
export function spreadsheetDay(text: string): string | null {
  const value = text.trim();
  if (!/^\d{1,7}(\.\d+)?$/.test(value)) return null;
  return new Date(Date.UTC(1899, 11, 30) + Math.floor(Number(value)) * 86_400_000).toISOString().slice(0, 10);
}

/** "A", "B", … "AA": how a spreadsheet names a column that has no header. */
export function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
