import { ConflictError } from './errors.ts';
import { toInpsDetails } from './inps-details.ts';
import { toEuros } from './money.ts';

/** ISEE attestations: citizen upload, operator upload, review (spec part 1 §2/§4/§5, part 2 §2.7/§4/§5).: the rules, without zod (the API's schemas are in isee.ts, which
 * re-exports these). */
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
  ({ LOADED: 'DA VERIFICARE', VALIDATED: 'ACCETTATO', REFUSED: 'RIFIUTATO', INVALIDATED: 'SOSTITUITO' })[state] ??
  state;
/** Part 1 §4, the users list: Validato, Caricato, Rifiutato (and the portal's Sostituito). */
export const iseeStateShortLabel = (state: string) =>
  ({ LOADED: 'Caricato', VALIDATED: 'Validato', REFUSED: 'Rifiutato', INVALIDATED: 'Sostituito' })[state] ?? state;

/**
 * Where an ISEE came from (design §4 "ISEE sources"): fetched from INPS through PDND, or a document uploaded
 * (by the citizen or an operator); an operator's entry without a document ('Escludi verifica ISEE', the
 * enrolment import) is the operator's.
 */
export const iseeSources = ['INPS', 'UPLOAD', 'OPERATOR'] as const;
export type IseeSource = (typeof iseeSources)[number];
export const iseeSourceOf = (item: { source?: string | null; hasFile?: boolean | null }): IseeSource =>
  item.source === 'INPS' ? 'INPS' : item.hasFile ? 'UPLOAD' : 'OPERATOR';
export const iseeSourceLabel = (source: IseeSource) =>
  ({ INPS: 'INPS tramite PDND', UPLOAD: 'Documento caricato', OPERATOR: 'Inserito dall’operatore' })[source];

/** PENDING while the reading runs (the verify page shows 'Elaborazione valore ISEE...'). */
export const extractionStatuses = ['PENDING', 'DONE', 'FAILED', 'NONE'] as const;
export type ExtractionStatus = (typeof extractionStatuses)[number];

/** Where an ISEE's document is stored: the extraction finds the ISEE from the key. */
export const iseeDocumentKey = (iseeId: string) => `isee/${iseeId}/document`;
export const iseeIdFromKey = (key: string): string | null => /^isee\/([^/]+)\/document$/.exec(key)?.[1] ?? null;

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

export const canMoveIsee = (from: string, to: IseeState): boolean =>
  iseeTransitions[from as IseeState]?.includes(to) ?? false;

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

/** A stored ISEE (amounts in cents) as the API shows it: isee.ts's `Isee`, checked where a use case answers one. */
export function toIsee(item: Record<string, any>) {
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
    state: item.state as IseeState,
    hasFile: !!item.hasFile,
    fileName: item.fileName ?? null,
    contentType: item.contentType ?? null,
    uploadedBy: (item.uploadedBy ?? 'CITIZEN') as 'CITIZEN' | 'OPERATOR',
    excludeVerification: !!item.excludeVerification,
    dataInsert: item.dataInsert,
    extractionStatus: (item.extractionStatus ?? 'NONE') as ExtractionStatus,
    extraction: item.extraction ?? null,
    source,
    sourceLabel: iseeSourceLabel(source),
    inps: item.inps ? toInpsDetails(item.inps) : null,
  };
}
