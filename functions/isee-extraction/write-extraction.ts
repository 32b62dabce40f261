import type { IseeExtraction } from '../domain/isee-extraction.ts';
import { noMetrics, type BusinessMetrics } from '../adapters/ports/metrics.ts';
import { updateExtraction } from './extraction-store.ts';

/**
 * No ISEE item (yet): the upload's file lands in S3 a moment before the API records the ISEE, so the
 * state machine retries this for ~30 s before concluding the ISEE was deleted and writing nothing.
 */
export class IseeNotFoundError extends Error {
  override name = 'IseeNotFound';
}

export type WriteInput =
  | { iseeId: string; status: 'DONE'; extraction: IseeExtraction }
  | { iseeId: string; status: 'FAILED'; error?: { Error?: string; Cause?: string } };

/** The SaveExtraction and MarkFailed steps: the result, or a short reason (never the document's content); a failure counts IseeReadFailed. */
export async function writeExtraction(
  input: WriteInput,
  metrics: BusinessMetrics = noMetrics,
): Promise<{ written: true }> {
  const values =
    input.status === 'DONE' ? { extraction: input.extraction } : { extractionFailure: failureReason(input.error) };
  if (!(await updateExtraction(input.iseeId, input.status, values)))
    throw new IseeNotFoundError(`ISEE ${input.iseeId} non trovato`);
  if (input.status === 'FAILED') metrics.count('IseeReadFailed', 1);
  return { written: true };
}

function failureReason(error: { Error?: string; Cause?: string } = {}): string {
  // A Lambda's Cause is its error as JSON: keep the message.
  let cause = error.Cause ?? '';
  try {
    cause = JSON.parse(cause).errorMessage ?? cause;
  } catch {
    // not JSON: keep it as it is
  }
  return [error.Error ?? 'Errore', cause].filter(Boolean).join(': ').replace(/\s+/g, ' ').slice(0, 200);
}
