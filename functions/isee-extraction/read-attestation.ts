import { hasReadableText, parseAttestation, type DocumentText } from '../domain/isee-attestation.ts';
import type { IseeExtraction } from '../domain/isee-extraction.ts';
import { noMetrics, type BusinessMetrics } from '../adapters/ports/metrics.ts';

/** What the state machine hands the ReadAttestation step. */
export interface ReadInput {
  iseeId: string;
  bucket: string;
  key: string;
  contentType: string;
}

/**
 * A document with no text anywhere (a blank page, a photo of the table, a page where OCR found only specks of
 * dust): a failed reading, which the state machine records as FAILED with this reason, never an empty success.
 */
export class NoReadableTextError extends Error {
  override name = 'NoReadableText';
  constructor() {
    super('Nessun testo leggibile nel documento');
  }
}

/**
 * The ReadAttestation step, whatever reads the text (the PDF's text layer and Textract in the cloud, the
 * local text sources on this machine): text → the one parser. Small enough to travel in the state (a few
 * hundred bytes). Counts IseeRead by source (a PDF or an image), and IseeReadWithWarning when the attestation
 * reports omissions or discrepancies, its ISEE is not ISE / scala, or it carries a warning (the operator must look closer).
 */
export const readAttestation =
  (readText: (input: ReadInput) => Promise<DocumentText>, metrics: BusinessMetrics = noMetrics) =>
  async (input: ReadInput): Promise<IseeExtraction> => {
    const text = await readText(input);
    if (!hasReadableText(text.lines)) throw new NoReadableTextError();
    const extraction = parseAttestation(text.lines, text.source, text.quality);
    const source = input.contentType === 'application/pdf' ? 'pdf' : 'image';
    metrics.count('IseeRead', 1, { source });
    if (extraction.omissionsNotice !== null || extraction.coherent === false || extraction.warnings?.length)
      metrics.count('IseeReadWithWarning', 1, { source });
    return extraction;
  };
