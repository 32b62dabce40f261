import { ConflictError } from './errors.ts';

/**
 * A payment flow (flusso MyPay): one export of a call's monthly debt positions to MyPay, followed from the
 * first step to the write-back of the IUVs (operator-admin §2, §3, §4; reference.md "bulk import").
 *
 * `stato` is MyPay's import state once MyPay has the file (LOAD_IMPORT → IMPORT_IN_ELAB → IMPORT_ESEGUITO),
 * IMPORT_ERROR_SL when the portal failed, and IN_PREPARAZIONE before the upload. When MyPay fails an import,
 * `stato` is MyPay's error code instead (PAA_IMPORT_NO_MATCH_MD5, PAA_IMPORT_FLUSSO_DUPLICATO, …: MyPay4
 * PagamentiTelematiciDovutiPagatiImpl.paaSILChiediStatoImportFlusso answers the code in `stato`), or the
 * code of MyPay's refusal (a PAA_* fault, MyBox refusing the file): the badge reads 'Errore flusso' and
 * `error` explains it in Italian (mypayFailureReason). `step` says where the workflow is.
 */
export const MYPAY_IMPORT_STATES = ['LOAD_IMPORT', 'IMPORT_IN_ELAB', 'IMPORT_ESEGUITO', 'IMPORT_ABORTITO'] as const;
export const flowStates = ['IN_PREPARAZIONE', ...MYPAY_IMPORT_STATES, 'IMPORT_ERROR_SL'] as const;
export type FlowState = (typeof flowStates)[number];

/**
 * SOSPESO: MyPay still had the import in LOAD_IMPORT or IMPORT_IN_ELAB when the portal stopped polling (an
 * entity with GPD enabled may hold it for hours); the flow is waiting, not failed, and 'Rielabora' asks again.
 */
export const flowSteps = ['PREPARAZIONE', 'INVIO', 'ATTESA_ESITO', 'ESITI', 'COMPLETATO', 'ERRORE', 'SOSPESO'] as const;
export type FlowStep = (typeof flowSteps)[number];

/**
 * Operator-admin §4: the badge of a flow. Any value the portal does not know reads 'Errore flusso'. On pagoPA GPD
 * (issue 37) the positions are published, not imported: a completed flow reads 'Posizioni pubblicate su pagoPA'.
 */
export function flowStateLabel(state: string, platform: 'mypay' | 'gpd' = 'mypay'): string {
  switch (state) {
    case 'IMPORT_ESEGUITO':
      return platform === 'gpd' ? 'Posizioni pubblicate su pagoPA' : 'Flusso approvato';
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
  SOSPESO: 'In attesa dell’esito di MyPay',
};

/** The steps in the words of pagoPA GPD: the positions themselves are published, no file is imported. */
export const gpdFlowStepLabels: Record<FlowStep, string> = {
  ...flowStepLabels,
  PREPARAZIONE: 'Preparazione delle posizioni',
  INVIO: 'Pubblicazione su pagoPA',
  ATTESA_ESITO: 'Pubblicazione su pagoPA',
  ESITI: 'Aggiornamento delle posizioni',
};

/** A flow is running while the workflow still has work to do on it (a suspended one waits for 'Rielabora'). */
export const isFlowRunning = (flow: { step: FlowStep }) =>
  flow.step !== 'COMPLETATO' && flow.step !== 'ERRORE' && flow.step !== 'SOSPESO';

/**
 * 'Rielabora': a flow that stopped on an error starts again from where it stopped (every step skips what
 * is already done, so nothing is sent twice), and a suspended one asks MyPay again; a running or completed
 * flow is not restarted.
 */
export function assertRestartable(flow: { step: FlowStep }): void {
  if (flow.step !== 'ERRORE' && flow.step !== 'SOSPESO') throw new ConflictError(flowMessages.notRestartable);
}

/** The states the portal itself gives a flow (any other `stato` is MyPay's failure: mypayFailureReason). */
const PORTAL_STATES: ReadonlySet<string> = new Set([
  'IN_PREPARAZIONE',
  'LOAD_IMPORT',
  'IMPORT_IN_ELAB',
  'IMPORT_ESEGUITO',
  'IMPORT_ERROR_SL',
]);
/** MyPay failed the import or refused the request: the file must go again, with a new token, name and IUF. */
export const isMyPayFailure = (stato: string) => !PORTAL_STATES.has(stato);

/**
 * MyPay failed the import after its elaboration had inserted rows: elaboraCsv's PAA_IMPORT_ERROR (writing the
 * SCARTI or IUV file or the notices, or reading the CSV) and the updates after it (ImportFlussoTaskService.java:
 * 574-690, 873-981; some written with a stray ')'). Before the file goes again, 'Rielabora' finds out which of
 * its rows MyPay holds (export-steps.ts reconcile).
 */
export const mayHoldRowsAfter = (stato: string) =>
  [
    'PAA_IMPORT_ERROR',
    'PAA_IMPORT_ERRORE_GENERICO',
    'PAA_IMPORT_ERROR_UPDATE_FLUSSO',
    'PAA_IMPORT_ERROR_UPDATE_IMPORT_DOVUTI',
  ].includes(stato.replace(/\)+$/, ''));

