// The export writers on small rows in memory: what each format holds and how it looks, and that none of them
// reads ahead of a client that does not take what it is sent (rows never pile up in memory).
import { PassThrough, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { formatter } from '../../http/format.js';
import type { ListColumn, ListTotal } from '../list/engine.js';
import { csvRecord, csvSafe, type CsvDelimiter } from './csv.js';
import { fitWidths, pdfText } from './pdf.js';
import { extractPdfText } from '../../testing/pdf-text.js';
import type { ExportSource } from './rows.js';
import { rowsInMemory } from './rows.js';
import { dateFormat, numberFormat, sheetName, spreadsheetDate, worksheetBacklog } from './xlsx.js';
import { writeExport, type ExportContext, type ExportFormat } from './index.js';

interface Row {
  nr: string;
  datum: string;
  menge: string;
  einheit: string;
  aktiv: boolean;
  status: string;
  kommentar: string | null;
}

const columns: ListColumn<Row>[] = [
  { key: 'nr', label: 'stammdaten:fields.nr' },
  { key: 'datum', label: 'Datum', kind: 'date' },
  { key: 'menge', label: 'Menge', kind: 'number', digits: 3 },
  { key: 'einheit', label: 'Einheit', csvOnly: true },
  { key: 'aktiv', label: 'Aktiv', kind: 'boolean' },
  { key: 'status', label: 'Status', badge: (r) => ({ label: `status.${r.status}`, variant: 'info' }) },
  { key: 'kommentar', label: 'Kommentar' },
  { key: 'mengeMitEinheit', label: 'Menge (Seite)', kind: 'number', digits: 0, suffix: (r) => r.einheit, pageOnly: true },
];
const totals: ListTotal[] = [{ key: 'summe', label: 'Summe', sql: 'menge', digits: 0 }];

const TEXTS: Record<string, string> = { 'list.yes': 'Ja', 'list.no': 'Nein', 'status.open': 'Offen', 'status.done': 'Abgeschlossen', 'stammdaten:fields.nr': 'Nummer', 'app.name': 'Portal' };
const t = (key: string, o?: Record<string, unknown>) => {
  if (key === 'pagination.page') return `Seite ${o?.page}`;
  if (key === 'list.exportCreated') return `erstellt am ${o?.date}`;
  return TEXTS[key] ?? key;
};
const ctx = (lang = 'de'): ExportContext => ({
  t, lang, fmt: formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, lang),
  settings: { dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' },
  title: 'Einlieferungen', description: 'Filter: Status: Offen', now: new Date('2026-03-01T09:30:00Z'),
});

/** Text that does not compress away (the zip would otherwise hide a backlog in its small output). */
const noise = (i: number) => Math.sin(i + 1).toString(36).slice(2, 14) + Math.cos(i * 7).toString(36).slice(2, 14);

const rows = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    nr: `E${String(i + 1).padStart(5, '0')}`, datum: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, menge: (1000.5 + i).toFixed(3), einheit: i % 2 ? 'kg' : 'L',
    aktiv: i % 3 !== 0, status: i % 2 ? 'done' : 'open', kommentar: i === 0 ? '=HYPERLINK("http://x")' : i === 1 ? null : i < 200 ? `Ladung ${i} ł ≥ 5` : `Ladung ${noise(i)}`,
    mengeMitEinheit: 1000 + i,
  })) as Row[];

/** Runs a writer into memory. */
async function run(format: ExportFormat, source: ExportSource<Row>, lang = 'de'): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (c: Buffer) => parts.push(c));
  await writeExport(format, source, ctx(lang), out);
  return Buffer.concat(parts);
}

