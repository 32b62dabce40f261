import { parseAttestation, type DocumentText } from '../domain/isee-attestation.ts';
import type { IseeExtraction } from '../domain/isee-extraction.ts';

/** What the state machine hands the ReadAttestation step. */
export interface ReadInput {
  iseeId: string;
  bucket: string;
  key: string;
  contentType: string;
  /** The finished Textract job of a PDF; null for an image. */
  job: { jobId: string } | null;
}

/**
 * The ReadAttestation step, whatever reads the text (Textract in the cloud, the local text sources on
 * this machine): text → the one parser. Small enough to travel in the state (a few hundred bytes).
 */
export const readAttestation =
  (readText: (input: ReadInput) => Promise<DocumentText>) =>
  async (input: ReadInput): Promise<IseeExtraction> => {
    const text = await readText(input);
    return parseAttestation(text.lines, text.source, text.quality);
  };
