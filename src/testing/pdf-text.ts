// The text of a PDF as a reader extracts it (Mozilla's pdf.js, what Firefox shows PDFs with), one string per
// page: tests of the PDF export read what a user could search and copy, not pdfkit's drawing operations.
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// The standard fonts' metrics that pdf.js reads for Helvetica & co. (shipped with the package, no download).
const STANDARD_FONTS = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export async function extractPdfText(pdf: Buffer | Uint8Array): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''));
  }
  await doc.destroy();
  return pages;
}
