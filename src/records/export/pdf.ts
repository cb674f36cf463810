// PDF: the list to print or to file, as the page shows it. A4 landscape; for a report a title page first
// (ExportContext.titelseite); the title, and under it the filter, search and order in words; the table with
// its header repeated on each page; the sums at the end, then a report's explanations; the page number and
// the time of the export at the foot of each page. Written with pdfkit in the PDF standard fonts (Helvetica,
// built into every PDF reader: nothing to embed or download), as text a reader can search and copy. Each
// page goes out when the next begins, so a long list never sits in memory.
import type { Readable } from 'node:stream';
import { cellText } from '../list/engine.js';
import type { ExportSource } from './rows.js';
import type { Sink } from './sink.js';
import type { ExportContext, ExportWriter } from './writer.js';

type PDFKit = typeof import('pdfkit');
let loading: Promise<PDFKit> | null = null;
/** Loaded on the first PDF: pdfkit and its font machinery are memory a server that never prints need not hold. */
const pdfkit = () => (loading ??= import('pdfkit').then((m) => (m as unknown as { default: PDFKit }).default ?? m));

// Points (1/72 inch). A4 landscape is 841.89 × 595.28.
const MARGIN = 36;
const FOOTER_GAP = 14;
const TITLE_SIZE = 14;
const TEXT_SIZE = 9;
const TABLE_SIZE = 8;
const FOOTER_SIZE = 7.5;
const PAD_X = 3;
const PAD_Y = 2.5;
const MIN_COLUMN = 30;
const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const HEADER_FILL = '#e1e7e4';
const STRIPE_FILL = '#f3f5f4';
const RULE = '#75827b';
const MUTED = '#4f5d56';
/** Bytes the document may hold before the writer waits for the client (about a page or two). */
const HOLD = 256 * 1024;

// The standard fonts know the Windows-1252 (WinAnsi) characters: Latin-1 and these. Anything else would print
// as the wrong glyph, so it is written as its base letter where it has one (ő → o), else as a look-alike or "?".
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const LOOK_ALIKE: Record<string, string> = {
  ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ı: 'i', '≥': '>=', '≤': '<=', '≠': '!=', '→': '->', '←': '<-', '−': '-', '‑': '-', '‐': '-', '\u202f': ' ', '\u2009': ' ', '\u2007': ' ',
};

/** Text the standard fonts can show (see above); whitespace that is not a space or line break as a space. */
export function pdfText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || ch === '\n' || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (LOOK_ALIKE[ch] !== undefined) out += LOOK_ALIKE[ch];
    else if (code < 0x20 || code === 0x7f) out += ' ';
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base && base !== ch && [...base].every((b) => b.charCodeAt(0) <= 0xff) ? base : '?';
    }
  }
  return out;
}

/**
 * Fits columns of natural widths into the width available: all of them at their natural width when they
 * fit, spread wider in proportion; otherwise the widest capped at one width (their text wraps) so that the
 * narrow ones keep theirs; never narrower than `min`.
 */
export function fitWidths(natural: number[], available: number, min = MIN_COLUMN): number[] {
  const wants = natural.map((w) => Math.max(w, min));
  const total = wants.reduce((a, b) => a + b, 0);
  if (total <= available) return wants.map((w) => (w * available) / total);
  // The cap c with sum(min(want, c)) = available, found from the narrowest up.
  const sorted = [...wants].sort((a, b) => a - b);
  let left = available;
  let cap = min;
  for (let i = 0; i < sorted.length; i++) {
    const share = left / (sorted.length - i);
    if (sorted[i] > share) {
      cap = Math.max(share, min);
      break;
    }
    left -= sorted[i];
    cap = sorted[i];
  }
  return wants.map((w) => Math.min(w, cap));
}

type Doc = InstanceType<PDFKit>;

/**
 * Draws the list into the document, page by page, and ends it; reads the rows only once the document's first
 * bytes are out (`firstBytes`). False when the client went away.
 */
