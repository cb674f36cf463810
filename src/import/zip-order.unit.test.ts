// An XLSX's parts put in the order exceljs' streaming reader needs (src/import/zip-order.ts): the same workbook,
// a valid zip, the workbook part and shared strings before the worksheet; anything else left as it came.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

/** exceljs' streaming writer (the portal's XLSX exports): its entries carry data descriptors after their data. */
async function streamedWorkbook(rows: unknown[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const sheet = book.addWorksheet('Export');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await book.commit();
  return Buffer.concat(chunks);
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

  it('reads the same rows as the upload holds, for any cells, from either of exceljs\' writers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s !== ''), fc.integer({ min: -1e6, max: 1e6 })), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (rows, streamed) => {
          const zip = streamed ? await streamedWorkbook(rows) : await workbook(rows);
          const expected = rows.map((r) => r.map(String));
          expect(await cellsOf(zip)).toEqual(expected);
          expect(await cellsOf(Buffer.concat(zipInReadingOrder(zip)))).toEqual(expected);
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
    for (const other of [Buffer.from('Nummer;Menge\r\nN-1;5\r\n'), Buffer.alloc(0), inOrder.subarray(0, inOrder.length - 30)]) {
      const parts = zipInReadingOrder(other);
      expect(parts).toHaveLength(1);
      expect(parts[0]).toBe(other);
    }
  });
});
