import * as z from 'zod/mini';
import { ConflictError } from './errors.ts';
import { uploadedFileSchema } from './files.ts';
import { inpsDetailsSchema, inpsFetchOutcomes, toInpsDetails } from './inps-details.ts';
import { iseeExtractionSchema, extractionStatuses } from './isee-extraction.ts';
import { messages } from './messages.ts';
import { hasAtMostTwoDecimals, toEuros } from './money.ts';

/** ISEE attestations: citizen upload, operator upload, review (spec part 1 §2/§4/§5, part 2 §2.7/§4/§5). */
/** ISEE lists show five per page (part 1 §9). */
export const ISEE_PAGE_SIZE = 5;

export const iseeMessages = {
  notFound: 'L’ISEE selezionato non esiste.',
  value: 'Inserisci un valore valido, con al massimo due decimali.',
  year: 'Inserisci un anno valido (quattro cifre).',
  date: 'Inserisci una data valida.',
  missingDocument: 'Non è stato caricato nessun documento',
  alreadyDecided: 'L’ISEE non è più in attesa di verifica: è già stato confermato o rifiutato.',
  noPdf: 'Non è stato caricato nessun PDF',
  decision: 'Lo stato può essere 1 (conferma) o 2 (rifiuto).',
  extracting: 'Elaborazione valore ISEE...',
  usedForFee: 'Non è possibile eliminare un ISEE già usato per calcolare una quota.',
} as const;

/** LOADED waits for an operator; INVALIDATED was replaced by a newer upload (the portal's own state, 'SOSTITUITO'). */
export const iseeStates = ['LOADED', 'VALIDATED', 'REFUSED', 'INVALIDATED'] as const;
export type IseeState = (typeof iseeStates)[number];

/**
 * Part 2 §4: LOADED 'DA VERIFICARE', VALIDATED 'ACCETTATO', REFUSED 'RIFIUTATO', a value the portal does not
 * know raw. INVALIDATED is the portal's own (an earlier ISEE a new upload replaced): 'SOSTITUITO'.
 */
export const iseeStateLabel = (state: string) =>
  ({ LOADED: 'DA VERIFICARE', VALIDATED: 'ACCETTATO', REFUSED: 'RIFIUTATO', INVALIDATED: 'SOSTITUITO' })[state] ?? state;
/** Part 1 §4, the users list: Validato, Caricato, Rifiutato (and the portal's Sostituito). */
export const iseeStateShortLabel = (state: string) =>
  ({ LOADED: 'Caricato', VALIDATED: 'Validato', REFUSED: 'Rifiutato', INVALIDATED: 'Sostituito' })[state] ?? state;

/** The largest ISEE accepted, in euro: far above any real one, low enough to catch typos. */
const MAX_VALUE = 10_000_000;

/** An ISEE value in euro, at most two decimals, not negative. */
export const iseeValue = z.number({ error: (issue) => (issue.input === undefined || issue.input === null ? messages.required : iseeMessages.value) }).check(
  z.gte(0, iseeMessages.value),
  z.lte(MAX_VALUE, iseeMessages.value),
  z.refine(hasAtMostTwoDecimals, iseeMessages.value),
);

export const iseeYear = z.number({ error: (issue) => (issue.input === undefined || issue.input === null ? messages.required : iseeMessages.year) }).check(
  z.int(iseeMessages.year),
  z.gte(1900, iseeMessages.year),
  z.lte(2100, iseeMessages.year),
);

const isoDate = z.string({ error: messages.required }).check(
  z.trim(),
  z.minLength(1, messages.required),
  z.refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(new Date(value).getTime()), iseeMessages.date),
);

const text = (max: number) =>
  z.string({ error: messages.required }).check(
    z.trim(),
    z.minLength(1, messages.required),
    z.maxLength(max, `Il campo può contenere al massimo ${max} caratteri.`),
  );

const document = z.nullish(uploadedFileSchema);

/** Citizen upload (part 2 §5): the file is required and the value too. */
export const citizenIseeUploadSchema = z.pipe(z.object({ document, value: iseeValue }).check(z.refine((input) => !!input.document, { message: iseeMessages.missingDocument, path: ['document'] })), z.transform((input) => ({ ...input, document: input.document! })));
export type CitizenIseeUpload = z.output<typeof citizenIseeUploadSchema>;

/**
 * Operator upload for a user (part 1 §2 and §5): value, year, protocol and expiry required; the document
 * is required unless 'Escludi verifica ISEE' is checked. Year and date default to now in the form.
 */
export const operatorIseeUploadSchema = z.object({
    document,
    excludeVerification: z._default(z.boolean(), false),
    value: iseeValue,
    year: iseeYear,
    date: isoDate,
    protocollo: text(60),
    scadenza: isoDate,
  }).check(z.refine((input) => input.excludeVerification || !!input.document, { message: iseeMessages.missingDocument, path: ['document'] }));
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

