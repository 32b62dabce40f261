import * as z from 'zod';
import { ConflictError } from './errors.ts';

/**
 * A payment flow (flusso MyPay): one export of a call's monthly debt positions to MyPay, followed from the
 * first step to the write-back of the IUVs (operator-admin §2, §3, §4; reference.md "bulk import").
 *
 * `stato` is MyPay's import state once MyPay has the file (LOAD_IMPORT → IMPORT_IN_ELAB → IMPORT_ESEGUITO,
 * or IMPORT_ABORTITO), IMPORT_ERROR_SL when the portal failed, and IN_PREPARAZIONE before the upload.
 * `step` says where the workflow is, for the progress the operator watches.
 */
export const MYPAY_IMPORT_STATES = ['LOAD_IMPORT', 'IMPORT_IN_ELAB', 'IMPORT_ESEGUITO', 'IMPORT_ABORTITO'] as const;
export const flowStates = ['IN_PREPARAZIONE', ...MYPAY_IMPORT_STATES, 'IMPORT_ERROR_SL'] as const;
export type FlowState = (typeof flowStates)[number];

export const flowSteps = ['PREPARAZIONE', 'INVIO', 'ATTESA_ESITO', 'ESITI', 'COMPLETATO', 'ERRORE'] as const;
export type FlowStep = (typeof flowSteps)[number];

/** Operator-admin §4: the badge of a flow. Any value the portal does not know reads 'Errore flusso'. */
export function flowStateLabel(state: string): string {
  switch (state) {
    case 'IMPORT_ESEGUITO':
      return 'Flusso approvato';
    case 'LOAD_IMPORT':
      return 'Flusso caricato';
    case 'IMPORT_IN_ELAB':
      return 'In elaborazione...';
    case 'IMPORT_ERROR_SL':
      return 'Errore flusso interno';
    case 'IN_PREPARAZIONE':
      return 'In preparazione';
    default:
      return 'Errore flusso';
  }
}

export const flowStepLabels: Record<FlowStep, string> = {
  PREPARAZIONE: 'Preparazione del file',
  INVIO: 'Invio a MyPay',
  ATTESA_ESITO: 'MyPay sta elaborando il flusso',
  ESITI: 'Lettura degli esiti e aggiornamento delle posizioni',
  COMPLETATO: 'Completato',
  ERRORE: 'Interrotto',
};

/** A flow is running while MyPay or the portal still has work to do on it. */
export const isFlowRunning = (flow: { step: FlowStep }) => flow.step !== 'COMPLETATO' && flow.step !== 'ERRORE';

/**
 * 'Rielabora': a flow that stopped on an error starts again from where it stopped (every step skips what
 * is already done, so nothing is sent twice); a running or completed flow is not restarted.
 */
export function assertRestartable(flow: { step: FlowStep }): void {
  if (flow.step !== 'ERRORE') throw new ConflictError(flowMessages.notRestartable);
}

/** The ZIP MyPay receives: `<codIPA>-<IUF>-<version>.zip` (reference.md); the IUF is the flow's own id. */
export const MYPAY_FLOW_VERSION = '1_3';
export const flowFileName = (codIpa: string, iuf: string) => `${codIpa}-${iuf}-${MYPAY_FLOW_VERSION}.zip`;

/** Seconds between two polls of MyPay's import state, and how many polls before giving up (~30 minutes). */
export const IMPORT_POLL_SECONDS = 10;
export const MAX_IMPORT_POLLS = 180;

export const flowMessages = {
  started: 'Flusso inviato correttamente a MyPay',
  notFound: 'Il flusso richiesto non esiste.',
  notRestartable: 'Il flusso non è interrotto: non c’è nulla da rielaborare.',
  exportRunning: 'È già in corso un invio a MyPay per questo bando: attendi che finisca.',
  nothingToSend: 'Nessuna posizione debitoria da inviare per il mese scelto.',
  restarted: 'Rielaborazione avvenuta con successo.',
  restartFailed: 'Errore nella rielaborazione, riprova.',
} as const;

export const exportRequestSchema = z.object({
  mese: z.coerce.number({ error: 'Il mese non è valido.' }).int('Il mese non è valido.').min(1, 'Il mese non è valido.').max(12, 'Il mese non è valido.'),
  anno: z.coerce.number({ error: 'L’anno non è valido.' }).int('L’anno non è valido.').min(2000, 'L’anno non è valido.').max(2100, 'L’anno non è valido.'),
  /** The single-payment button of the enrolment table sends one citizen's position only. */
  fiscalCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{16}$/, 'Il codice fiscale non è valido.')
    .optional(),
});
export type ExportRequest = z.output<typeof exportRequestSchema>;

const flowFileSchema = z.object({ available: z.boolean() });

export const flowSchema = z.object({
  id: z.string(),
  stato: z.string(),
  statoLabel: z.string(),
  step: z.enum(flowSteps),
  stepLabel: z.string(),
  dataInsert: z.string(),
  dataUpdate: z.string(),
  announcement: z.object({ id: z.string(), name: z.string(), service: z.object({ id: z.string(), name: z.string() }) }),
  mese: z.number(),
  anno: z.number(),
  fiscalCode: z.string().nullable(),
  /** How many positions the file carries, and MyPay's verdict on them. */
  num: z.number(),
  accepted: z.number().nullable(),
  rejected: z.number().nullable(),
  isEmailSent: z.boolean(),
  /**
   * The notice e-mail job while it runs (null when none runs), as the flow item holds it (its first slice sets the run, its last
   * one finishes it): the page shows "Invio in corso..." on load and polls the job's status from there.
   */
  emailJob: z.object({ sent: z.number().int() }).nullable(),
  /** False while MyPay's result files are not yet in the exports bucket. */
  available: z.boolean(),
  error: z.string().nullable(),
  files: z.object({ avvisi: flowFileSchema, iuv: flowFileSchema, scarti: flowFileSchema }),
});
export type Flow = z.output<typeof flowSchema>;

export const flowListQuerySchema = z.object({
  descrizione: z.string().trim().max(100).optional(),
  cursor: z.string().max(2000).optional(),
});

export const flowFileKinds = ['avvisi', 'iuv', 'scarti'] as const;
export type FlowFileKind = (typeof flowFileKinds)[number];
export const flowFileParamsSchema = z.object({ id: z.string().min(1).max(64), kind: z.enum(flowFileKinds) });

/** One hundred flows per page (operator-admin §9). */
export const FLOWS_PAGE_SIZE = 100;
