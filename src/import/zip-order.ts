// The parts of an uploaded XLSX put in the order exceljs' streaming reader needs them, before it reads them.
//
// The streaming reader (src/import/file.ts) reads the zip's entries in the order they are stored. A worksheet
// stored before the shared strings is set aside in a temporary file and read at the end, and there it looks up
// its name in the workbook part (`xl/workbook.xml`). Spreadsheets written by exceljs, and so the portal's own
// import templates, store the worksheet first and the workbook part last, and on Node 18 and later the reader's
// single streaming pass does not reliably hand over that last part before it reads the set-aside worksheet:
// the read then fails now and then with "Cannot read properties of undefined (reading 'sheets')", which the user
// saw as "file unreadable" (exceljs issue 3064; one of our CI runs hit it).
//
// The upload is in memory anyway, so its entries are rearranged here, as pieces of the upload (nothing copied or
// decompressed but the small central directory): the relationships, the workbook part, the shared strings and the
// styles first, then everything else in its own order, with the central directory rewritten to the new offsets.
// The reader then finds what a worksheet needs before the worksheet and reads it as it comes, without a temporary
// file. A zip this does not understand (ZIP64, encrypted, damaged, with records that leave gaps or overlap) is
// returned as it is, and the reader judges it as before.

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const DESCRIPTOR = 0x08074b50;

/** What the streaming reader must have read before any worksheet, in this order. */
const FIRST = ['_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml'];

interface Entry {
  name: string;
  /** The entry's local record (header, name, extra field, data and data descriptor) in the upload. */
  start: number;
  end: number;
  /** Its central directory record in the upload. */
  centralStart: number;
  centralEnd: number;
}

function endRecord(zip: Buffer): number {
  // The end record is 22 bytes plus a comment of up to 65,535.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) if (zip.readUInt32LE(at) === END) return at;
  return -1;
}

function entriesOf(zip: Buffer): { entries: Entry[]; end: number } | null {
  const end = endRecord(zip);
  if (end < 0) return null;
  const count = zip.readUInt16LE(end + 10);
  const centralOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || centralOffset === 0xffffffff || zip.readUInt16LE(end + 4) !== 0) return null; // ZIP64 or split
  const entries: Entry[] = [];
  let at = centralOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL) return null;
    const flags = zip.readUInt16LE(at + 8);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const centralEnd = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const start = zip.readUInt32LE(at + 42);
    if (flags & 1 || compressed === 0xffffffff || centralEnd > end || start + 30 > centralOffset || zip.readUInt32LE(start) !== LOCAL) return null;
    let recordEnd = start + 30 + zip.readUInt16LE(start + 26) + zip.readUInt16LE(start + 28) + compressed;
    if (flags & 8) recordEnd += recordEnd + 4 <= centralOffset && zip.readUInt32LE(recordEnd) === DESCRIPTOR ? 16 : 12;
    if (recordEnd > centralOffset) return null;
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), start, end: recordEnd, centralStart: at, centralEnd });
    at = centralEnd;
  }
  // The records must fill the upload exactly, each once: local records from its start to the central directory,
  // central records from there to the end record. A damaged length or offset that leaves a gap or an overlap would
  // otherwise lose or repeat bytes in the rearranged zip.
  if (at !== end) return null;
  const byStart = [...entries].sort((a, b) => a.start - b.start);
  if (byStart.some((e, i) => e.start !== (i === 0 ? 0 : byStart[i - 1].end)) || (byStart.at(-1)?.end ?? 0) !== centralOffset) return null;
  return { entries, end };
}

/**
 * The zip's bytes with the parts a worksheet needs stored first, as pieces of the upload to be read one after the
 * other; the zip itself when it is in that order already or not understood.
 */
export function zipInReadingOrder(zip: Buffer): Buffer[] {
  const read = entriesOf(zip);
  if (!read) return [zip];
  const rank = (e: Entry) => (FIRST.includes(e.name) ? FIRST.indexOf(e.name) : FIRST.length);
  const ordered = read.entries.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i).map(({ e }) => e);
  if (ordered.every((e, i) => e === read.entries[i])) return [zip];

  const parts: Buffer[] = [];
  const offsets = new Map<Entry, number>();
  let length = 0;
  for (const e of ordered) {
    offsets.set(e, length);
    parts.push(zip.subarray(e.start, e.end));
    length += e.end - e.start;
  }
  const centralOffset = length;
  for (const e of ordered) {
    const central = Buffer.from(zip.subarray(e.centralStart, e.centralEnd));
    central.writeUInt32LE(offsets.get(e)!, 42);
    parts.push(central);
    length += central.length;
  }
  const endRecordCopy = Buffer.from(zip.subarray(read.end));
  endRecordCopy.writeUInt32LE(length - centralOffset, 12);
  endRecordCopy.writeUInt32LE(centralOffset, 16);
  parts.push(endRecordCopy);
  return parts;
}
