import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { IoMessages, IoMessageStatus } from '../adapters/ports/io.ts';
import type { Mailer } from '../adapters/ports/mail.ts';
import { noMetrics, type BusinessMetrics } from '../adapters/ports/metrics.ts';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { FLOW_EMAIL_JOB, jobStatusOf, unfinishedRun, type BackgroundJobs, type JobRecord } from '../domain/jobs.ts';
import { DomainError, ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { flowMessages } from '../domain/flows.ts';
import { fill, messages, noticeMessages } from '../domain/messages.ts';
import { ioSentBefore } from '../domain/position-rules.ts';
import {
  IO_NOT_DELIVERED,
  IO_NOTICE_NUMBER,
  romeDateTime,
  assertNoticeSendable,
  flowEmailMessage,
  ioMessageContent,
  isNoticeSendable,
  noticeEmail,
  noticePdfFileName,
  noticeWords,
} from '../domain/notices.ts';
import type { PaymentPlatformName, PrintedNotice } from '../domain/payment-platform.ts';
import type { FlowEmailResult } from '../domain/notice-schemas.ts';
import { formatEuro, toEuros } from '../domain/money.ts';
import type { IoStatus, Period, Position } from '../domain/payments.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { FlowEmailRun, FlowRecord } from '../domain/flow-record.ts';

type PositionKey = Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>;

export interface NoticePositions {
  getPositionByIud(iud: string): Promise<PositionRecord | null>;
  /** One page of a call's month (the flow e-mail walks it page by page). */
  listPositions(callId: string, period: Period, page: { limit?: number; cursor?: string }): Promise<Page<Position>>;
  /**
   * null when the position is gone, paid or cancelled meanwhile. The citizen's row of the payment list
   * follows (its 'Email non inviata' filter and totals: the writer's projection).
   */
  recordNoticeEmail(position: PositionKey, at: string): Promise<PositionRecord | null>;
  /** The IO message id ('-1': none created) and its status; `keepDelivered` keeps a message IO delivered before. */
  recordIoMessage(
    position: PositionKey,
    outcome: { ioId: string; ioStatus: IoStatus },
    at: string,
    keepDelivered?: boolean,
  ): Promise<PositionRecord | null>;
  /** The IO fields as they were before an attempt IO refused (null when the position is gone, paid or cancelled). */
  restoreIoMessage(
    position: PositionKey,
    fields: { ioId: string | null; ioStatus: IoStatus | null; dataIoSent: string | null },
    at: string,
  ): Promise<PositionRecord | null>;
  /** IO's later status of the message `ioId` (null when the position holds another message, or is paid or cancelled). */
  recordIoStatus(position: PositionKey, ioId: string, ioStatus: IoStatus, at: string): Promise<PositionRecord | null>;
}

export interface NoticeRecipient {
  firstName: string;
  lastName: string;
  fiscalCode: string;
  email?: string | null;
}

export interface NoticeDeps {
  positions: NoticePositions;
  users: { getUserItems(ids: readonly string[]): Promise<Map<string, NoticeRecipient>> };
  flows: {
    getFlow(id: string): Promise<FlowRecord | null>;
    updateFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord>;
  };
  /**
   * The notice of a position, its PDF and the due day it prints (the deployment's PlatformNotices: MyPay's PDF out of
   * its flow's AVVISI ZIP, `zipKey` first when given; GPD's printed by the portal); null when there is none.
   */
  notice(position: Position | PositionRecord, zipKey?: string | null): Promise<PrintedNotice | null>;
  /** The due day the notice prints (PlatformNotices.dueDay): the IO message gives the same day as the PDF. */
  noticeDueDay(position: PositionRecord): string;
  /** The platform the positions went to: what the refusals tell the operator to do (MyPay by default). */
  platform?: PaymentPlatformName;
  mailer: Mailer;
  io: IoMessages;
  audit: AuditLog;
  clock: Clock;
  /** Elapsed-time source for the flow e-mail's budget and pace and the IO send's budget (epoch ms, the IO adapter's clock); Date.now by default. */
  elapsed?: () => number;
  /** Waits between IO status reads and for the flow e-mail's pace (setTimeout by default). */
  sleep?: (ms: number) => Promise<void>;
  /** NoticesSent and NoticesFailed by channel (functions/domain/business-metrics.ts). */
  metrics?: BusinessMetrics;
  /** The background jobs (functions/jobs): the flow e-mail runs as the kind 'flow-email', keyed by flow (the API function only). */
  jobs?: BackgroundJobs;
}

/** What one slice of the job spends before handing over to the next (the job function stops at 5 minutes). */
export const FLOW_EMAIL_SLICE_MS = 60_000;

/** A slice of the flow e-mail: a run's start (positions e-mailed since then are done) and the page to read next. */
interface FlowEmailCursor {
  since: string;
  page: string | null;
}
const encodeFlowCursor = (cursor: FlowEmailCursor) => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
function decodeFlowCursor(text: string): FlowEmailCursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      typeof value?.since === 'string' &&
      !Number.isNaN(Date.parse(value.since)) &&
      (value.page === null || typeof value.page === 'string')
    )
      return value;
  } catch {
    // below
  }
  throw new ValidationError(messages.invalidCursor);
}