describe('CSV writer', () => {
  it('writes a BOM, the language’s delimiter, CRLF, neutralised formulas and the sums after an empty line', async () => {
    const de = (await run('csv', rowsInMemory({ columns, totals }, rows(3), { summe: '3004.5' }))).toString('utf8');
    expect(de.startsWith('\uFEFFNummer;Datum;Menge;Einheit;Aktiv;Status;Kommentar\r\n')).toBe(true);
    expect(de).toContain(`E00001;01.01.2026;1.000,500;L;Nein;Offen;"'=HYPERLINK(""http://x"")"\r\n`);
    expect(de).toContain('E00002;02.01.2026;1.001,500;kg;Ja;Abgeschlossen;\r\n');
    expect(de.endsWith('\r\n\r\nSumme;3.005\r\n')).toBe(true);
    const en = (await run('csv', rowsInMemory({ columns, totals }, rows(2), { summe: '2002' }), 'en')).toString('utf8');
    expect(en).toContain('E00002,02.01.2026,"1,001.500",kg,Ja,Abgeschlossen,\r\n');
  });

  it('quotes a field with a line break, so a comment over two lines stays one row', async () => {
    const lines = rows(2);
    lines[1].kommentar = 'Tank 3 gespült\nProbe folgt';
    const csv = (await run('csv', rowsInMemory({ columns, totals }, lines))).toString('utf8');
    expect(csv).toContain(';"Tank 3 gespült\nProbe folgt"\r\n');
    const read = parse(csv.replace(/^\uFEFF/, ''), { delimiter: ';', relax_column_count: true }) as string[][];
    expect(read.map((r) => r[0])).toEqual(['Nummer', 'E00001', 'E00002', '', 'Summe']);
    expect(read[2][6]).toBe(lines[1].kommentar);
  });

  it('csvRecord is RFC 4180: csv-parse reads back what it wrote, byte for byte what csv-stringify writes when told to quote line breaks', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', 'ä', ';', ',', '"', '\n', '\r', "'") });
    fc.assert(
      fc.property(fc.constantFrom<CsvDelimiter>(';', ','), fc.array(fc.array(text, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (delimiter, records) => {
        const written = records.map((r) => csvRecord(r, delimiter)).join('');
        expect(written).toBe(stringify(records, { delimiter, record_delimiter: 'windows', quote_record_delimiter: true }));
        expect(parse(written, { delimiter, relax_column_count: true, record_delimiter: '\r\n' })).toEqual(records);
      }),
    );
    expect(csvRecord([], ';')).toBe('\r\n');
  });

  it('csvSafe neutralises what a spreadsheet would run', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', 'ok'].map(csvSafe)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", 'ok']);
  });
});

describe('XLSX writer', () => {
  it('holds numbers as numbers and dates as dates with formats, a bold frozen header, text as text, and the sums', async () => {
    const buf = await run('xlsx', rowsInMemory({ columns, totals }, rows(3), { summe: '3004.5' }));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(buf as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('Einlieferungen');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).values).toEqual([undefined, 'Nummer', 'Datum', 'Menge', 'Einheit', 'Aktiv', 'Status', 'Kommentar']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    const first = sheet.getRow(2);
    expect(first.getCell(2).value).toEqual(new Date(Date.UTC(2026, 0, 1)));
    expect(first.getCell(2).numFmt).toBe('dd.mm.yyyy');
    expect(first.getCell(3).value).toBe(1000.5);
    expect(first.getCell(3).numFmt).toBe('#,##0.000');
    expect(first.getCell(5).value).toBe('Nein');
    expect(first.getCell(6).value).toBe('Offen');
    // Text that looks like a formula stays text: no formula cell, nothing neutralised.
    expect(first.getCell(7).value).toBe('=HYPERLINK("http://x")');
    expect(sheet.getRow(3).getCell(7).value).toBeNull();
    expect(sheet.getRow(5).values).toEqual([]);
    expect(sheet.getRow(6).getCell(1).value).toBe('Summe');
    expect(sheet.getRow(6).getCell(2).value).toBe(3004.5);
    expect(sheet.getRow(6).getCell(2).numFmt).toBe('#,##0');
    expect(sheet.rowCount).toBe(6);
  });

  it('formats: numbers with digits and unit, the user’s date pattern, dates in the user’s time zone, legal sheet names', () => {
    expect(numberFormat(0)).toBe('#,##0');
    expect(numberFormat(2, 'kg')).toBe('#,##0.00" kg"');
    expect(dateFormat('yyyy-MM-dd', false)).toBe('yyyy-mm-dd');
    expect(dateFormat('MM/dd/yyyy', true)).toBe('mm/dd/yyyy hh:mm');
    expect(dateFormat('dd.MM.yyyy', true)).toBe('dd.mm.yyyy hh:mm');
    // 23:30 UTC on New Year's Eve is already New Year's Day in Berlin.
    expect(spreadsheetDate('2025-12-31T23:30:00Z', 'Europe/Berlin')).toEqual(new Date(Date.UTC(2026, 0, 1, 0, 30)));
    expect(spreadsheetDate('2025-12-31', 'Pacific/Auckland')).toEqual(new Date(Date.UTC(2025, 11, 31)));
    expect(spreadsheetDate('nonsense', 'Europe/Berlin')).toBeNull();
    expect(sheetName('Ein: [sehr] langer Titel / mit * Zeichen?')).toBe('Ein   sehr  langer Titel   mit');
  });

  it('sees the worksheet XML the zip has not taken yet (exceljs internals: StreamBuf `pipes`, `_writableState`)', async () => {
    const { default: Excel } = await import('exceljs');
    const client = stalledClient();
    const book = new Excel.stream.xlsx.WorkbookWriter({ stream: client.out, useStyles: true });
    const sheet = book.addWorksheet('x');
    sheet.addRow(['a']).commit();
    // The zip takes the worksheet's stream once it reaches that entry.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worksheetBacklog(sheet)).toMatchObject({ bytes: 0 });
    for (let i = 0; i < 20_000; i++) sheet.addRow([noise(i), noise(i + 1), i]).commit();
    const backlog = worksheetBacklog(sheet)!;
    expect(backlog.bytes).toBeGreaterThan(1024 * 1024);
    expect(typeof backlog.stream.on).toBe('function');
    client.letGo();
    sheet.commit();
    await book.commit();
  });
});

