import type { AuditLog, Clock, IoMessages, Mailer } from '../adapters/ports.ts';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { DomainError, ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { flowMessages } from '../domain/flows.ts';
import { fill, messages, noticeMessages } from '../domain/messages.ts';
import {
  IO_NOT_DELIVERED,
  assertNoticeSendable,
  flowEmailMessage,
  ioMessageContent,
  isNoticeSendable,
  noticeEmail,
  noticePdfFileName,
  type FlowEmailResult,
} from '../domain/notices.ts';
import { noticePdfKey, type Period, type Position } from '../domain/payments.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { FlowRecord } from '../flows/use-cases.ts';

type PositionKey = Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>;

export interface NoticePositions {
  getPositionByIud(iud: string): Promise<PositionRecord | null>;
  /** One page of a call's month (the flow e-mail walks it page by page). */
  listPositions(callId: string, period: Period, page: { limit?: number; cursor?: string }): Promise<Page<Position>>;
  /** null when the position is gone, paid or cancelled meanwhile. */
  recordNoticeEmail(position: PositionKey, at: string): Promise<PositionRecord | null>;
  recordIoMessage(position: PositionKey, ioId: string, at: string, keepSent?: boolean): Promise<PositionRecord | null>;
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
  flows: { getFlow(id: string): Promise<FlowRecord | null>; updateFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord> };
  /** MyPay's notice PDF of a position (the exports bucket, `noticePdfKey(iud)`); null when there is none. */
  noticePdf(key: string): Promise<Uint8Array | null>;
  mailer: Mailer;
  io: IoMessages;
  /** The council's fiscal code: the payee of every IO payment (deployment setting IO_PAYEE_FISCAL_CODE). */
  payeeFiscalCode(): string;
  audit: AuditLog;
  clock: Clock;
  /** Elapsed-time source for the flow e-mail's budget (ms); Date.now by default. */
  elapsed?: () => number;
}

/** A slice of the flow e-mail: a run's start (positions e-mailed since then are done) and the page to read next. */
interface FlowEmailCursor {
  since: string;
  page: string | null;
}
const encodeFlowCursor = (cursor: FlowEmailCursor) => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
function decodeFlowCursor(text: string): FlowEmailCursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (typeof value?.since === 'string' && !Number.isNaN(Date.parse(value.since)) && (value.page === null || typeof value.page === 'string')) return value;
  } catch {
    // below
  }
  throw new ValidationError(messages.invalidCursor);
}

/** How the flow e-mail's progress is kept on the flow item between requests (and job slices). */
export interface FlowEmailRun {
  startedAt: string;
  cursor: string | null;
  sent: number;
  skipped: number;
  failed: number;
  finishedAt: string | null;
}

/** Positions read per page and e-mails in flight at once. */
const FLOW_PAGE = 25;
const MAILS_AT_ONCE = 5;
/** What one API request spends on the flow e-mail before answering 202 (the HTTP API stops at 29 s). */
export const FLOW_EMAIL_REQUEST_BUDGET_MS = 20_000;

const unavailable = (detail: string) => new DomainError(503, 'Servizio non disponibile', detail);

