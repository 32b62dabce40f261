import * as z from 'zod/mini';

// The ISEE document's rules, without zod (isee-rules.ts), for the importers of this module.
export { extractionStatuses, type ExtractionStatus, iseeDocumentKey, iseeIdFromKey } from './isee-rules.ts';

/**
 * What the portal reads from an INPS ISEE attestation (reference.md), whichever text source produced the
 * lines (the PDF's text layer, OCR, or Textract). Amounts in euro, dates ISO yyyy-mm-dd.
 */
export const iseeExtractionSchema = z.object({
  protocollo: z.nullable(z.string()),
  iseeOrdinario: z.nullable(z.number()),
  iseeRistretto: z.nullable(z.number()),
  /** ISE and equivalence scale of the ordinary ISEE (absent on readings stored before they were read). */
  ise: z.nullish(z.number()),
  scalaEquivalenza: z.nullish(z.number()),
  /**
   * Whether ISEE ordinario = ISE / scala (INPS rounds to the cent): null when ISE or the scale was not
   * read. False means the values read do not agree: the operator must check the document.
   */
  coherent: z.nullish(z.boolean()),
  dataRilascio: z.nullable(z.string()),
  dataFine: z.nullable(z.string()),
  fiscalCodes: z.array(z.string()),
  /** 0–1: how sure the reading is (text source quality and how many fields were found). */
  confidence: z.number().check(z.gte(0), z.lte(1)),
  /** The omissions/discrepancies ("omissioni/difformità") notice, when the attestation has one. */
  omissionsNotice: z.nullable(z.string()),
  /**
   * Why the operator must look closer before trusting a value read (readingWarnings' texts, isee-attestation.ts): labels and values
   * that do not line up, a reduced ISEE that is not its ISE / scala, a scale the ISEE cannot check. Absent on
   * readings stored before it; a reading with any has a confidence of at most UNVERIFIED_CONFIDENCE.
   */
  warnings: z.optional(z.array(z.string())),
  source: z.enum(['pdf-text', 'ocr', 'textract']),
});
export type IseeExtraction = z.output<typeof iseeExtractionSchema>;

/** What the verify page tells the operator about a reading whose ISEE is not ISE / scala di equivalenza. */
export const incoherentValuesWarning = 'Valori non coerenti: ISEE diverso da ISE / scala di equivalenza';

/**
 * What the verify page tells the operator about a reading whose ISEE could not be checked against ISE /
 * scala di equivalenza (either was not read): its confidence is at most UNVERIFIED_CONFIDENCE.
 */
export const unverifiedValuesWarning = 'Valore non verificato: ISE o scala di equivalenza non letti';

/** Whether the ISEE read could not be checked against ISE / scala (coherent null with an ISEE read). */
export const isUnverified = (extraction: Pick<IseeExtraction, 'iseeOrdinario' | 'coherent'>) =>
  extraction.iseeOrdinario !== null && extraction.coherent == null;
