import type { TextractClient } from '@aws-sdk/client-textract';
import { fileTypeOf } from '../domain/file-signature.ts';
import type { DocumentText } from '../domain/isee-attestation.ts';
import { meanConfidence } from '../domain/text-layout.ts';
import type { TextLine } from '../domain/text-line.ts';
import { detectText, textFromTextract, type TextractAnswer } from './textract-text.ts';

/**
 * Textract's answers that concern one page only (its picture is damaged, of a kind or size Textract
 * refuses): the other pages are still read. Anything else (throttling, a service fault, no permission)
 * fails the reading, and the state machine retries or marks it FAILED.
 */
const PAGE_ERRORS = new Set([
  'BadDocumentException',
  'UnsupportedDocumentException',
  'DocumentTooLargeException',
  'InvalidParameterException',
]);

/**
 * How the cloud reads an attestation, keeping every copy of it in the stack's region: a digital PDF from
 * its own text layer (pdfjs-dist: exact and free, as locally); an image, and each page of a PDF that is
 * only a scan, sent to the synchronous DetectDocumentText with the bytes in the request (Textract in the
 * region of TEXTRACT_REGION, which stores nothing: no bucket outside the stack's region is needed, as the
 * asynchronous API would). pdfjs is loaded only when a PDF comes.
 */
export function createCloudTextSource(textract: TextractClient) {
  return {
    async read(bytes: Uint8Array): Promise<DocumentText> {
      const type = fileTypeOf(bytes);
      if (type === 'image/jpeg' || type === 'image/png') return textFromTextract([await detectText(textract, bytes)]);
      if (type !== 'application/pdf') throw new Error('Formato del documento non riconosciuto');

      const { withPdfPages, singlePagePdf } = await import('./pdf-pages.ts');
      return withPdfPages(bytes, async (pages, pdf) => {
        if (!pages.some((p) => 'scanned' in p))
          return { lines: pages.flatMap((p) => ('lines' in p ? p.lines : [])), source: 'pdf-text', quality: 1 };
        const lines: TextLine[] = [];
        const refused: Error[] = [];
        // Scanned pages in a row are read together: a block a page break cut is read as one.
        let scanned: TextractAnswer[] = [];
        const flush = () => {
          if (scanned.length) lines.push(...textFromTextract(scanned).lines);
          scanned = [];
        };
        // One page at a time: Textract's synchronous calls have a per-second quota.
        for (const page of pages) {
          if ('lines' in page) {
            flush();
            lines.push(...page.lines);
            continue;
          }
          try {
            scanned.push(await detectText(textract, await singlePagePdf(pdf, page.number)));
          } catch (error) {
            if (!(error instanceof Error) || !PAGE_ERRORS.has(error.name)) throw error;
            refused.push(error);
          }
        }
        flush();
        // Not one page could be read: the reading fails with Textract's own reason.
        if (lines.length === 0 && refused.length > 0) throw refused[0];
        return { lines, source: 'textract', quality: meanConfidence(lines) };
      });
    },
  };
}