/** Positions read per page and e-mails in flight at once. */
const FLOW_PAGE = 25;
const MAILS_AT_ONCE = 5;

const unavailable = (detail: string) => new DomainError(503, 'Servizio non disponibile', detail);

/**
 * What one send to IO may take in all, from the profile check to the last status read: the API function has
 * 29 s, and DynamoDB and the audit need the rest.
 */
export const IO_SEND_BUDGET_MS = 20_000;
/** 'Verifica' (one status read, retried within this). */
export const IO_STATUS_BUDGET_MS = 8_000;
/**
 * After IO's 201, the waits before each status read: IO processes a message from a queue within seconds, so
 * about 6 s in all; a message still on its way then reads 'In consegna su IO' and 'Verifica' reads it later.
 */
export const IO_STATUS_WAITS_MS = [300, 700, 1000, 1500, 2500] as const;
const decided = (status: IoMessageStatus) => status === 'PROCESSED' || status === 'REJECTED' || status === 'FAILED';

/** An IO failure that is not about this citizen, as the operator's Italian reason (IoRefused, IoUnavailable). */
function ioProblem(
  error: Error & { reason?: string; detail?: string; maxAllowed?: number | null; retryAfterSeconds?: number | null },
  amount: number,
): DomainError | null {
  if (error.name === 'IoUnconfirmed') return new ConflictError(noticeMessages.ioUnconfirmed);
  if (error.name === 'IoUnavailable') {
    return unavailable(
      error.retryAfterSeconds
        ? fill(noticeMessages.ioBusy, { seconds: error.retryAfterSeconds })
        : noticeMessages.ioUnavailable,
    );
  }
  if (error.name !== 'IoRefused') return null;
  const configuration = (detail: string) => new DomainError(502, 'Configurazione IO da verificare', detail);
  switch (error.reason) {
    case 'AMOUNT_NOT_ALLOWED':
      return new DomainError(
        422,
        'Messaggio rifiutato',
        fill(noticeMessages.ioAmountNotAllowed, {
          amount: formatEuro(toEuros(amount)),
          max: formatEuro(toEuros(error.maxAllowed ?? 0)),
        }),
      );
    case 'RECIPIENT_NOT_AUTHORIZED':
      return configuration(noticeMessages.ioRecipientNotAuthorized);
    case 'FORBIDDEN':
      return configuration(noticeMessages.ioForbidden);
    case 'UNAUTHORIZED':
      return configuration(noticeMessages.ioUnauthorized);
    case 'NOT_FOUND':
      return configuration(noticeMessages.ioNotFound);
    case 'REJECTED':
      return new DomainError(
        422,
        'Messaggio rifiutato',
        fill(noticeMessages.ioRefused, { reason: error.detail || 'richiesta non valida' }),
      );
    default:
      return null;
  }
}