/**
 * MyPay's failure in Italian, without its code. The import's codes are MyPay4's
 * (scheduled/importflusso/ImportFlussoTaskService.java: validaFlusso, verificaNomeVersioneFile; some carry
 * their values in brackets, e.g. PAA_IMPORT_ENTE_ERR(C_X,C_Y)); the refusals are the faults of the SOAP
 * operations (ws/util/FaultCodeConstants.java) and MyBox's (controller/MyBoxController.java, FlussoService.java).
 */
export function mypayFailureReason(code: string, description?: string): string {
  const base = code.replace(/\(.*$/, '').replace(/\)+$/, '');
  const again = '«Rielabora» lo invia di nuovo con un nuovo identificativo.';
  switch (base) {
    case 'PAA_IMPORT_NO_MATCH_MD5':
      return `MyPay ha ricevuto un file diverso da quello inviato (l’impronta MD5 non corrisponde). ${again}`;
    case 'PAA_IMPORT_NO_FILE_MD5':
    case 'PAA_IMPORT_NO_FILE_AUTH':
    case 'PAA_IMPORT_NO_MATCH_AUTH':
      return `MyPay non ha ritrovato il file caricato o la sua autorizzazione. ${again}`;
    case 'PAA_IMPORT_NOME_FILE_ERR':
      return 'MyPay non accetta il nome del file (codice IPA-identificativo del flusso-versione del tracciato).';
    case 'PAA_IMPORT_ENTE_ERR':
      return 'Il codice IPA nel nome del file non è quello dell’ente a cui è stato inviato: controlla le impostazioni di MyPay del portale.';
    case 'PAA_IMPORT_FILE_VERSIONE_ERR':
      return 'MyPay non supporta la versione del tracciato del file.';
    case 'PAA_IMPORT_NO_CSV':
      return `Nel file ZIP MyPay non ha trovato il CSV con lo stesso nome. ${again}`;
    case 'PAA_IMPORT_FLUSSO_DUPLICATO':
      return `MyPay ha già caricato un flusso con questo identificativo. ${again}`;
    case 'PAA_IMPORT_FLUSSO_IN_CARICAMENTO':
      return `MyPay sta già caricando un flusso con questo identificativo. ${again}`;
    case 'MYBOX_NOME_FILE_DUPLICATO':
      return `MyPay ha già ricevuto un file con questo nome. ${again}`;
    case 'PAA_REQUEST_TOKEN_GIA_USATO':
      return 'MyPay ha rifiutato l’invio: l’autorizzazione ricevuta era già stata usata. «Rielabora» ne chiede una nuova e invia il file di nuovo.';
    case 'PAA_REQUEST_TOKEN_NON_VALIDO':
      return 'MyPay non riconosce l’autorizzazione di questo invio. «Rielabora» ne chiede una nuova e invia il file di nuovo.';
    case 'PAA_ENTE_NON_VALIDO':
      return 'MyPay non riconosce l’ente o la password del portale: controlla le impostazioni di MyPay prima di rielaborare.';
    case 'IMPORT_ABORTITO':
    case 'PAA_IMPORT_ERROR':
    case 'PAA_IMPORT_ERRORE_GENERICO':
    case 'PAA_IMPORT_FLUSSO_ERRORE_GENERICO':
    case 'PAA_IMPORT_ERROR_UPDATE_FLUSSO':
    case 'PAA_IMPORT_ERROR_UPDATE_IMPORT_DOVUTI':
      return `MyPay ha interrotto l’importazione per un proprio errore. ${again}`;
    default: {
      // MyBox answers its refusal in Italian ("[<error id>] Il nome del file […] deve iniziare col codice dell'ente."):
      // the text without its id; a fault's code is never shown.
      const text = (description ?? '').replace(/^\s*\[[^\]]*\]\s*/, '').trim();
      return text ? `MyPay ha rifiutato l’invio: ${text.slice(0, 300)}` : `MyPay ha rifiutato il flusso. ${again}`;
    }
  }
}

