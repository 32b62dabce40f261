import { pageLines, type PlacedText } from '../domain/text-layout.ts';
import type { TextLine } from '../domain/text-line.ts';
import { OPS, getDocument } from './pdfjs.ts';

/** An attestation has a few pages: a longer upload is read up to here (each scanned page costs an OCR call). */
export const MAX_PAGES = 8;

type PdfDocument = Awaited<ReturnType<typeof getDocument>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/** A page with its own text (read exactly), or a page that is only a picture (a scan: it needs OCR). */
export type PdfPageText = { number: number; lines: TextLine[] } | { number: number; scanned: PdfPage };

interface TextItem {
  str: string;
  transform: number[];
  width: number;
}

/**
 * The PDF's own text layer, page by page, in printed rows (text-layout.ts), up to MAX_PAGES; a page with
 * no text but an image is handed back as scanned. `use` runs while the document is open; it is closed after.
 */
export async function withPdfPages<T>(
  bytes: Uint8Array,
  use: (pages: PdfPageText[], document: PdfDocument) => Promise<T>,
): Promise<T> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: PdfPageText[] = [];
    for (let number = 1; number <= Math.min(pdf.numPages, MAX_PAGES); number++) {
      const page = await pdf.getPage(number);
      const runs = placedItems(page, (await page.getTextContent()).items as TextItem[]);
      if (runs.length === 0 && (await hasImages(page))) pages.push({ number, scanned: page });
      else pages.push({ number, lines: pageLines(runs) });
    }
    return await use(pages, pdf);
  } finally {
    await pdf.destroy();
  }
}

/** One page of the document as a PDF of its own (the synchronous DetectDocumentText reads one page). */
export const singlePagePdf = (pdf: PdfDocument, number: number): Promise<Uint8Array> =>
  pdf.extractPages([{ document: null, includePages: [number - 1] }]);

/** The text items as runs placed on the page (fractions of the page, as Textract gives them), exact: confidence 1. */
export function placedItems(page: PdfPage, items: TextItem[]): PlacedText[] {
  const viewport = page.getViewport({ scale: 1 });
  const at = (x: number, y: number) => {
    const [vx, vy] = viewport.convertToViewportPoint(x, y);
    return { X: vx / viewport.width, Y: vy / viewport.height };
  };
  return items
    .filter((item) => item.str?.trim())
    .map((item) => {
      const [a, b, c, d, x, y] = item.transform;
      const size = Math.hypot(c, d) || Math.hypot(a, b) || 1;
      const along = Math.hypot(a, b) || 1;
      // Along the text and up from its baseline, in PDF units (y upwards).
      const [dx, dy] = [a / along, b / along];
      const [ux, uy] = [-dy, dx];
      const [ascent, descent] = [size * 0.8, size * 0.2];
      const end = { x: x + dx * item.width, y: y + dy * item.width };
      return {
        text: item.str.trim(),
        confidence: 1,
        polygon: [
          at(x + ux * ascent, y + uy * ascent),
          at(end.x + ux * ascent, end.y + uy * ascent),
          at(end.x - ux * descent, end.y - uy * descent),
          at(x - ux * descent, y - uy * descent),
        ],
      } satisfies PlacedText;
    });
}

async function hasImages(page: PdfPage): Promise<boolean> {
  const { fnArray } = await page.getOperatorList();
  return fnArray.some(
    (op) => op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject || op === OPS.paintImageXObjectRepeat,
  );
}