export function makeNoticeUseCases(deps: NoticeDeps) {
  const { positions, users, flows, noticePdf, mailer, io, payeeFiscalCode, audit, clock } = deps;
  const elapsed = deps.elapsed ?? (() => Date.now());

  const requirePosition = async (iud: string) => (await positions.getPositionByIud(iud)) ?? Promise.reject(new NotFoundError(noticeMessages.positionNotFound));
  const publicView = (record: PositionRecord): Position => {
    const { exportedAt: _e, iseeId: _i, version: _v, ...position } = record as PositionRecord & { exportedAt?: unknown };
    return position as Position;
  };

  /**
   * Sends one position's notice e-mail; throws the Italian reason when it cannot (409) or SES fails (503).
   * Records isEmailSent and the date (a second send moves it) and audits the change.
   */
  async function mailOne(position: Position | PositionRecord, recipient: NoticeRecipient | undefined, actor: Actor): Promise<PositionRecord> {
    assertNoticeSendable(position);
    const email = recipient?.email?.trim();
    if (!recipient || !email) throw new ConflictError(noticeMessages.noEmail);
    const pdf = await noticePdf(noticePdfKey(position.iud));
    if (!pdf) throw new ConflictError(noticeMessages.noPdf);
    const { subject, text } = noticeEmail(position, recipient);
    try {
      await mailer.send({ to: [email], subject, text, attachments: [{ fileName: noticePdfFileName(position.nav), contentType: 'application/pdf', content: pdf }] });
    } catch {
      throw unavailable(noticeMessages.mailFailed);
    }
    const now = clock.now();
    const after = await positions.recordNoticeEmail(position, now.toISOString());
    if (!after) throw new ConflictError(noticeMessages.paid);
    await audit.record({ actor, entity: 'position', id: position.iud, action: 'update', before: position, after }, now);
    return after;
  }

  /**
   * One bounded slice of the flow e-mail: from `cursor` (or a new run), pages of the flow's month until the
   * list ends or `budgetMs` is spent. Every sendable position (exported, unpaid, not cancelled; only the
   * flow's citizen for a single payment) gets its notice once per run: a position e-mailed since the run
   * began is skipped, so a slice cut short and run again sends nothing twice.
   */
  async function sendFlowEmails(flowId: string, options: { cursor: string | null; budgetMs: number }, actor: Actor): Promise<{ sent: number; skipped: number; failed: number; nextCursor: string | null }> {
    const found = await flows.getFlow(flowId);
    if (!found) throw new NotFoundError(flowMessages.notFound);
    // A running or stopped flow has no verdict yet; a completed one may have had nothing to send (no notices).
    if (found.step !== 'COMPLETATO') throw new ConflictError(noticeMessages.flowNotCollected);
    const started = elapsed();
    let state: FlowEmailCursor = options.cursor ? decodeFlowCursor(options.cursor) : { since: clock.now().toISOString(), page: null };
    const totals = { sent: 0, skipped: 0, failed: 0 };
    for (;;) {
      const page = await positions.listPositions(found.announcement.id, { mese: found.mese, anno: found.anno }, { limit: FLOW_PAGE, cursor: state.page ?? undefined });
      const due = page.items.filter(
        (p) => isNoticeSendable(p) && (!found.fiscalCode || p.fiscalCode === found.fiscalCode) && !(p.dataIsEmailSent && p.dataIsEmailSent >= state.since),
      );
      totals.skipped += page.items.length - due.length;
      const recipients = due.length ? await users.getUserItems([...new Set(due.map((p) => p.userId))]) : new Map<string, NoticeRecipient>();
      for (let i = 0; i < due.length; i += MAILS_AT_ONCE) {
        const outcomes = await Promise.allSettled(due.slice(i, i + MAILS_AT_ONCE).map((p) => mailOne(p, recipients.get(p.userId), actor)));
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
      assertNoticeSendable(position);
      const recipient = (await users.getUserItems([position.userId])).get(position.userId);
      return publicView(await mailOne(position, recipient, actor));
    },

    /**
     * POST /api/positions/{id}/io: the profile check, then the IO message with the payment data; the message
     * id becomes the position's ioId. A citizen without IO, or who does not allow the council, is reported
     * (409) and the position gets ioId '-1' unless a message went before; IO down after the retries: 503.
     */
    async sendToIo(iud: string, actor: Actor): Promise<Position> {
      const position = await requirePosition(iud);
      assertNoticeSendable(position);
      const content = ioMessageContent(position, payeeFiscalCode());
      let id: string;
      try {
        ({ id } = await io.sendMessage(position.fiscalCode, content));
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'IoRefused') {
          const { reason, detail } = error as Error & { reason: string; detail: string };
          if (reason === 'REJECTED') throw new DomainError(422, 'Messaggio rifiutato', fill(noticeMessages.ioRefused, { reason: detail || 'richiesta non valida' }));
          const now = clock.now();
          const after = await positions.recordIoMessage(position, IO_NOT_DELIVERED, now.toISOString(), true);
          if (after) await audit.record({ actor, entity: 'position', id: iud, action: 'update', before: position, after }, now);
          throw new ConflictError(reason === 'NO_PROFILE' ? noticeMessages.ioNoProfile : noticeMessages.ioSenderNotAllowed);
        }
        if (name === 'IoUnavailable') throw unavailable(noticeMessages.ioUnavailable);
        throw error;
      }
      const now = clock.now();
      const after = await positions.recordIoMessage(position, id, now.toISOString());
      if (!after) throw new ConflictError(noticeMessages.paid);
      await audit.record({ actor, entity: 'position', id: iud, action: 'update', before: position, after }, now);
      return publicView(after);
    },

    sendFlowEmails,

    /**
     * POST /api/flows/{id}/email ('send or resend the e-mail for all notices'): slices of the flow e-mail
     * until it ends or the request's budget is spent. Done: the flow records isEmailSent (200). Not done:
     * the progress is kept on the flow and the answer is 202; pressing the button again continues the same
     * run. A finished run pressed again starts a new one (everything is sent again: a resend).
     */
    async emailFlow(flowId: string, actor: Actor, budgetMs = FLOW_EMAIL_REQUEST_BUDGET_MS): Promise<FlowEmailResult> {
      const before = await flows.getFlow(flowId);
      if (!before) throw new NotFoundError(flowMessages.notFound);
      const previous = before.emailRun ?? null;
      const continuing = previous && previous.cursor ? previous : null;
      const run: FlowEmailRun = continuing ?? { startedAt: clock.now().toISOString(), cursor: null, sent: 0, skipped: 0, failed: 0, finishedAt: null };
      const slice = await sendFlowEmails(flowId, { cursor: run.cursor, budgetMs }, actor);
      const nowDate = clock.now();
      const now = nowDate.toISOString();
      const next: FlowEmailRun = {
        startedAt: run.startedAt,
        cursor: slice.nextCursor,
        sent: run.sent + slice.sent,
        skipped: run.skipped + slice.skipped,
        failed: run.failed + slice.failed,
        finishedAt: slice.nextCursor ? null : now,
      };
      const done = !slice.nextCursor;
      const after = await flows.updateFlow(flowId, done ? { emailRun: next, isEmailSent: next.sent > 0 || before.isEmailSent, dataIsEmailSent: next.sent > 0 ? now : (before.dataIsEmailSent ?? null) } : { emailRun: next }, now);
      if (done) await audit.record({ actor, entity: 'flow', id: flowId, action: 'update', before, after }, nowDate);
      return { done, sent: next.sent, skipped: next.skipped, failed: next.failed, message: flowEmailMessage({ done, sent: next.sent }) };
    },
  };
}

export type NoticeUseCases = ReturnType<typeof makeNoticeUseCases>;
