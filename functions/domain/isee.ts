import * as z from 'zod/mini';
import { uploadedFileSchema } from './files.ts';
import { inpsFetchOutcomes } from './inps-details.ts';
import { iseeExtractionSchema } from './isee-extraction.ts';
import { extractionStatuses, iseeMessages, iseeSources, iseeStates } from './isee-rules.ts';
import { messages } from './messages.ts';
import { hasAtMostTwoDecimals } from './money.ts';

/** ISEE attestations: the API's payloads (the rules are in isee-rules.ts, re-exported here). */
export {
  ISEE_PAGE_SIZE,
  iseeMessages,
  iseeStates,
  type IseeState,
  iseeStateLabel,
  iseeStateShortLabel,
  iseeSources,
  type IseeSource,
  iseeSourceOf,
  iseeSourceLabel,
  type IseeBanner,
  iseeBanner,
  iseeTransitions,
  canMoveIsee,
  decidedState,
  supersededState,
  ISEE_FEE_MARKER,
  isIseeUsedForFee,
  assertIseeDeletable,
  toIsee,
} from './isee-rules.ts';

/** The largest ISEE accepted, in euro: far above any real one, low enough to catch typos. */
const MAX_VALUE = 10_000_000;

/** An ISEE value in euro, at most two decimals, not negative. */
export const iseeValue = z
  .number({
    error: (issue) => (issue.input === undefined || issue.input === null ? messages.required : iseeMessages.value),
  })
  .check(
    z.gte(0, iseeMessages.value),
    z.lte(MAX_VALUE, iseeMessages.value),
    z.refine(hasAtMostTwoDecimals, iseeMessages.value),
  );

export const iseeYear = z
  .number({
    error: (issue) => (issue.input === undefined || issue.input === null ? messages.required : iseeMessages.year),
  })
  .check(z.int(iseeMessages.year), z.gte(1900, iseeMessages.year), z.lte(2100, iseeMessages.year));

const isoDate = z.string({ error: messages.required }).check(
  z.trim(),
  z.minLength(1, messages.required),
  z.refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(new Date(value).getTime()), iseeMessages.date),
);

const text = (max: number) =>
  z
    .string({ error: messages.required })
    .check(
      z.trim(),
      z.minLength(1, messages.required),
      z.maxLength(max, `Il campo può contenere al massimo ${max} caratteri.`),
    );

const document = z.nullish(uploadedFileSchema);

/** Citizen upload (part 2 §5): the file is required and the value too. */
export const citizenIseeUploadSchema = z.pipe(
  z
    .object({ document, value: iseeValue })
    .check(z.refine((input) => !!input.document, { message: iseeMessages.missingDocument, path: ['document'] })),
  z.transform((input) => ({ ...input, document: input.document! })),
);
export type CitizenIseeUpload = z.output<typeof citizenIseeUploadSchema>;

/**
 * Operator upload for a user (part 1 §2 and §5): value, year, protocol and expiry required; the document
 * is required unless 'Escludi verifica ISEE' is checked. Year and date default to now in the form.
 */
export const operatorIseeUploadSchema = z
  .object({
    document,
    excludeVerification: z._default(z.boolean(), false),
    value: iseeValue,
    year: iseeYear,
    date: isoDate,
    protocollo: text(60),
    scadenza: isoDate,
  })
  .check(
    z.refine((input) => input.excludeVerification || !!input.document, {
      message: iseeMessages.missingDocument,
      path: ['document'],
    }),
  );
export type OperatorIseeUpload = z.output<typeof operatorIseeUploadSchema>;

/** The operator's decision (part 1 §3 'ISEE confirm payload'): state 1 confirms, 2 refuses; the declared value is required. */
export const iseeDecisionSchema = z.object({
  state: z.union([z.literal(1), z.literal(2)], { error: iseeMessages.decision }),
  value: iseeValue,
  year: z.optional(iseeYear),
  protocollo: z.nullish(z.string().check(z.trim(), z.maxLength(60))),
  scadenza: z.nullish(z.string().check(z.trim(), z.maxLength(30))),
});
export type IseeDecision = z.output<typeof iseeDecisionSchema>;

/** What the API shows of an ISEE fetched from INPS (inps-details.ts toInpsDetails makes it from the stored attestation). */
export const inpsDetailsSchema = z.object({
  protocolloDSU: z.string(),
  dataPresentazione: z.string(),
  dataValidita: z.string(),
  dataRilascio: z.nullable(z.string()),
  corrente: z.nullable(
    z.object({ protocolloDSU: z.string(), dataPresentazione: z.string(), dataScadenza: z.string() }),
  ),
  ise: z.nullable(z.number()),
  scalaEquivalenza: z.nullable(z.number()),
  isee: z.nullable(z.number()),
  isr: z.nullable(z.number()),
  isp: z.nullable(z.number()),
  household: z.array(
    z.object({
      relation: z.string(),
      lastName: z.nullable(z.string()),
      firstName: z.nullable(z.string()),
      fiscalCode: z.nullable(z.string()),
    }),
  ),
  otherIndicators: z.array(z.object({ kind: z.string(), fiscalCode: z.string(), isee: z.nullable(z.number()) })),
  omissions: z.array(z.object({ type: z.string(), label: z.string(), fiscalCode: z.string(), checkedOn: z.string() })),
  discrepancies: z.array(z.object({ fiscalCode: z.string(), type: z.string(), detail: z.string() })),
  reviewReason: z.nullable(z.string()),
  idRichiesta: z.nullable(z.string()),
  queriedAt: z.string(),
});
export type InpsDetails = z.output<typeof inpsDetailsSchema>;

export const iseeSchema = z.object({
  id: z.string(),
  userId: z.string(),
  user: z.object({
    firstName: z.string(),
    lastName: z.string(),
    fiscalCode: z.string(),
    email: z.nullable(z.string()),
  }),
  value: z.number(),
  year: z.number(),
  date: z.string(),
  protocollo: z.nullable(z.string()),
  scadenza: z.nullable(z.string()),
  state: z.enum(iseeStates),
  hasFile: z.boolean(),
  fileName: z.nullable(z.string()),
  contentType: z.nullable(z.string()),
  uploadedBy: z.enum(['CITIZEN', 'OPERATOR']),
  excludeVerification: z.boolean(),
  dataInsert: z.string(),
  extractionStatus: z.enum(extractionStatuses),
  extraction: z.nullable(iseeExtractionSchema),
  source: z.enum(iseeSources),
  sourceLabel: z.string(),
  /** What INPS said (an ISEE fetched through PDND): the DSU, the values, the household, omissions. */
  inps: z.nullable(inpsDetailsSchema),
  /** A 5-minute link to the document (detail only). */
  fileUrl: z.optional(z.nullable(z.string())),
});
export type Isee = z.output<typeof iseeSchema>;

/** The answer of 'Recupera il mio ISEE da INPS' and of the operator's 'Aggiorna ISEE da INPS'. */
export const inpsFetchResultSchema = z.object({
  outcome: z.enum(inpsFetchOutcomes),
  message: z.string(),
  isee: z.nullable(iseeSchema),
});
export type InpsFetchResult = z.output<typeof inpsFetchResultSchema>;

/** What the citizen's home says about the newest ISEE (part 2 §4); null means no banner. */
