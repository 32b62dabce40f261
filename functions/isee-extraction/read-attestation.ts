import { parseAttestation, type DocumentText } from '../domain/isee-attestation.ts';
import type { IseeExtraction } from '../domain/isee-extraction.ts';

/** What the state machine hands the ReadAttestation step. */
export interface ReadInput {
  iseeId: string;
  bucket: string;
  key: string;
  contentType: string;
}

/**
 * A document with no text anywhere (a blank page, a photo of the table): a failed reading, which the
 * state machine records as FAILED with this reason, never an empty success.
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
 * hundred bytes).
 */
export const readAttestation =
  (readText: (input: ReadInput) => Promise<DocumentText>) =>
  async (input: ReadInput): Promise<IseeExtraction> => {
    const text = await readText(input);
    if (!text.lines.some((line) => (typeof line === 'string' ? line : line.text).trim())) throw new NoReadableTextError();
    return parseAttestation(text.lines, text.source, text.quality);
  };