/** The ZIP MyPay receives: `<codIPA>-<IUF>-<version>.zip` (reference.md). */
export const MYPAY_FLOW_VERSION = '1_3';
export const flowFileName = (codIpa: string, iuf: string) => `${codIpa}-${iuf}-${MYPAY_FLOW_VERSION}.zip`;

/**
 * The flow's IUF: its own id, then `<id>_<n>` for the n-th sending after MyPay failed or refused it (MyPay
 * refuses a ZIP name it already received, FlussoService.validateFile / FlussoDao.countDuplicateFileName, and
 * an IUF already loaded, PAA_IMPORT_FLUSSO_DUPLICATO).
 */
export const flowIuf = (flowId: string, attempt: number) => (attempt > 1 ? `${flowId}_${attempt}` : flowId);

/**
 * How long to wait before asking MyPay again about an import: every IMPORT_POLL_SECONDS for the first
 * minutes, then less often (an entity with GPD enabled holds imports in IMPORT_IN_ELAB until pagoPA has
 * synchronised them: hours). The portal stops asking after the deployment's MYPAY_IMPORT_MAX_WAIT_MINUTES
 * (DEFAULT_IMPORT_MAX_WAIT_MINUTES): the flow is then suspended, not failed.
 */
export const IMPORT_POLL_SECONDS = 10;
export const DEFAULT_IMPORT_MAX_WAIT_MINUTES = 48 * 60;
export function nextImportPollSeconds(waitedMs: number): number {
  if (waitedMs < 5 * 60_000) return IMPORT_POLL_SECONDS;
  if (waitedMs < 60 * 60_000) return 60;
  return 300;
}

/**
 * The call's export lock is a lease: 'Invia a MyPay' takes it until now + EXPORT_LEASE_MS, and every step of
 * the flow's workflow renews it (export-steps.ts). A run that died without releasing it (a function that
 * timed out, a workflow that never started) locks the call for this long at most, never for good. The
 * longest a live workflow goes without a step is a wait between polls (5 minutes, nextImportPollSeconds)
 * plus a step and its retries: well inside it. A flow that stopped while MyPay may hold its file keeps the
 * lock without an expiry until 'Rielabora' (export-steps.ts markFailed).
 */
export const EXPORT_LEASE_MS = 30 * 60_000;
export const exportLeaseUntil = (now: Date) => new Date(now.getTime() + EXPORT_LEASE_MS).toISOString();

export const flowMessages = {
  started: 'Flusso inviato correttamente a MyPay',
  notFound: 'Il flusso richiesto non esiste.',
  notRestartable: 'Il flusso non è interrotto: non c’è nulla da rielaborare.',
  exportRunning: 'È già in corso un invio a MyPay per questo bando: attendi che finisca.',
  nothingToSend: 'Nessuna posizione da inviare per questo mese.',
  allHeldBack: 'Nessuna posizione inviata: le posizioni del mese sono trattenute per i dati da correggere.',
  stillWaiting:
    'MyPay sta ancora elaborando il flusso: «Rielabora» ne verifica di nuovo l’esito (il file non viene inviato di nuovo).',
  executionStopped:
    'L’invio si è interrotto prima di finire (tempo massimo superato o esecuzione fermata): «Rielabora» lo riprende da dove si era fermato.',
  restarted: 'Rielaborazione avvenuta con successo.',
  restartFailed: 'Errore nella rielaborazione, riprova.',
} as const;

export const flowFileKinds = ['avvisi', 'iuv', 'scarti'] as const;
export type FlowFileKind = (typeof flowFileKinds)[number];

/** One hundred flows per page (operator-admin §9). */
export const FLOWS_PAGE_SIZE = 100;