export function makeNoticeUseCases(deps: NoticeDeps) {
  const { positions, users, flows, notice, noticeDueDay, mailer, io, audit, clock, metrics = noMetrics } = deps;
  const words = noticeWords(deps.platform ?? 'mypay');
  const elapsed = deps.elapsed ?? (() => Date.now());
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const requirePosition = async (iud: string) =>
    (await positions.getPositionByIud(iud)) ?? Promise.reject(new NotFoundError(noticeMessages.positionNotFound));
  const publicView = (record: PositionRecord): Position => {
    const {
      exportedAt: _e,
      iseeId: _i,
      version: _v,
      noticeZip: _z,
      ...position
    } = record as PositionRecord & { exportedAt?: unknown };
    return position as Position;
  };

  /**
   * Sends one position's notice e-mail; throws the Italian reason when it cannot (409) or SES fails (503).
   * Records isEmailSent and the date (a second send moves it) and audits the change.
   */
  async function mailOne(
    position: Position | PositionRecord,
    recipient: NoticeRecipient | undefined,
    actor: Actor,
    zipKey: string | null = null,
  ): Promise<PositionRecord> {
    assertNoticeSendable(position, words);
    const email = recipient?.email?.trim();
    if (!recipient || !email) throw new ConflictError(noticeMessages.noEmail);
    const printed = await notice(position, zipKey);
    if (!printed) throw new ConflictError(words.noPdf);
    // The text's due date is the one the attached notice prints.
    const { subject, text } = noticeEmail(position, recipient, printed.dueDay);
    try {
      await mailer.send({
        to: [email],
        subject,
        text,
        attachments: [
          { fileName: noticePdfFileName(position.nav), contentType: 'application/pdf', content: printed.pdf },
        ],
      });
    } catch {
      metrics.count('NoticesFailed', 1, { notice: 'email' });
      throw unavailable(noticeMessages.mailFailed);
    }
    metrics.count('NoticesSent', 1, { notice: 'email' });
    const now = clock.now();
    const after = await positions.recordNoticeEmail(position, now.toISOString());
    if (!after) throw new ConflictError(noticeMessages.paid);
    await audit.record({ actor, entity: 'position', id: position.iud, action: 'update', before: position, after }, now);
    return after;
  }

  /** Records an IO outcome and audits it; null when the position is paid, cancelled or keeps a delivered message. */
  async function recordIo(
    position: PositionRecord,
    outcome: { ioId: string; ioStatus: IoStatus },
    actor: Actor,
    keepDelivered = false,
  ) {
    const now = clock.now();
    const after = await positions.recordIoMessage(position, outcome, now.toISOString(), keepDelivered);
    if (after)
      await audit.record(
        { actor, entity: 'position', id: position.iud, action: 'update', before: position, after },
        now,
      );
    return after;
  }

  /** Records IO's later status of the message `ioId` and audits it; null when the position changed meanwhile. */
  async function recordStatus(position: PositionRecord, ioId: string, ioStatus: IoStatus, actor: Actor) {
    const now = clock.now();
    const after = await positions.recordIoStatus(position, ioId, ioStatus, now.toISOString());
    if (after)
      await audit.record(
        { actor, entity: 'position', id: position.iud, action: 'update', before: position, after },
        now,
      );
    return after;
  }

  /** Puts back the IO fields a recorded attempt replaced, once IO said it created no message. */
  async function restoreIo(attempt: PositionRecord, before: PositionRecord, actor: Actor) {
    const now = clock.now();
    const after = await positions.restoreIoMessage(
      before,
      { ioId: before.ioId ?? null, ioStatus: before.ioStatus ?? null, dataIoSent: before.dataIoSent ?? null },
      now.toISOString(),
    );
    if (after)
      await audit.record({ actor, entity: 'position', id: before.iud, action: 'update', before: attempt, after }, now);
  }

  /**
   * One bounded slice of the flow e-mail: from `cursor` (or a new run), pages of the flow's month until the
   * list ends or `budgetMs` is spent. Every sendable position (exported, unpaid, not cancelled; only the
   * flow's citizen for a single payment) gets its notice once per run: a position e-mailed since the run
   * began is skipped, so a slice cut short and run again sends nothing twice.
   */
  async function sendFlowEmails(
    flowId: string,
    options: { cursor: string | null; budgetMs: number; since?: string },
    actor: Actor,
  ): Promise<{ sent: number; skipped: number; failed: number; nextCursor: string | null }> {
    const found = await flows.getFlow(flowId);
    if (!found) throw new NotFoundError(flowMessages.notFound);
    // A running or stopped flow has no verdict yet; a completed one may have had nothing to send (no notices).
    if (found.step !== 'COMPLETATO') throw new ConflictError(noticeMessages.flowNotCollected);
    const started = elapsed();
    let state: FlowEmailCursor = options.cursor
      ? decodeFlowCursor(options.cursor)
      : { since: options.since ?? clock.now().toISOString(), page: null };
    const totals = { sent: 0, skipped: 0, failed: 0 };
    // SES refuses what goes past the account's sending rate: each message waits for its turn (1/rate apart).
    const rate = (await mailer.maxSendRate?.()) ?? Number.POSITIVE_INFINITY;
    const gapMs = rate > 0 && Number.isFinite(rate) ? 1000 / rate : 0;
    let nextTurn = elapsed();
    const inTurn = async <T>(send: () => Promise<T>): Promise<T> => {
      const turn = Math.max(nextTurn, elapsed());
      nextTurn = turn + gapMs;
      const wait = turn - elapsed();
      if (wait > 0) await sleep(wait);
      return send();
    };
    for (;;) {
      const page = await positions.listPositions(
        found.announcement.id,
        { mese: found.mese, anno: found.anno },
        { limit: FLOW_PAGE, cursor: state.page ?? undefined },
      );
      const due = page.items.filter(
        (p) =>
          isNoticeSendable(p) &&
          (!found.fiscalCode || p.fiscalCode === found.fiscalCode) &&
          !(p.dataIsEmailSent && p.dataIsEmailSent >= state.since),
      );
      totals.skipped += page.items.length - due.length;
      const recipients = due.length
        ? await users.getUserItems([...new Set(due.map((p) => p.userId))])
        : new Map<string, NoticeRecipient>();
      for (let i = 0; i < due.length; i += MAILS_AT_ONCE) {
        const outcomes = await Promise.allSettled(
          due
            .slice(i, i + MAILS_AT_ONCE)
            .map((p) => inTurn(() => mailOne(p, recipients.get(p.userId), actor, found.files?.avvisi ?? null))),
        );
        for (const outcome of outcomes) totals[outcome.status === 'fulfilled' ? 'sent' : 'failed'] += 1;
      }
      state = { ...state, page: page.nextCursor };
      if (!page.nextCursor) return { ...totals, nextCursor: null };
      if (elapsed() - started >= options.budgetMs) return { ...totals, nextCursor: encodeFlowCursor(state) };
    }
  }

  return {
    /** POST /api/positions/{id}/email: the notice e-mail of one position, with MyPay's PDF attached. */
    async emailNotice(iud: string, actor: Actor): Promise<Position> {
      const position = await requirePosition(iud);
      assertNoticeSendable(position, words);
      const recipient = (await users.getUserItems([position.userId])).get(position.userId);
      return publicView(await mailOne(position, recipient, actor));
    },

    /**
     * POST /api/positions/{id}/io: the profile check, then the IO message with the payment data; the message
     * id becomes the position's ioId at once (ACCEPTED), then IO's status is read for a few seconds and
     * recorded: PROCESSED is 'Inviato su IO', a message still on its way stays ACCEPTED ('Verifica' reads it
     * later). A citizen without IO or who does not allow the council (no message created: ioId '-1'), and a
     * message IO rejects or fails after accepting it, are a 409 with the reason; a message delivered before
     * is kept then. The amount above the service's ceiling and IO's other 400s: 422; the key's permissions,
     * IP or trial recipients: 502; IO down, or asking to wait longer than the time left: 503. All within
     * IO_SEND_BUDGET_MS.
     *
     * Never twice by itself (IO has no idempotency key): the attempt is recorded ('UNCONFIRMED') just before the
     * message is posted, and a POST that gets no clear answer leaves it so — 409 'Invio non confermato', for the
     * operator to check with the citizen. A notice sent before (or maybe sent) goes again only with `resend`
     * (409 otherwise, saying when it was sent). An invalid notice number is refused before IO is asked.
     */
    async sendToIo(iud: string, actor: Actor, options: { resend?: boolean } = {}): Promise<Position> {
      const position = await requirePosition(iud);
      assertNoticeSendable(position, words);
      if (!IO_NOTICE_NUMBER.test(position.nav))
        throw new ConflictError(fill(noticeMessages.ioInvalidNotice, { nav: position.nav }));
      // IO has no idempotency key: a second message is the operator's choice, made knowing the first.
      if (ioSentBefore(position) && !options.resend) {
        const date = position.dataIoSent ? romeDateTime(position.dataIoSent) : 'una data non registrata';
        throw new ConflictError(
          fill(
            position.ioStatus === 'UNCONFIRMED'
              ? noticeMessages.ioAlreadySentUnconfirmed
              : noticeMessages.ioAlreadySent,
            { date },
          ),
        );
      }
      const deadline = elapsed() + IO_SEND_BUDGET_MS;
      let attempt: PositionRecord | null = null;
      let id: string;
      try {
        ({ id } = await io.sendMessage(position.fiscalCode, ioMessageContent(position, noticeDueDay(position)), {
          deadline,
          // Recorded before the message is posted: if the answer never comes (or this function dies), the
          // position reads 'Invio non confermato', never 'not sent'.
          beforeMessage: async () => {
            attempt = await recordIo(position, { ioId: IO_NOT_DELIVERED, ioStatus: 'UNCONFIRMED' }, actor);
            if (!attempt) throw new ConflictError(noticeMessages.paid);
          },
        }));
      } catch (error) {
        const reason = (error as Error & { reason?: string }).reason;
        if ((error as Error).name === 'IoUnconfirmed') {
          metrics.count('NoticesFailed', 1, { notice: 'io' });
          throw new ConflictError(noticeMessages.ioUnconfirmed);
        }
        // IO answered that it created nothing: the attempt recorded before is put back as it was.
        if (attempt) await restoreIo(attempt, position, actor);
        if ((error as Error).name === 'IoRefused' && (reason === 'NO_PROFILE' || reason === 'SENDER_NOT_ALLOWED')) {
          await recordIo(position, { ioId: IO_NOT_DELIVERED, ioStatus: reason }, actor, true);
          throw new ConflictError(
            reason === 'NO_PROFILE' ? noticeMessages.ioNoProfile : noticeMessages.ioSenderNotAllowed,
          );
        }
        if (error instanceof DomainError) throw error;
        // The citizen without IO above is not a failure of IO; what follows is.
        metrics.count('NoticesFailed', 1, { notice: 'io' });
        throw ioProblem(error as Error, position.importoDovuto) ?? error;
      }
      // Stored before anything else can fail: the citizen may already have it.
      const accepted = await recordIo(attempt ?? position, { ioId: id, ioStatus: 'ACCEPTED' }, actor);
      if (!accepted) throw new ConflictError(noticeMessages.paid);

      let status: IoMessageStatus = 'ACCEPTED';
      for (const wait of IO_STATUS_WAITS_MS) {
        if (elapsed() + wait >= deadline) break;
        await sleep(wait);
        try {
          status = await io.messageStatus(position.fiscalCode, id, { deadline });
        } catch {
          break; // The message went: its status can be read later ('Verifica').
        }
        if (decided(status)) break;
      }
      if (status === 'ACCEPTED') {
        metrics.count('NoticesSent', 1, { notice: 'io' });
        return publicView(accepted);
      }
      const after = (await recordStatus(accepted, id, status, actor)) ?? accepted;
      metrics.count(status === 'REJECTED' || status === 'FAILED' ? 'NoticesFailed' : 'NoticesSent', 1, {
        notice: 'io',
      });
      if (status === 'REJECTED') throw new ConflictError(noticeMessages.ioRejected);
      if (status === 'FAILED') throw new ConflictError(noticeMessages.ioFailed);
      return publicView(after);
    },

    /**
     * POST /api/positions/{id}/io/status ('Verifica'): IO's status of the position's message, read now and
     * recorded when it changed (a message 'In consegna su IO' becomes 'Inviato su IO' or not sent, with why).
     */
    async refreshIoStatus(iud: string, actor: Actor): Promise<Position> {
      const position = await requirePosition(iud);
      const ioId = position.ioId;
      if (!ioId || ioId === IO_NOT_DELIVERED) throw new ConflictError(noticeMessages.ioNoMessage);
      let status: IoMessageStatus;
      try {
        status = await io.messageStatus(position.fiscalCode, ioId, { deadline: elapsed() + IO_STATUS_BUDGET_MS });
      } catch (error) {
        throw ioProblem(error as Error, position.importoDovuto) ?? error;
      }
      if (status === position.ioStatus) return publicView(position);
      return publicView((await recordStatus(position, ioId, status, actor)) ?? (await requirePosition(iud)));
    },

    sendFlowEmails,

    /**
     * POST /api/flows/{id}/email ('send or resend the e-mail for all notices'): starts the background job
     * that e-mails every notice of the flow (FLOW_EMAIL_JOB), or joins the one running on this flow; it goes
     * on if the browser closes. The answer is the run's progress (GET .../email polls it). A run started
     * after a finished one sends everything again (a resend); within one run a position gets one e-mail. A run
     * that did not finish (a slice failed or was cut at its timeout, the jobs' machine ended it at its two-hour
     * limit) is resumed: same start, from its cursor, so whoever it e-mailed gets nothing twice.
     */
    async startFlowEmail(flowId: string, actor: Actor): Promise<FlowEmailResult> {
      const flow = await flows.getFlow(flowId);
      if (!flow) throw new NotFoundError(flowMessages.notFound);
      if (flow.step !== 'COMPLETATO') throw new ConflictError(noticeMessages.flowNotCollected);
      const jobs = requireJobs();
      const unfinished = unfinishedRun((await jobs.status(FLOW_EMAIL_JOB, flowId)).job, clock.now());
      const input = unfinished
        ? {
            flowId,
            since: typeof unfinished.input.since === 'string' ? unfinished.input.since : unfinished.startedAt,
            ...(unfinished.cursor ? { resumeCursor: unfinished.cursor } : {}),
          }
        : { flowId, since: clock.now().toISOString() };
      const job = await jobs.start(FLOW_EMAIL_JOB, flowId, input, actor);
      if (job)
        await audit.record(
          { actor, entity: 'job', id: job.id, action: 'create', before: null, after: job },
          clock.now(),
        );
      return flowEmailProgress(await jobs.status(FLOW_EMAIL_JOB, flowId), flow);
    },

    /** GET /api/flows/{id}/email: how far the flow's e-mail run is (the flows page polls it while it runs). */
    async flowEmailStatus(flowId: string): Promise<FlowEmailResult> {
      const flow = await flows.getFlow(flowId);
      if (!flow) throw new NotFoundError(flowMessages.notFound);
      return flowEmailProgress(await requireJobs().status(FLOW_EMAIL_JOB, flowId), flow);
    },

    /**
     * One slice of the job 'flow-email': sendFlowEmails from the job's cursor for FLOW_EMAIL_SLICE_MS, its
     * counts added to the flow's run; the last one records isEmailSent on the flow (audited). A slice run
     * twice, or a resumed run, sends nothing twice (positions e-mailed since the run began are skipped).
     */
    async flowEmailSlice(
      input: Record<string, unknown>,
      cursor: string | null,
      actor: Actor,
    ): Promise<{ cursor: string | null; done: number; total: number | null }> {
      const flowId = String(input.flowId ?? '');
      const before = await flows.getFlow(flowId);
      if (!before) throw new NotFoundError(flowMessages.notFound);
      const since = typeof input.since === 'string' ? input.since : undefined;
      const from = cursor ?? (typeof input.resumeCursor === 'string' ? input.resumeCursor : null);
      const slice = await sendFlowEmails(flowId, { cursor: from, since, budgetMs: FLOW_EMAIL_SLICE_MS }, actor);
      const nowDate = clock.now();
      const now = nowDate.toISOString();
      // The counts so far of this run (a resumed run's too: its e-mails went since it began).
      const previous =
        cursor !== null || (since && before.emailRun && before.emailRun.startedAt >= since)
          ? (before.emailRun ?? null)
          : null;
      const next: FlowEmailRun = {
        startedAt: previous?.startedAt ?? now,
        cursor: slice.nextCursor,
        sent: (previous?.sent ?? 0) + slice.sent,
        skipped: (previous?.skipped ?? 0) + slice.skipped,
        failed: (previous?.failed ?? 0) + slice.failed,
        finishedAt: slice.nextCursor ? null : now,
      };
      const finished = !slice.nextCursor;
      const after = await flows.updateFlow(
        flowId,
        finished
          ? {
              emailRun: next,
              isEmailSent: next.sent > 0 || before.isEmailSent,
              dataIsEmailSent: next.sent > 0 ? now : (before.dataIsEmailSent ?? null),
            }
          : { emailRun: next },
        now,
      );
      if (finished) await audit.record({ actor, entity: 'flow', id: flowId, action: 'update', before, after }, nowDate);
      return { cursor: slice.nextCursor, done: next.sent + next.skipped + next.failed, total: null };
    },
  };

  function requireJobs(): BackgroundJobs {
    if (!deps.jobs) throw new Error('The flow e-mail needs the background jobs (deps.jobs)');
    return deps.jobs;
  }

  /** The run's state and counts: the flow's run only if it belongs to the latest job (a newer job starts at 0). */
  function flowEmailProgress(status: { job: JobRecord | null; running: boolean }, flow: FlowRecord): FlowEmailResult {
    const { job } = status;
    const { state } = jobStatusOf(status, noticeMessages.flowEmailFailed);
    const runStart = typeof job?.input.since === 'string' ? job.input.since : job?.startedAt;
    const run = runStart && flow.emailRun && flow.emailRun.startedAt >= runStart ? flow.emailRun : null;
    const counts = { sent: run?.sent ?? 0, skipped: run?.skipped ?? 0, failed: run?.failed ?? 0 };
    const error = state === 'FAILED' ? (job?.error ?? noticeMessages.flowEmailFailed) : null;
    const done = state !== 'RUNNING';
    return {
      done,
      ...counts,
      state,
      error,
      message: state === 'NONE' ? '' : (error ?? flowEmailMessage({ done, sent: counts.sent })),
    };
  }
}

export type NoticeUseCases = ReturnType<typeof makeNoticeUseCases>;
