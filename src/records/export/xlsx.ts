// XLSX: the list as a worksheet that calculates. Numbers are numeric cells with a number format (the
// spreadsheet shows them with the reader's own separators), dates are dates in the user's date format, the
// header row is bold, frozen and filterable, and the sums follow after an empty row. Written with exceljs's
// streaming writer: each row is committed (turned into XML and handed to the zip) as it is added, so a
// worksheet of 100,000 rows never sits in memory.
import type { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { CellValue, Worksheet } from 'exceljs';
import { partsIn } from '../../http/format.js';
import { cellText, fractionDigits, type ListColumn } from '../list/engine.js';
import type { ExportSource } from './rows.js';
import type { Sink } from './sink.js';
import type { ExportContext, ExportWriter } from './writer.js';

type ExcelJS = typeof import('exceljs');
let loading: Promise<ExcelJS> | null = null;
/** Loaded on the first spreadsheet: exceljs holds about 16 MB that a server which never makes one need not. */
const exceljs = () => (loading ??= import('exceljs').then((m) => m.default));

/** A cell: its value and, for numbers and dates, its number format. */
export interface XlsxCell {
  value: CellValue;
  numFmt?: string;
  bold?: boolean;
}

/** `#,##0.000`, with the unit after the number when the column has one (`#,##0.000" kg"`). */
export function numberFormat(digits: number, suffix?: string | null): string {
  const base = digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
  return suffix ? `${base}" ${suffix.replace(/"/g, '')}"` : base;
}

/** The user's date format (settings: dd.MM.yyyy, yyyy-MM-dd, MM/dd/yyyy) in the spreadsheet's notation. */
export function dateFormat(pattern: string, withTime: boolean): string {
  const day = pattern === 'yyyy-MM-dd' ? 'yyyy-mm-dd' : pattern === 'MM/dd/yyyy' ? 'mm/dd/yyyy' : 'dd.mm.yyyy';
  return withTime ? `${day} hh:mm` : day;
}

/**
 * A date as the spreadsheet stores it: a calendar day ("2025-12-31") is that day; an instant is the day and
 * time it was in the user's time zone, since a spreadsheet cell has no zone (written as that wall-clock time
 * in UTC, which is what exceljs turns into the cell's serial number).
 */
export function spreadsheetDate(value: unknown, timeZone: string): Date | null {
  const day = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (day) return new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  const d = value instanceof Date ? value : new Date(value as string | number);
  if (Number.isNaN(d.getTime())) return null;
  const p = partsIn(timeZone, d);
  return new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)));
}

/** The cell of a column in a row: what the page shows as text, numbers and dates as values. */
export function xlsxCell<R>(col: ListColumn<R>, row: R, ctx: Pick<ExportContext, 'fmt' | 't' | 'settings'>): XlsxCell {
  const value = (row as Record<string, unknown>)[col.key];
  if (col.badge || value == null || value === '') return { value: cellText(col, row, ctx.fmt, ctx.t) || null };
  switch (col.kind) {
    case 'number': {
      const n = Number(value);
      return Number.isFinite(n) ? { value: n, numFmt: numberFormat(fractionDigits(col.digits, value), col.suffix?.(row)) } : { value: null };
    }
    case 'date':
    case 'datetime': {
      const d = spreadsheetDate(value, ctx.settings.timezone);
      return d ? { value: d, numFmt: dateFormat(ctx.settings.dateFormat, col.kind === 'datetime') } : { value: null };
    }
    default:
      // Text as text: a cell of an XLSX file is a formula only when written as one, so unlike the CSV nothing
      // needs neutralising, and the value stays exactly what was stored.
      return { value: cellText(col, row, ctx.fmt, ctx.t) };
  }
}

/** A worksheet name: at most 31 characters, none of []:*?/\ (the spreadsheet refuses them). */
export function sheetName(title: string): string {
  return title.replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 31).trim() || 'Export';
}

/** Column widths (in characters) from the header and the first chunk's values, within reason. */
function widths<R>(columns: ListColumn<R>[], header: string[], first: XlsxCell[][]): number[] {
  return columns.map((c, i) => {
    let widest = header[i].length;
    for (const row of first) {
      const v = row[i].value;
      const len = v instanceof Date ? (c.kind === 'datetime' ? 16 : 10) : typeof v === 'number' ? String(Math.round(v)).length + 2 + (c.digits === 'asStored' ? 3 : c.digits ?? 0) : String(v ?? '').length;
      if (len > widest) widest = len;
    }
    return Math.min(Math.max(widest + 2, 8), 50);
  });
}

/** Bytes of worksheet XML the zip may hold before the writer waits for the client. */
const HOLD = 256 * 1024;

