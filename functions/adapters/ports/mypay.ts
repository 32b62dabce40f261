import type { MyPayCsvRow } from '../../domain/mypay-csv-format.ts';

/**
 * MyPay, the council's pagoPA intermediary (reference.md: SIL bulk import, payment redirect, reporting).
 * The adapter is functions/adapters/mypay.ts; locally it talks to lib/local/mypay-simulator.ts.
 * Errors: `MyPayUnavailable` (5xx, timeout, connection refused: retry) and `MyPayFault` (a fault code or
 * a refusal: retrying the same call changes nothing), by `error.name` so Step Functions can match them.
 */
export interface MyPayAuthorization {
  uploadUrl: string;
  authorizationToken: string;
  /** Single-use: identifies the import from the upload on. */
  requestToken: string;
  importPath: string;
}

/** LOAD_IMPORT, IMPORT_IN_ELAB, IMPORT_ESEGUITO, IMPORT_ABORTITO (or another code MyPay sends instead). */
export interface MyPayImportStatus {
  stato: string;
  urlFileScarti?: string;
  urlFileIUV?: string;
  urlFileAvvisi?: string;
}

export interface MyPayPaymentSession {
  /** The session MyPay made for this attempt (paaSILVerificaAvviso: a new one at every call). */
  idSession: string;
  /** Where to send the citizen to pay (MyPay's landing; it sends them back to the page named in the call). */
  url: string;
}

export interface MyPayPaidItem {
  iud: string;
  iuv: string;
  amountCents: number;
  /** yyyy-MM-dd */
  paidOn: string;
  /** identificativoUnivocoRiscossione */
  iur: string;
}

export interface MyPayPaymentOutcome {
  /**
   * PAID: codiceEsitoPagamento 0 (or 2, the paid items of a cart); FAILED: 1; CANCELLED, EXPIRED, PENDING:
   * MyPay's faults PAA_PAGAMENTO_ANNULLATO, PAA_PAGAMENTO_SCADUTO (WISP mode), PAA_PAGAMENTO_IN_CORSO /
   * _NON_INIZIATO; UNKNOWN: not known yet (modello unico: no receipt yet, PAA_ID_SESSION_NON_VALIDO or
   * PAA_PAGAMENTO_SCADUTO) — ask again later, or learn it from the reporting.
   */
  status: 'PAID' | 'FAILED' | 'CANCELLED' | 'PENDING' | 'EXPIRED' | 'UNKNOWN';
  payments: MyPayPaidItem[];
}

/** A row of the reporting export (paaSILPrenotaExportFlusso → paaSILChiediStatoExportFlusso → ZIP of a CSV). */
export interface MyPayPaidRow extends MyPayPaidItem {
  fiscalCode: string;
  causale: string;
}

export interface MyPay {
  authorize(): Promise<MyPayAuthorization>;
  upload(authorization: MyPayAuthorization, zip: Uint8Array, fileName: string): Promise<void>;
  importStatus(
    requestToken: string,
    files?: { scarti?: boolean; iuv?: boolean; avvisi?: boolean },
  ): Promise<MyPayImportStatus>;
  download(url: string): Promise<Uint8Array>;
  /**
   * One position through paaSILImportaDovuto: the IUV MyPay generated (null if it generated none) and, with it, the
   * link to its notice PDF (urlFileAvviso); a refusal is a MyPayFault.
   */
  importDovuto(row: MyPayCsvRow): Promise<{ iuv: string | null; noticeUrl: string | null }>;
  /** A new checkout of a position MyPay holds (imported), by its IUV, back to `returnUrl`; null when MyPay has nothing payable for it. */
  /** `deadline` (epoch ms): the call ends before it (the caller's remaining time), as MyPayUnavailable. */
  openPositionCheckout(iuv: string, returnUrl: string, deadline?: number): Promise<MyPayPaymentSession | null>;
  paymentOutcome(idSession: string, deadline?: number): Promise<MyPayPaymentOutcome>;
  /** Books the export of what was paid between the two dates (yyyy-MM-dd, inclusive), waits for it and reads it. */
  reportPaid(from: string, to: string): Promise<MyPayPaidRow[]>;
}