async function draw<R>(doc: Doc, source: ExportSource<R>, ctx: ExportContext, sink: Sink, firstBytes: Promise<void>): Promise<boolean> {
  const columns = source.pageColumns;
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = doc.page.height - MARGIN;
  const created = ctx.fmt.dateTime(ctx.now);
  let pageNo = 1;

  const footer = () => {
    doc.font(REGULAR).fontSize(FOOTER_SIZE).fillColor(MUTED);
    const y = bottom + FOOTER_GAP;
    doc.text(pdfText(`${ctx.title} · ${ctx.t('list.exportCreated', { date: created })}`), left, y, { lineBreak: false });
    const page = pdfText(ctx.t('pagination.page', { page: pageNo }));
    doc.text(page, left + width - doc.widthOfString(page), y, { lineBreak: false });
    doc.fillColor('black');
  };
  const newPage = () => {
    footer();
    doc.addPage();
    pageNo++;
    return MARGIN;
  };

  // A report's title page: the title, then label and value per line (tenant, period, parameters, made when
  // and by whom); the table starts on the next page. Lists have none.
  if (ctx.titelseite) {
    doc.font(BOLD).fontSize(TITLE_SIZE * 1.5).text(pdfText(ctx.title), left, MARGIN + 60, { width });
    let ty = doc.y + 24;
    doc.font(BOLD).fontSize(TEXT_SIZE + 2);
    const labels = ctx.titelseite.zeilen.map(([label]) => pdfText(label));
    const labelWidth = Math.min(width / 3, Math.max(0, ...labels.map((l) => doc.widthOfString(l))) + 16);
    ctx.titelseite.zeilen.forEach(([, value], i) => {
      doc.font(BOLD).fontSize(TEXT_SIZE + 2).text(labels[i], left, ty, { width: labelWidth - 8 });
      const labelBottom = doc.y;
      doc.font(REGULAR).text(pdfText(value), left + labelWidth, ty, { width: width - labelWidth });
      ty = Math.max(doc.y, labelBottom) + 6;
    });
    newPage();
  }

  // Title and the filter in words: out at once, so the download starts while the rows are read.
  doc.font(BOLD).fontSize(TITLE_SIZE).text(pdfText(ctx.title), left, MARGIN, { width });
  doc.font(REGULAR).fontSize(TEXT_SIZE).fillColor(MUTED).text(pdfText(ctx.description), left, doc.y + 2, { width });
  doc.fillColor('black');
  let y = doc.y + 10;
  await firstBytes;
  sink.flush();

  const header = columns.map((c) => pdfText(ctx.t(c.label)));
  const numeric = columns.map((c) => c.kind === 'number');
  let widths: number[] = [];
  let lineHeight = 0;

  /** Height of a cell's text in its column: one line unless it is wider than the column. */
  const textHeight = (text: string, i: number) => {
    const inner = widths[i] - 2 * PAD_X;
    return !text || doc.widthOfString(text) <= inner ? lineHeight : doc.heightOfString(text, { width: inner });
  };
  const drawRow = (texts: string[], top: number) => {
    let x = left;
    texts.forEach((text, i) => {
      const inner = widths[i] - 2 * PAD_X;
      const w = doc.widthOfString(text);
      if (w <= inner) doc.text(text, numeric[i] ? x + widths[i] - PAD_X - w : x + PAD_X, top + PAD_Y, { lineBreak: false });
      else doc.text(text, x + PAD_X, top + PAD_Y, { width: inner, align: numeric[i] ? 'right' : 'left' });
      x += widths[i];
    });
  };
  const drawHeader = (top: number) => {
    doc.font(BOLD).fontSize(TABLE_SIZE);
    const height = Math.max(...header.map(textHeight)) + 2 * PAD_Y;
    doc.rect(left, top, width, height).fill(HEADER_FILL);
    doc.fillColor('black');
    drawRow(header, top);
    doc.moveTo(left, top + height).lineTo(left + width, top + height).lineWidth(0.75).strokeColor(RULE).stroke();
    doc.font(REGULAR).fontSize(TABLE_SIZE);
    return top + height;
  };
  const start = (first: string[][]) => {
    doc.font(BOLD).fontSize(TABLE_SIZE);
    const natural = header.map((h) => doc.widthOfString(h) + 2 * PAD_X);
    doc.font(REGULAR).fontSize(TABLE_SIZE);
    for (const texts of first) texts.forEach((t, i) => (natural[i] = Math.max(natural[i], doc.widthOfString(t) + 2 * PAD_X)));
    widths = fitWidths(natural, width);
    lineHeight = doc.currentLineHeight(true);
    y = drawHeader(y);
  };

  let stripe = false;
  let started = false;
  let any = false;
  for await (const rows of source.chunks()) {
    if (sink.gone) return false;
    const texts = rows.map((row) => columns.map((c) => pdfText(cellText(c, row, ctx.fmt, ctx.t))));
    if (!started) {
      start(texts);
      started = true;
    }
    for (const row of texts) {
      any = true;
      const height = Math.max(...row.map(textHeight)) + 2 * PAD_Y;
      if (y + height > bottom) y = drawHeader(newPage());
      if (stripe) {
        doc.rect(left, y, width, height).fill(STRIPE_FILL);
        doc.fillColor('black');
      }
      stripe = !stripe;
      drawRow(row, y);
      y += height;
    }
    // Wait while the client is slower than the document grows.
    if (!(await sink.until(() => (doc as unknown as Readable).readableLength < HOLD && !sink.out.writableNeedDrain))) return false;
  }
  if (!started) start([]);
  if (!any) {
    doc.font(REGULAR).fontSize(TEXT_SIZE).fillColor(MUTED).text(pdfText(ctx.t('list.noMatch')), left + PAD_X, y + 6, { lineBreak: false });
    doc.fillColor('black');
    y += 6 + doc.currentLineHeight(true);
  }

  // The sums under the table: labels on the left, values aligned on the right of a narrow block.
  if (source.totals.length) {
    const sums = await source.sums();
    const lines = source.totals.map((x) => [pdfText(ctx.t(x.label)), sums[x.key] == null ? '' : pdfText(ctx.fmt.number(sums[x.key]!, x.digits ?? 0))]);
    doc.font(BOLD).fontSize(TABLE_SIZE);
    const labelWidth = Math.max(...lines.map(([label]) => doc.widthOfString(label)));
    const valueWidth = Math.max(80, ...lines.map(([, value]) => doc.widthOfString(value)));
    const step = doc.currentLineHeight(true) + 2 * PAD_Y;
    y += 10;
    if (y + step * lines.length > bottom) y = newPage();
    doc.moveTo(left, y).lineTo(left + labelWidth + valueWidth + 4 * PAD_X + 12, y).lineWidth(0.75).strokeColor(RULE).stroke();
    for (const [label, value] of lines) {
      doc.font(BOLD).text(label, left + PAD_X, y + PAD_Y, { lineBreak: false });
      doc.font(REGULAR);
      doc.text(value, left + labelWidth + 2 * PAD_X + 12 + valueWidth - doc.widthOfString(value), y + PAD_Y, { lineBreak: false });
      y += step;
    }
  }
  // A report's explanations under the sums, wrapped to the width, on a new page where they do not fit.
  if (ctx.notes?.length) {
    doc.font(REGULAR).fontSize(TEXT_SIZE).fillColor('black');
    y += 10;
    for (const note of ctx.notes) {
      const text = pdfText(note);
      const height = doc.heightOfString(text, { width });
      if (y + height > bottom) y = newPage();
      doc.text(text, left, y, { width });
      y = doc.y + 3;
    }
  }
  footer();
  doc.end();
  return true;
}

export const pdfWriter: ExportWriter = {
  contentType: 'application/pdf',
  extension: 'pdf',
  // As for the XLSX: 500 rows in flight raised the server's peak by 190 MB on 100,000 rows, 100 by 50 MB.
  chunkSize: 100,
  async write(source, ctx, sink) {
    const PDFDocument = await pdfkit();
    const doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
      bufferPages: false,
      lang: ctx.lang === 'en' ? 'en-GB' : 'de-DE',
      displayTitle: true,
      info: { Title: pdfText(ctx.title), Subject: pdfText(ctx.description), Creator: pdfText(ctx.t('app.name')), CreationDate: ctx.now },
    });
    const ended = new Promise<void>((resolve) => doc.once('end', resolve));
    const started = sink.firstBytesOf(doc);
    doc.pipe(sink.out);
    try {
      if (!(await draw(doc, source, ctx, sink, started))) return;
    } catch (err) {
      // Nothing more of the document may follow the error handler's answer (or its cut).
      doc.unpipe(sink.out);
      throw err;
    }
    // pdfkit ends the response through its pipe; a client that leaves meanwhile ends the wait.
    await Promise.race([ended, new Promise<void>((resolve) => sink.out.once('close', resolve))]);
    await sink.end(true);
  },
};