/**
 * The stream exceljs feeds a worksheet's XML into (the zip entry's input, in front of its deflater) and the
 * bytes waiting there. exceljs writes to it without waiting (its StreamBuf ignores backpressure), so when the
 * client is slow the XML piles up there; the writer waits on it instead. Read from internals of exceljs (the
 * StreamBuf's `pipes`) and of the stream archiver puts in front of it (`_writableState`, an older
 * readable-stream without `writableLength`); writers.test.ts names them, so an upgrade that moves them fails
 * a test rather than the memory bound.
 */
export function worksheetBacklog(sheet: Worksheet): { stream: EventEmitter; bytes: number } | null {
  const feeder = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0] as
    | (EventEmitter & { writableLength?: number; _writableState?: { length?: number } })
    | undefined;
  if (!feeder) return null;
  return { stream: feeder, bytes: feeder.writableLength ?? feeder._writableState?.length ?? 0 };
}

/**
 * Writes the header, the rows a chunk at a time and the sums into the worksheet and commits it. False when the
 * client went away (then there is nothing more to do).
 */
async function fill<R>(sheet: Worksheet, source: ExportSource<R>, ctx: ExportContext, sink: Sink): Promise<boolean> {
  const { columns } = source;
  const header = columns.map((c) => ctx.t(c.label));
  // Written when the worksheet is committed, at its end.
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, columns.length) } };
  /** Adds a row and commits it: turned into XML and handed to the zip at once, kept nowhere. */
  const add = (cells: XlsxCell[]) => {
    const row = sheet.addRow(cells.map((c) => c.value));
    cells.forEach((c, i) => {
      if (c.numFmt) row.getCell(i + 1).numFmt = c.numFmt;
      if (c.bold) row.getCell(i + 1).font = { bold: true };
    });
    row.commit();
  };
  /** Waits while the zip holds more than the client takes; false when the client has gone away. */
  const settled = () =>
    sink.until(() => !sink.out.writableNeedDrain && (worksheetBacklog(sheet)?.bytes ?? 0) < HOLD, worksheetBacklog(sheet)?.stream);
  let started = false;
  const start = (first: XlsxCell[][]) => {
    sheet.columns = widths(columns, header, first).map((width) => ({ width }));
    add(header.map((value) => ({ value, bold: true })));
    started = true;
  };
  for await (const rows of source.chunks()) {
    if (sink.gone) return false;
    if (!started) start(rows.map((row) => columns.map((c) => xlsxCell(c, row, ctx))));
    // Row by row: a chunk's cells are never all alive at once.
    for (const row of rows) add(columns.map((c) => xlsxCell(c, row, ctx)));
    if (!(await settled())) return false;
  }
  if (!started) start([]);
  if (source.totals.length) {
    const sums = await source.sums();
    add([]);
    for (const x of source.totals) {
      add([{ value: ctx.t(x.label), bold: true }, { value: sums[x.key] == null ? null : Number(sums[x.key]), numFmt: numberFormat(x.digits ?? 0) }]);
    }
  }
  // A report's explanations, one per row in the first column, after an empty row.
  if (ctx.notes?.length) {
    add([]);
    for (const note of ctx.notes) add([{ value: note }]);
  }
  sheet.commit();
  return !sink.gone;
}

export const xlsxWriter: ExportWriter = {
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  extension: 'xlsx',
  // exceljs makes objects for every row, cell and style: with 500 rows in flight the server's peak on 100,000
  // rows was 130 MB above its start, with 100 it was 35 MB, no slower (scratch measurement, PostgreSQL).
  chunkSize: 100,
  async write(source, ctx, sink) {
    const ExcelJS = await exceljs();
    // exceljs pipes its zip into this, and this into the response: on a failure it is unpiped, so nothing of
    // the zip can follow the error handler's answer (or its cut).
    const zipped = new PassThrough();
    const started = sink.firstBytesOf(zipped);
    zipped.pipe(sink.out);
    // The zip starts at once (its first entries are fixed), so the download starts while the keys are read.
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: zipped, useStyles: true, useSharedStrings: false });
    workbook.creator = ctx.t('app.name');
    workbook.created = ctx.now;
    const sheet = workbook.addWorksheet(sheetName(ctx.title), { views: [{ state: 'frozen', ySplit: 1 }] });
    try {
      await started;
      if (!(await fill(sheet, source, ctx, sink))) return;
      // The zip's end ends the response; a client that leaves meanwhile ends the wait.
      await Promise.race([workbook.commit(), new Promise<void>((resolve) => sink.out.once('close', resolve))]);
      await sink.end(true);
    } catch (err) {
      zipped.unpipe(sink.out);
      zipped.destroy();
      throw err;
    }
  },
};