describe('PDF writer', () => {
  it('prints the title, the filter line, the page’s columns with the header on every page, page numbers and the sums', async () => {
    const buf = await run('pdf', rowsInMemory({ columns, totals }, rows(120), { summe: '132140' }));
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await extractPdfText(buf);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]).toContain('Einlieferungen');
    expect(pages[0]).toContain('Filter: Status: Offen');
    for (const [i, page] of pages.entries()) {
      expect(page).toContain('Nummer');
      expect(page).toContain('Menge (Seite)');
      expect(page).toContain(`Seite ${i + 1}`);
    }
    const all = pages.join('\n');
    for (const r of rows(120)) expect(all).toContain(r.nr);
    // The page's columns: the unit after the amount, not the spreadsheet's separate columns.
    expect(all).toContain('1.119 kg');
    expect(all).not.toContain('Einheit');
    // Characters the standard fonts lack are written as look-alikes.
    expect(all).toContain('Ladung 2 l >= 5');
    expect(pages.at(-1)).toMatch(/Summe\s*132\.140/);
  });

  it('says so when the list is empty', async () => {
    const pages = await extractPdfText(await run('pdf', rowsInMemory({ columns, totals: [] }, [])));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('list.noMatch');
  });

  it('fits columns into the page: natural widths when they fit, else the widest capped', () => {
    expect(fitWidths([100, 100], 400)).toEqual([200, 200]);
    expect(fitWidths([50, 60, 500], 300)).toEqual([50, 60, 190]);
    expect(fitWidths([10, 400, 400], 300, 30)).toEqual([30, 135, 135]);
    const many = fitWidths(Array.from({ length: 40 }, () => 100), 770, 30);
    expect(many.every((w) => w === 30)).toBe(true);
  });

  it('writes text the standard fonts can show', () => {
    expect(pdfText('Müller „Öl“ – 5 € · ß')).toBe('Müller „Öl“ – 5 € · ß');
    expect(pdfText('Łódź Győr Čačak ≥ 3\t→')).toBe('Lódz Gyor Cacak >= 3 ->');
    expect(pdfText('漢字')).toBe('??');
  });
});

/** A client that takes nothing until let go: counts how many chunks a writer reads meanwhile. */
function stalledClient() {
  let release: (() => void) | null = null;
  const held: (() => void)[] = [];
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(_chunk, _enc, done) {
      if (release) done();
      else held.push(done);
    },
  });
  return {
    out,
    letGo() {
      release = () => {};
      for (const done of held.splice(0)) done();
    },
  };
}

function counting(source: ExportSource<Row>) {
  let read = 0;
  return {
    get read() {
      return read;
    },
    source: {
      ...source,
      async *chunks() {
        for await (const c of source.chunks()) {
          read++;
          yield c;
        }
      },
    } as ExportSource<Row>,
  };
}

describe.each(['csv', 'xlsx', 'pdf'] as const)('%s writer and a slow client', (format) => {
  it('reads no further than the client takes, and finishes once it does', async () => {
    const c = counting(rowsInMemory({ columns, totals }, rows(6_000), { summe: '1' }, 100));
    const client = stalledClient();
    const done = writeExport(format, c.source, ctx(), client.out);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // 60 chunks in all; while nothing is taken, the writer stops after the few the buffers hold.
    expect(c.read).toBeLessThan(20);
    client.letGo();
    await done;
    expect(c.read).toBe(60);
  });

  it('stops quietly, reading nothing more, when the client goes away', async () => {
    const c = counting(rowsInMemory({ columns, totals }, rows(6_000), {}, 100));
    const client = stalledClient();
    const done = writeExport(format, c.source, ctx(), client.out);
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.out.destroy();
    await done;
    const read = c.read;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(c.read).toBe(read);
    expect(read).toBeLessThan(60);
  });
});