/**
 * Where an ISEE came from (design §4 "ISEE sources"): fetched from INPS through PDND, or a document uploaded
 * (by the citizen or an operator); an operator's entry without a document ('Escludi verifica ISEE', the
 * enrolment import) is the operator's.
 */
export const iseeSources = ['INPS', 'UPLOAD', 'OPERATOR'] as const;
export type IseeSource = (typeof iseeSources)[number];
export const iseeSourceOf = (item: { source?: string | null; hasFile?: boolean | null }): IseeSource =>
  item.source === 'INPS' ? 'INPS' : item.hasFile ? 'UPLOAD' : 'OPERATOR';
export const iseeSourceLabel = (source: IseeSource) => ({ INPS: 'INPS tramite PDND', UPLOAD: 'Documento caricato', OPERATOR: 'Inserito dall’operatore' })[source];

export const iseeSchema = z.object({
  id: z.string(),
  userId: z.string(),
  user: z.object({ firstName: z.string(), lastName: z.string(), fiscalCode: z.string(), email: z.nullable(z.string()) }),
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
export const inpsFetchResultSchema = z.object({ outcome: z.enum(inpsFetchOutcomes), message: z.string(), isee: z.nullable(iseeSchema) });
export type InpsFetchResult = z.output<typeof inpsFetchResultSchema>;

/** What the citizen's home says about the newest ISEE (part 2 §4); null means no banner. */
export type IseeBanner = 'waiting' | 'refused' | 'missing' | null;
export function iseeBanner(newest: { state: string } | null | undefined): IseeBanner {
  if (!newest) return 'missing';
  if (newest.state === 'VALIDATED') return null;
  if (newest.state === 'LOADED') return 'waiting';
  if (newest.state === 'REFUSED') return 'refused';
  return 'missing';
}

/**
 * How an ISEE moves: an operator validates or refuses one that waits (LOADED); a new upload invalidates
 * the previous one while it still counts (LOADED or VALIDATED, part 2 §4). REFUSED and INVALIDATED are final.
 */
export const iseeTransitions: Record<IseeState, readonly IseeState[]> = {
  LOADED: ['VALIDATED', 'REFUSED', 'INVALIDATED'],
  VALIDATED: ['INVALIDATED'],
  REFUSED: [],
  INVALIDATED: [],
};

export const canMoveIsee = (from: string, to: IseeState): boolean => iseeTransitions[from as IseeState]?.includes(to) ?? false;

/** Design §4: confirm sends 1 (VALIDATED), refuse 2 (REFUSED); an ISEE no longer LOADED cannot be decided again (409). */
export function decidedState(current: string, decision: 1 | 2): IseeState {
  const next: IseeState = decision === 1 ? 'VALIDATED' : 'REFUSED';
  if (!canMoveIsee(current, next)) throw new ConflictError(iseeMessages.alreadyDecided);
  return next;
}

/** What a new upload does to the previous ISEE: INVALIDATED while it still counts, otherwise nothing (null). */
export const supersededState = (previous: { state: string } | null): IseeState | null =>
  previous && canMoveIsee(previous.state, 'INVALIDATED') ? 'INVALIDATED' : null;

/**
 * The attribute the debt-position use case (a later issue) writes on an ISEE item, with the time, when it
 * computes a fee from that ISEE. The ISEE repository's delete is conditional on its absence too.
 */
export const ISEE_FEE_MARKER = 'feeComputedAt';

/** An ISEE that has been used to compute a fee is part of that fee's record. */
export const isIseeUsedForFee = (isee: Record<string, unknown>): boolean => Boolean(isee[ISEE_FEE_MARKER]);

/** An ISEE may be deleted until it has been used to compute a fee: then 409. */
export function assertIseeDeletable(isee: Record<string, unknown>): void {
  if (isIseeUsedForFee(isee)) throw new ConflictError(iseeMessages.usedForFee);
}

/** A stored ISEE (amounts in cents) as the API shows it. */
export function toIsee(item: Record<string, any>): Isee {
  const source = iseeSourceOf(item);
  return {
    id: item.id,
    userId: item.userId,
    user: {
      firstName: item.user?.firstName ?? '',
      lastName: item.user?.lastName ?? '',
      fiscalCode: item.user?.fiscalCode ?? '',
      email: item.user?.email ?? null,
    },
    value: toEuros(item.valueCents ?? 0),
    year: item.year,
    date: item.date,
    protocollo: item.protocollo ?? null,
    scadenza: item.scadenza ?? null,
    state: item.state,
    hasFile: !!item.hasFile,
    fileName: item.fileName ?? null,
    contentType: item.contentType ?? null,
    uploadedBy: item.uploadedBy ?? 'CITIZEN',
    excludeVerification: !!item.excludeVerification,
    dataInsert: item.dataInsert,
    extractionStatus: item.extractionStatus ?? 'NONE',
    extraction: item.extraction ?? null,
    source,
    sourceLabel: iseeSourceLabel(source),
    inps: item.inps ? toInpsDetails(item.inps) : null,
  };
}
