// An XLSX's parts put in the order exceljs' streaming reader needs (src/import/zip-order.ts): the same workbook,
// a valid zip, the workbook part and shared strings before the worksheet; anything else left as it came.
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { readRows } from './file.js';
import { zipInReadingOrder } from './zip-order.js';

/** The names of the zip's local records, in the order they are stored (what a streaming reader meets). */
function storedOrder(zip: Buffer): string[] {
  const names: string[] = [];
  for (let at = zip.indexOf(Buffer.from('PK\x03\x04', 'latin1')); at >= 0; at = zip.indexOf(Buffer.from('PK\x03\x04', 'latin1'), at + 4)) {
    names.push(zip.toString('utf8', at + 30, at + 30 + zip.readUInt16LE(at + 26)));
  }
  return names;
}

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Zertifikate');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * exceljs' streaming writer, whose entries carry data descriptors after their data; with inline strings (no shared
 * strings part) as the portal's own XLSX exports are written (src/records/export/xlsx.ts), which users upload again.
 */
async function streamedWorkbook(rows: unknown[][], useSharedStrings: boolean): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings });
  const sheet = book.addWorksheet('Export');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await book.commit();
  return Buffer.concat(chunks);
}

/** exceljs' streaming reader on the zip as stored, without zipInReadingOrder. */
async function readWithTheReader(zip: Buffer): Promise<void> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([zip]), { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', entries: 'emit' });
  for await (const sheet of reader) for await (const row of sheet) void row;
}

const cellsOf = async (zip: Buffer) => {
  const rows: string[][] = [];
  for await (const r of readRows(zip)) rows.push(r.cells);
  return rows;
};

describe('zipInReadingOrder', () => {
  it('stores the workbook part, its relationships, the shared strings and the styles before the worksheet', async () => {
    const original = await workbook([['Nummer', 'Rohstoff'], ['N-1', 'Altspeiseöl']]);
    // exceljs stores the worksheet first and the workbook part last: the order that made the reader fail now and then.
    expect(storedOrder(original).indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(storedOrder(original).indexOf('xl/workbook.xml'));
    const reordered = Buffer.concat(zipInReadingOrder(original));
    const order = storedOrder(reordered);
    expect(order.slice(0, 5)).toEqual(['_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml']);
    expect(order.indexOf('xl/worksheets/sheet1.xml')).toBeGreaterThan(4);
    expect([...order].sort()).toEqual([...storedOrder(original)].sort());
    expect(reordered.length).toBe(original.length);
    // Still a valid zip by its central directory: exceljs' whole-file reader (JSZip) finds every part at its new place.
    const loaded = new ExcelJS.Workbook();
    await loaded.xlsx.load(reordered as unknown as ExcelJS.Buffer);
    expect(loaded.getWorksheet('Zertifikate')!.getRow(2).values).toEqual([undefined, 'N-1', 'Altspeiseöl']);
  });

  it('lets the reader take the worksheet as it comes, where the upload as stored sent it to a temporary file', async () => {
    // The temporary files of exceljs' streaming reader: the `tmp` package as exceljs itself loads it.
    const tmp = createRequire(createRequire(import.meta.url).resolve('exceljs'))('tmp') as { file: (...args: unknown[]) => void };
    const setAside = vi.spyOn(tmp, 'file');
    try {
      const original = await workbook([['Nummer', 'Rohstoff'], ['N-1', 'Altspeiseöl']]);
      // The read may itself fail with the race this module removes; the worksheet was set aside before that point.
      await readWithTheReader(original).catch(() => undefined);
      expect(setAside).toHaveBeenCalledTimes(1);
      setAside.mockClear();
      expect(await cellsOf(original)).toEqual([['Nummer', 'Rohstoff'], ['N-1', 'Altspeiseöl']]);
      expect(setAside).not.toHaveBeenCalled();
    } finally {
      setAside.mockRestore();
    }
  });

  it('reads the same rows as the upload holds, for any cells, from each of exceljs\' ways of writing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s !== ''), fc.integer({ min: -1e6, max: 1e6 })), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('whole', 'streamed', 'streamed with inline strings'),
        async (rows, writer) => {
          const zip = writer === 'whole' ? await workbook(rows) : await streamedWorkbook(rows, writer === 'streamed');
          const expected = rows.map((r) => r.map(String));
          expect(await cellsOf(zip)).toEqual(expected);
          // Each writer stores a worksheet before the workbook part: its zip is rearranged, not passed on as it came,
          // and every byte of it is used once.
          const parts = zipInReadingOrder(zip);
          expect(parts.length).toBeGreaterThan(1);
          expect(parts.reduce((n, p) => n + p.length, 0)).toBe(zip.length);
          expect(await cellsOf(Buffer.concat(parts))).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('leaves a zip in reading order already, and anything it does not understand, as it came', async () => {
    const inOrder = Buffer.concat(zipInReadingOrder(await workbook([['a']])));
    const again = zipInReadingOrder(inOrder);
    expect(again).toHaveLength(1);
    expect(again[0]).toBe(inOrder);
    // An encrypted entry (flag bit 0 in its central record): its sizes cannot be trusted to mean what they say.
    const original = await workbook([['a']]);
    const encrypted = Buffer.from(original);
    const central = encrypted.indexOf(Buffer.from('PK\x01\x02', 'latin1'));
    encrypted.writeUInt16LE(encrypted.readUInt16LE(central + 8) | 1, central + 8);
    // A damaged size that leaves a byte of the first record unclaimed, and a second entry pointing at the first's
    // record: rearranged, the zip would lose or repeat bytes.
    const gap = Buffer.from(original);
    gap.writeUInt32LE(gap.readUInt32LE(central + 20) - 1, central + 20);
    const overlap = Buffer.from(original);
    const secondCentral = overlap.indexOf(Buffer.from('PK\x01\x02', 'latin1'), central + 4);
    overlap.writeUInt32LE(overlap.readUInt32LE(central + 42), secondCentral + 42);
    for (const other of [Buffer.from('Nummer;Menge\r\nN-1;5\r\n'), Buffer.alloc(0), inOrder.subarray(0, inOrder.length - 30), encrypted, gap, overlap]) {
      const parts = zipInReadingOrder(other);
      expect(parts).toHaveLength(1);
      expect(parts[0]).toBe(other);
    }
  });

  it('never throws on a damaged upload: any bytes changed or cut off give pieces or the upload as it came', async () => {
    const original = await workbook([['Nummer', 'Menge'], ['N-1', 5]]);
    // Most changes fall on the central directory and the end record at the zip's end, which the reordering reads.
    const where = fc.oneof(fc.nat(original.length - 1), fc.integer({ min: original.length - 800, max: original.length - 1 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(where, fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat(original.length), (changes, cut) => {
        const damaged = Buffer.from(original.subarray(0, Math.max(cut, original.length - 200)));
        for (const [at, value] of changes) if (at < damaged.length) damaged[at] = value;
        const parts = zipInReadingOrder(damaged);
        expect(parts.reduce((n, p) => n + p.length, 0)).toBe(damaged.length);
      }),
      { numRuns: 500 },
    );
  });
});
