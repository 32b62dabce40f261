import type { BusinessMetric, DimensionOf } from '../domain/business-metrics.ts';
import type { Configuration, StoredConfiguration } from '../domain/configuration.ts';
import type { summaryPersonOf } from '../domain/debt-summary-rules.ts';
import type { UploadRequest, UploadTicket } from '../domain/files.ts';
import type { InpsAnswer, InpsApplicationState, InpsAttestation, InpsIndicator } from '../domain/inps.ts';
import type { IoMessageContent } from '../domain/notices.ts';
import type { Period, Skipped } from '../domain/payments.ts';
import type { MyPayCsvRow } from '../domain/mypay-csv-format.ts';
import type { Actor } from '../domain/roles.ts';
import type { PlatformPosition } from '../domain/payment-platform.ts';
import type { EnrolmentFilters, EnrolmentRecordPage, SubscriptionRecord } from '../domain/subscription-record.ts';
import type { StoredUser, UserChanges, UserRecord } from '../domain/user-record.ts';
import type { NewUserInput } from '../domain/user-input.ts';
import type { User, UserSearch } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';

/**
 * What every use case may receive besides its repositories. The real adapters are wired once in each
 * entry (functions/entry/); the use-case tests pass in-memory ones (test/support/in-memory.ts).
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

/**
 * An item holds at most 400 KB, attribute names included (DynamoDB Developer Guide, "Constraints": Items;
 * "DynamoDB item sizes and formats"): an operation that changes many records at once (the hours reset, an
 * import's slice) is audited in entries whose changes take at most this many bytes as JSON, which is larger than
 * their size as an item (no quotes, one to three bytes of overhead per element there); the rest of the entry
 * (keys, who, what) takes under 2 KB.
 */
export const AUDIT_CHANGES_MAX_BYTES = 300 * 1024;

/**
 * One operation's changes cut into chunks whose audit (`audited`: what the entry keeps of a change, before and
 * after) takes at most AUDIT_CHANGES_MAX_BYTES, in order. Cut before the changes are written, so that an audit
 * entry can never be refused for its size after the data changed. A single change larger than that is a chunk
 * of its own.
 */
