import { currentPeriod, type Period } from './period.ts';

/**
 * The debt positions' rules: states, badges, names and keys, without zod, so that a function that applies them
 * (the MyPay export's task) does not bundle the payments' schemas; payments.ts builds its schemas on them and
 * re-exports them.
 */

/** The export state of a position: what the next MyPay import must do with it. */
export const exportStates = ['DA_ESPORTARE', 'ESPORTATA', 'ERRORE', 'NESSUNA'] as const;
export type ExportState = (typeof exportStates)[number];

/**
 * What became of a position's IO notice. IO's own message statuses once a message was created
 * (io-functions-commons openapi/definitions_v2.yaml `MessageStatusValue`): ACCEPTED and THROTTLED are on their
 * way, PROCESSED is in the citizen's inbox, REJECTED (no profile, sender blocked) and FAILED never arrive. When
 * no message was created because the profile check refused it: NO_PROFILE, SENDER_NOT_ALLOWED (ioId '-1').
 */
/** UNCONFIRMED: the portal posted the message and IO gave no clear answer (it may have created it: IO has no idempotency key). */
export const ioStatuses = [
  'ACCEPTED',
  'THROTTLED',
  'PROCESSED',
  'REJECTED',
  'FAILED',
  'NO_PROFILE',
  'SENDER_NOT_ALLOWED',
  'UNCONFIRMED',
] as const;
export type IoStatus = (typeof ioStatuses)[number];

/**
 * Why a payment must be reconciled by an operator (issue 21): MyPay collected another amount than the one
 * due, money for a cancelled position, or a second payment of one position. `differenza` = paid − due,
 * cents (positive: the council holds more than asked; negative: less).
 */
export const reconciliationReasons = ['IMPORTO_DIVERSO', 'ANNULLATA', 'PAGATA_PIU_VOLTE'] as const;

export const RECONCILE_LABEL = 'Pagamento da riconciliare';
export const RECONCILED_LABEL = 'Pagamento riconciliato';
export const reconciliationTexts: Record<(typeof reconciliationReasons)[number], string> = {
  IMPORTO_DIVERSO: 'importo pagato diverso dal dovuto',
  ANNULLATA: 'pagamento di una posizione annullata',
  PAGATA_PIU_VOLTE: 'posizione pagata più volte',
};

/** Skipped subscriptions listed in a generation's answer (a few KB each hundred). */
export const SKIPPED_SHOWN = 500;

export const resolvePeriod = (input: { mese?: number; anno?: number }, now: Date): Period => {
  const current = currentPeriod(now);
  return { mese: input.mese ?? current.mese, anno: input.anno ?? current.anno };
};

export const monthNames = [
  'Gennaio',
  'Febbraio',
  'Marzo',
  'Aprile',
  'Maggio',
  'Giugno',
  'Luglio',
  'Agosto',
  'Settembre',
  'Ottobre',
  'Novembre',
  'Dicembre',
];

/** The file the operator downloads: `<nomeMyPay>_<yyyy>_<mm>.csv`, safe as a file name. */
export const positionsCsvFileName = (nomeMyPay: string, period: Period) =>
  `${nomeMyPay.replace(/[^A-Za-z0-9_-]+/g, '_') || 'posizioni'}_${period.anno}_${String(period.mese).padStart(2, '0')}.csv`;

/**
 * Operator-admin §4 "Payment badge": paid with total 0 = 'Annullato'; paid = 'Pagato'; otherwise 'Da pagare'.
 * Money collected wins: a cancelled position that MyPay reports paid reads 'Pagato' (the citizen paid; the
 * operator also sees 'Pagamento da riconciliare').
 */
export type PaymentBadge = 'Annullato' | 'Pagato' | 'Da pagare';
export function paymentBadge(position: {
  isPagato: boolean;
  annullato: boolean;
  importoTotalePagato: number;
}): PaymentBadge {
  if (position.isPagato && position.importoTotalePagato > 0) return 'Pagato';
  if (position.annullato || position.isPagato) return 'Annullato';
  return 'Da pagare';
}

/**
 * Operator-admin §4 "IO badge", as IO really behaves: an IO answer 201 only means accepted, so the notice is
 * sent when IO processed the message (it is in the citizen's inbox); on its way while IO has not decided (or
 * for a message sent before the status was recorded: 'Verifica' reads it); otherwise not sent, with why.
 */
/** Why an IO send reads 'Invio non confermato', and what the operator should do before a second one. */
export const IO_UNCONFIRMED_REASON =
  'IO non ha confermato la ricezione: il messaggio potrebbe essere arrivato. Verifica con il cittadino prima di inviarlo di nuovo';

/** Whether the position's notice went to IO before (or may have): a new send asks the operator to confirm. */
export const ioSentBefore = (position: PositionIo) =>
  (position.ioId !== null && position.ioId !== '-1') || position.ioStatus === 'UNCONFIRMED';

/** What the IO badge reads of a position. */
export interface PositionIo {
  ioId: string | null;
  ioStatus?: IoStatus | null;
}
export type IoBadge = { state: 'sent' | 'pending' | 'unconfirmed' | 'not-sent'; label: string; reason: string | null };
const ioReasons: Partial<Record<IoStatus, string>> = {
  NO_PROFILE: 'il cittadino non ha attivato l’app IO',
  SENDER_NOT_ALLOWED: 'il cittadino ha disattivato i messaggi del Comune',
  REJECTED: 'messaggio rifiutato (profilo non attivo o messaggi del Comune bloccati)',
  FAILED: 'messaggio non recapitato per un errore di IO',
};
export function ioBadge(position: PositionIo): IoBadge {
  const status = position.ioStatus ?? null;
  const messageId = position.ioId !== null && position.ioId !== '-1';
  if (status === 'PROCESSED') return { state: 'sent', label: 'Inviato su IO', reason: null };
  if (status === 'UNCONFIRMED')
    return { state: 'unconfirmed', label: 'Invio non confermato', reason: IO_UNCONFIRMED_REASON };
  if (messageId && (status === null || status === 'ACCEPTED' || status === 'THROTTLED'))
    return { state: 'pending', label: 'In consegna su IO', reason: null };
  return { state: 'not-sent', label: 'Non inviato su IO', reason: (status && ioReasons[status]) ?? null };
}
export const sentToIo = (position: PositionIo) => ioBadge(position).state === 'sent';

/**
 * Where a position's payment-notice PDF (MyPay's avviso) is kept in the exports bucket once an export
 * brought it back: the e-mail notice attaches it, the citizen and the operator download it. The
 * user-positions function, which leaves it there at the first link, may write under this prefix only.
 */
export const NOTICE_PDF_PREFIX = 'notices/';
export const noticePdfKey = (iud: string) => `${NOTICE_PDF_PREFIX}${iud}.pdf`;

/** Operator-admin §9: a payment's description is at most 300 characters. */
export const DESCRIPTION_MAX_LENGTH = 300;

/** Operator-admin §9: the import status is polled every 10000 ms. */
export const SYNC_POLL_MS = 10_000;
