import type { UploadRequest, UploadTicket } from '../domain/files.ts';
import type { InpsAnswer, InpsApplicationState, InpsAttestation, InpsIndicator } from '../domain/inps.ts';
import type { IoMessageContent } from '../domain/notices.ts';
import type { Actor } from '../domain/roles.ts';

/**
 * What every use case may receive besides its repositories. The real adapters are wired once in each
 * handler.ts; the use-case tests pass in-memory ones (test/support/in-memory.ts).
 */
export interface Clock {
  now(): Date;
}

export type IdGenerator = () => string;

export interface AuditEntry {
  actor: Actor;
  entity: string;
  id: string;
  action: 'create' | 'update' | 'delete';
  before: unknown;
  after: unknown;
}

export interface AuditLog {
  record(entry: AuditEntry, at: Date): Promise<void>;
}

export interface ClaimedFile {
  key: string;
  contentType: string;
  size: number;
}

/** The documents bucket: uploads go straight to it, the API claims them (checked on their bytes) and links to them. */
export interface FileStore {
  createUpload(ownerSub: string, request: UploadRequest): Promise<UploadTicket>;
  claimUpload(ownerSub: string, uploadKey: string, finalKey: string): Promise<ClaimedFile>;
  downloadUrl(key: string, fileName: string, contentType?: string | null): Promise<string>;
  deleteFile(key: string): Promise<void>;
}

/** One audit entry as stored: who, when, before and after (a record's history reads these). */
export interface StoredAuditEntry {
  at: string;
  action: AuditEntry['action'];
  who: { sub: string; fiscalCode: string | null; fullName: string; role: string };
  before: unknown;
  after: unknown;
}

/** A record's audit entries, oldest first (e.g. the history on the ticket page). */
export interface AuditHistory {
  historyOf(entity: string, id: string, page: { limit?: number; cursor?: string }): Promise<{ items: StoredAuditEntry[]; nextCursor: string | null }>;
}

export interface MailAttachment {
  fileName: string;
  contentType: string;
  content: Uint8Array;
}

/** An e-mail. Without `from` the deployment's sender (MAIL_FROM) is used. */
export interface MailMessage {
  to: string[];
  replyTo?: string[];
  from?: string;
  subject: string;
  text: string;
  html?: string;
  /** With attachments the message is sent as raw MIME (SES Content.Raw); without, as Content.Simple. */
  attachments?: MailAttachment[];
}

/** Outgoing e-mail: SES v2 in the cloud, aws-ses-v2-local on this machine (functions/adapters/mail.ts). */
export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
}

export const systemClock: Clock = { now: () => new Date() };

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

/** One debt position to pay now (paaSILInviaDovuti): amounts in integer cents. */
export interface MyPayPaymentItem {
  iud: string;
  amountCents: number;
  causale: string;
  datiSpecificiRiscossione: string;
  tipoDovuto: string;
  /** The position's IUV when it already has one (exported before). */
  iuv?: string;
}

export interface MyPayPayer {
  tipoIdentificativoUnivoco: 'F' | 'G';
  codiceIdentificativoUnivoco: string;
  anagrafica: string;
  email?: string;
}

export interface MyPayPaymentSession {
  idSession: string;
  /** Where to send the citizen to pay. */
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
  /** PAID: codiceEsitoPagamento 0; FAILED: 1; CANCELLED / PENDING: MyPay's PAA_PAGAMENTO_ANNULLATO / _IN_CORSO, _NON_INIZIATO. */
  status: 'PAID' | 'FAILED' | 'CANCELLED' | 'PENDING';
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
  importStatus(requestToken: string, files?: { scarti?: boolean; iuv?: boolean; avvisi?: boolean }): Promise<MyPayImportStatus>;
  download(url: string): Promise<Uint8Array>;
  startPayment(payer: MyPayPayer, items: MyPayPaymentItem[], returnUrl: string): Promise<MyPayPaymentSession>;
  paymentOutcome(idSession: string): Promise<MyPayPaymentOutcome>;
  /** Books the export of what was paid between the two dates (yyyy-MM-dd, inclusive), waits for it and reads it. */
  reportPaid(from: string, to: string): Promise<MyPayPaidRow[]>;
}

/**
 * The IO app (reference.md "IO app messages"): the profile check, then the message with payment data.
 * The adapter is functions/adapters/io.ts; locally it talks to lib/local/io-simulator.ts. Errors by name:
 * `IoRefused` (no IO profile, sender not allowed, message refused: reported, never retried) and
 * `IoUnavailable` (5xx or timeouts still failing after the adapter's retries with backoff).
 */
export interface IoMessages {
  sendMessage(fiscalCode: string, content: IoMessageContent): Promise<{ id: string }>;
}

/** What a query to INPS asks (the XSD's RicercaCFType): every field is sent, as reference.md says. */
export interface InpsRequest {
  fiscalCode: string;
  /** yyyy-mm-dd: the DSU valid on this day. */
  dataValidita: string;
  /** PrestazioneDaErogare (the deployment's INPS_BENEFIT_CODE). */
  benefitCode: string;
  /** ProtocolloDomandaEnteErogatore: the council's application number (domain/inps.ts applicationNumber). */
  applicationNumber: string;
  applicationState: InpsApplicationState;
  /** Who asks, for the audit information (AUDIT_REST_02) when the e-service wants it. */
  requestedBy?: { userID: string; LoA: string };
}

/**
 * INPS's ISEE e-services through PDND (reference.md "ISEE from INPS through PDND"). The adapter is
 * functions/adapters/inps-isee.ts (the voucher from functions/adapters/pdnd.ts); locally it talks to
 * lib/local/inps-simulator.ts. An Esito other than OK is in the answer; errors by name: `InpsUnavailable`,
 * `InpsMalformed`, `PdndUnavailable` (retry later), `InpsRefused`, `PdndRefused` (configuration).
 */
export interface InpsIsee {
  attestation(request: InpsRequest): Promise<InpsAnswer<InpsAttestation>>;
  indicator(request: InpsRequest, tipoIndicatore?: string): Promise<InpsAnswer<InpsIndicator>>;
}