export function auditChunks<T>(
  changes: readonly T[],
  audited: (change: T) => unknown = (change) => change,
  maxBytes = AUDIT_CHANGES_MAX_BYTES,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 2;
  for (const change of changes) {
    const size = Buffer.byteLength(JSON.stringify(audited(change)) ?? 'null') + 1;
    if (current.length && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 2;
    }
    current.push(change);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
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
  historyOf(
    entity: string,
    id: string,
    page: { limit?: number; cursor?: string },
  ): Promise<{ items: StoredAuditEntry[]; nextCursor: string | null }>;
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
  /** How many messages a second the sender may send (SES: the account's SendQuota.MaxSendRate); none: no limit. */
  maxSendRate?(): Promise<number>;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The business metrics a use case counts as it does the work (functions/domain/business-metrics.ts names
 * them and says which take a dimension): Powertools Metrics (EMF) in Lambda (functions/adapters/observability.ts
 * `businessMetrics`), nothing locally, a recorder in the unit tests.
 */
export interface BusinessMetrics {
  count<M extends BusinessMetric>(
    metric: M,
    value: number,
    ...dimension: DimensionOf<M> extends undefined ? [] : [DimensionOf<M>]
  ): void;
}

/** For use cases built without metrics (a script, a benchmark). */
export const noMetrics: BusinessMetrics = { count: () => undefined };

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
  /** One position through paaSILImportaDovuto: the IUV MyPay generated (null if it generated none); a refusal is a MyPayFault. */
  importDovuto(row: MyPayCsvRow): Promise<{ iuv: string | null }>;
  /** A new checkout of a position MyPay holds (imported), by its IUV, back to `returnUrl`; null when MyPay has nothing payable for it. */
  /** `deadline` (epoch ms): the call ends before it (the caller's remaining time), as MyPayUnavailable. */
  openPositionCheckout(iuv: string, returnUrl: string, deadline?: number): Promise<MyPayPaymentSession | null>;
  paymentOutcome(idSession: string, deadline?: number): Promise<MyPayPaymentOutcome>;
  /** Books the export of what was paid between the two dates (yyyy-MM-dd, inclusive), waits for it and reads it. */
  reportPaid(from: string, to: string): Promise<MyPayPaidRow[]>;
}

/** IO's processing status of a message (io-functions-commons `MessageStatusValue`). */
export type IoMessageStatus = 'ACCEPTED' | 'THROTTLED' | 'PROCESSED' | 'REJECTED' | 'FAILED';

/**
 * The IO app (reference.md "IO app messages"): the profile check, then the message with payment data, then
 * its status. The adapter is functions/adapters/io.ts; locally it talks to lib/local/io-simulator.ts. Errors
 * by name: `IoRefused` (with its `reason`: the citizen's profile, the amount, the key's permissions, a 400;
 * reported, never retried), `IoUnavailable` (5xx, timeouts or a 429 still in the way when the time is up;
 * no message was posted) and `IoUnconfirmed` (the message's POST got no clear answer: IO may have created it,
 * and it is never posted again by itself). `deadline` (epoch ms): no call goes on past it; `beforeMessage`
 * runs just before the message is posted.
 */
export interface IoMessages {
  sendMessage(
    fiscalCode: string,
    content: IoMessageContent,
    options?: { deadline?: number; beforeMessage?: () => Promise<void> },
  ): Promise<{ id: string }>;
  messageStatus(fiscalCode: string, id: string, options?: { deadline?: number }): Promise<IoMessageStatus>;
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
  /** Epoch ms by which the answer (or the failure) must be back: the calling function's time budget. */
  deadline?: number;
}

/**
 * INPS's ISEE e-services through PDND (reference.md "ISEE from INPS through PDND"). The adapter is
 * functions/adapters/inps-isee.ts (the voucher from functions/adapters/pdnd.ts); locally it talks to
 * lib/local/inps-simulator.ts. An Esito other than OK is in the answer; errors by name: `InpsUnavailable`,
 * `InpsMalformed`, `PdndUnavailable` (retry later), `InpsRefused`, `PdndRefused` (configuration).
 */
export interface InpsIsee {
  /** Whether the council has the indicator e-service, and which attestation operation it calls. */
  settings: { hasIndicator: boolean; attestationOperation: string };
  attestation(request: InpsRequest): Promise<InpsAnswer<InpsAttestation>>;
  indicator(request: InpsRequest, tipoIndicatore?: string): Promise<InpsAnswer<InpsIndicator>>;
}

/**
 * The one port flows talks to positions through (functions/payments, functions/positions): whether a citizen
 * pays one of the month's positions, what an export would send, what to send, and MyPay's verdict on each row.
 * The call's export lock is flows' own: it says whether this flow holds it (`underLock`), positions never read it.
 */
/** What a flow asks of the month's export (one citizen only when fiscalCode is set; underLock: the flow holds the call's export lock). */
export interface MonthExportRequest {
  callId: string;
  mese: number;
  anno: number;
  fiscalCode: string | null;
  flowId: string;
  underLock: boolean;
}

export interface ExportPositions {
  /** Whether a citizen's MyPay checkout holds a position of the call (of one month, when given) at `now`. */
  hasLiveCheckouts(callId: string, month: { mese: number; anno: number } | null, now: string): Promise<boolean>;
  /** The MyPay import CSV of the call's month (one citizen only when fiscalCode is set), and how many rows it has. */
  buildExport(
    request: MonthExportRequest,
    actor: Actor,
  ): Promise<{ csv: string; rows: number; heldBack?: readonly Skipped[]; iseeIds?: readonly string[] }>;
  /**
   * GPD: the call's month's pending positions as the payment-platform port sends them (one citizen only when
   * fiscalCode is set), the IUVs of new ones reserved and saved on them first.
   */
  buildPlatformExport(
    request: MonthExportRequest,
    actor: Actor,
  ): Promise<{ positions: PlatformPosition[]; iseeIds?: readonly string[] }>;
  /** Marks these ISEEs as used for a fee (the ISEEs the month's fees came from: they can no longer be deleted). */
  markIsees(ids: readonly string[]): Promise<void>;
  /** IUV and NAV onto each accepted position, the reason onto each rejected one (idempotent). */
  recordResults(
    request: { callId: string; mese: number; anno: number; flowId: string; noticeZip: string | null },
    results: ExportResults,
  ): Promise<void>;
}

export interface ExportResults {
  /** `notice` false: MyPay made no notice PDF for it (MyPay4 makes one only for a row with flagGeneraIuv true). */
  accepted: { iud: string; iuv: string; nav: string; notice?: boolean }[];
  rejected: { iud: string; code: string; reason: string }[];
}

/** The exports bucket. */
export interface ExportFiles {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  /** A link of a few minutes that downloads the file (a ZIP unless another type is given). */
  downloadUrl(key: string, fileName: string, contentType?: string): Promise<string>;
}

/** The user pool's admin operations the command needs (functions/adapters/user-pool.ts). */
export interface UserPoolAdmin {
  /** The username of the user whose `sub` this is (ListUsers, Filter `sub = "…"`), or null when the pool has none. */
  usernameWithSub(sub: string): Promise<string | null>;
  /** The user's attributes now (AdminGetUser: ListUsers is only eventually consistent). */
  attributesOf(username: string): Promise<Record<string, string>>;
  groupsOf(username: string): Promise<string[]>;
  addToGroup(username: string, group: string): Promise<void>;
  removeFromGroup(username: string, group: string): Promise<void>;
  setAttribute(username: string, name: string, value: string): Promise<void>;
  deleteAttribute(username: string, name: string): Promise<void>;
}

/** The users' table (functions/users/repository.ts), for the use cases that read or write a user. */
export interface UserRepository {
  searchUsers(search: UserSearch): Promise<Page<User>>;
  countLoadedUsers(): Promise<number>;
  getUserItem(id: string): Promise<StoredUser | null>;
  findUserIdByFiscalCode(fiscalCode: string): Promise<string | null>;
  claimFiscalCode(fiscalCode: string, userId: string): Promise<boolean>;
  /** Records that a Cognito user (`sub`) signed in with the fiscal code (once; repository.ts recordSignIn). */
  recordSignIn(fiscalCode: string, sub: string, now: string): Promise<void>;
  releaseFiscalCode(fiscalCode: string, userId: string): Promise<void>;
  insertUser(record: UserRecord, now: string): Promise<boolean>;
  /** null when the fiscal code is taken. */
  createUser(input: NewUserInput, id: string, now: string): Promise<User | null>;
  updateUserFields(
    id: string,
    changes: UserChanges,
    now: string,
  ): Promise<{ before: StoredUser; after: StoredUser } | null>;
  /** False when the user is gone or gained an ISEE since it was read. */
  deleteUser(id: string, expected: { iseeCount: number }): Promise<boolean>;
}

/** The signed-in citizen's user id, the record created at the first sign-in (functions/users/use-cases.ts makeEnsureCitizen). */
export type EnsureCitizen = (actor: Actor) => Promise<string>;

/** A call's subscriptions as the enrolment table and the enrolment import read and write them (functions/subscriptions/repository*.ts). */
export interface EnrolmentRepository {
  getSubscription(callId: string, userId: string): Promise<SubscriptionRecord | null>;
  /** Conditional on `previous` (its dataUpdate and state), or on absence when null; false when it failed. */
  putSubscription(
    record: SubscriptionRecord,
    previous: SubscriptionRecord | null,
    counters?: boolean,
  ): Promise<boolean>;
  deleteSubscription(previous: SubscriptionRecord, counters?: boolean): Promise<boolean>;
  listEnrolments(callId: string, filters: EnrolmentFilters): Promise<EnrolmentRecordPage>;
  listAllSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]>;
  recountEnrolments(callId: string, records: SubscriptionRecord[]): Promise<void>;
}

/** The MyPay configuration (functions/configuration/repository.ts). */
export interface ConfigurationRepository {
  getConfiguration(): Promise<StoredConfiguration | null>;
  putConfiguration(values: Configuration, now: string): Promise<StoredConfiguration>;
}

/** A month's positions as the payment list refreshes them at once (functions/payment-list/month-refresh.ts). */
export interface MonthRefreshInput {
  callId: string;
  period: Period;
  /** The citizens whose position of the month was written. */
  userIds: readonly string[];
  /** Their user records (name, fiscal code, phone, e-mail on the row). */
  people: ReadonlyMap<string, Parameters<typeof summaryPersonOf>[0]>;
}

/**
 * What 'Sincronizza' asks of the payment list (functions/payment-list/use-cases.ts): its totals recomputed
 * from the rows. The rows follow the positions by themselves (functions/payment-list/projection.ts).
 */
export interface PaymentListSummaries {
  reconcileDebtTotals(callId: string, anno: number): Promise<unknown>;
}
