import {
  hold,
  publicPosition,
  release,
  verify,
  type PositionRecord,
  type Transition,
} from '../domain/positions/index.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { fill, messages, paymentOutcomeMessages } from '../domain/messages.ts';
import type { Position } from '../domain/payments.ts';
import { romeDateTime } from '../domain/notices.ts';
import { romeDay } from '../domain/period.ts';
import {
  CHECKOUT_HOLD_MS,
  checkoutBlockers,
  hasLiveCheckout,
  isPayable,
  isPayableOnline,
  isVerifyingPayment,
  paymentReturnPath,
  verifyingUntil,
  toPositionView,
  type CheckoutStatus,
  type PaymentReturn,
  type PositionView,
} from '../domain/position-payment.ts';
import { followUpTimes } from '../domain/reporting.ts';
import type { Actor } from '../domain/roles.ts';
import { userMessages } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import type { Clock, MyPay } from '../adapters/ports.ts';
import type { PaymentSettlement } from '../positions/settlement.ts';
import type { StoredUser } from '../domain/user-record.ts';
import type { PaymentSession } from './repository.ts';

/**
 * A citizen's debt positions and paying them through MyPay (issues 9, 21, 26), and the operators' view of
 * one citizen's positions (user record, 'Pagamenti'). 'Paga' sends the citizen to pay MyPay's own record of
 * the position (the adapter's openPositionCheckout) and holds the position while the checkout lives; the
 * return settles what MyPay says was paid through positions/settlement.ts, the use case the reporting shares.
 */
export interface UserPositionDeps {
  positions: {
    getPositionByIud(iud: string): Promise<PositionRecord | null>;
    listPositionsOfUser(
      userId: string,
      filter: { callId?: string },
      page: { limit?: number; cursor?: string },
    ): Promise<Page<Position>>;
    /** positions/repository.ts: the one writer (the checkout's hold and its release are transitions of the position). */
    applyTransition(transition: Transition): Promise<boolean>;
    /** payments/checkouts.ts: the call-level marker of a checkout. */
    putCheckoutMarker(position: PositionRecord, until: string): Promise<void>;
    deleteCheckoutMarker(position: PositionRecord): Promise<void>;
  };
  settlement: PaymentSettlement;
  users: {
    findUserIdByFiscalCode(fiscalCode: string): Promise<string | null>;
    getUserItem(id: string): Promise<StoredUser | null>;
  };
  sessions: {
    createPaymentSession(session: PaymentSession): Promise<void>;
    getPaymentSession(idSession: string): Promise<PaymentSession | null>;
    recordSessionOutcome(idSession: string, outcome: CheckoutStatus, at: string): Promise<void>;
  };
  mypay: Pick<MyPay, 'openPositionCheckout' | 'paymentOutcome'>;
  /** A short-lived link to the position's notice PDF when the exports bucket has it; null otherwise. */
  notices: { noticeUrl(position: Pick<Position, 'iud' | 'nav'>): Promise<string | null> };
  /** The portal's own address (the deployment setting PORTAL_URL): MyPay sends the citizen back there only. */
  portalUrl: () => string;
  /** Whether MyPay's payment type requires a due date (MYPAY_SCADENZA_OBBLIGATORIA): then a past one cannot be paid. */
  dueDateRequired: () => boolean;
  /** The reporting of the call a few minutes after a checkout starts (functions/reporting/schedule.ts sweeps them). */
  followUps?: { putFollowUp(callId: string, dueAt: string): Promise<void> };
  clock: Clock;
}

/** MyPay did not answer (or refused): the citizen is told to retry, nothing is written. */
const unavailable = (error: unknown): never => {
  if (error instanceof DomainError) throw error;
  const name = (error as Error)?.name;
  // paaSILVerificaAvviso: the due date passed on MyPay's record (its payment type requires one).
  if ((error as { faultCode?: string })?.faultCode === 'PAA_IUV_SCADUTO')
    throw new ConflictError(fill(paymentOutcomeMessages.blocked, { reasons: paymentOutcomeMessages.blockedPastDue }));
  if (name === 'MyPayUnavailable' || name === 'MyPayFault')
    throw new DomainError(503, 'Servizio non disponibile', paymentOutcomeMessages.unavailable);
  throw error;
};

/** Where MyPay sends the citizen back: the page the client named (a path, checked), on the portal's own address. */
export function paymentReturnUrl(returnPath: string, portalUrl: string): string {
  const path = paymentReturnPath(returnPath);
  if (!path) throw new ValidationError(messages.payment.returnUrl, { returnPath: messages.payment.returnUrl });
  return new URL(path, portalUrl).toString();
}

export function makeUserPositionUseCases(deps: UserPositionDeps) {
  const { positions, settlement, users, sessions, mypay, notices, portalUrl, dueDateRequired, clock } = deps;

  const view = async (position: Position): Promise<PositionView> =>
    toPositionView(position, await notices.noticeUrl(position), clock.now());
  /** The citizen's own view: the operators' note on a closed reconciliation (and who wrote it) is the office's. */
  const citizenView = ({ riconciliazioneChiusa: _closed, ...position }: Position) => view(position);
  const views = async (page: Page<Position>, toView = view): Promise<Page<PositionView>> => ({
    items: await Promise.all(page.items.map((p) => toView(p))),
    nextCursor: page.nextCursor,
  });
  const publicView = publicPosition;

  /** The signed-in citizen's user id, or null when the portal has no record of them (then they own nothing). */
  const citizenId = async (actor: Actor) => (actor.fiscalCode ? users.findUserIdByFiscalCode(actor.fiscalCode) : null);

  /** A position of this citizen; another citizen's, or none, is the same 404. */
  async function ownPosition(iud: string, actor: Actor): Promise<{ userId: string; position: PositionRecord }> {
    const userId = await citizenId(actor);
    const position = userId ? await positions.getPositionByIud(iud) : null;
    if (!userId || !position || position.userId !== userId) throw new NotFoundError(messages.payment.notFound);
    return { userId, position };
  }

  /** The live checkout of the position, to resume (two tabs, a double click): never a second payment. */
  const resume = (position: PositionRecord, now: Date) =>
    hasLiveCheckout(position, now) && position.checkoutSession && position.checkoutUrl
      ? { url: position.checkoutUrl, idSession: position.checkoutSession, resumed: true }
      : null;

  return {
    /** GET /api/me/positions: the citizen's own positions, newest month first (one call's, if asked). */
    async listMyPositions(
      query: { callId?: string; limit?: number; cursor?: string },
      actor: Actor,
    ): Promise<Page<PositionView>> {
      const userId = await citizenId(actor);
      if (!userId) return { items: [], nextCursor: null };
      const { callId, limit, cursor } = query;
      return views(await positions.listPositionsOfUser(userId, { callId }, { limit, cursor }), citizenView);
    },

    /**
     * POST /api/me/positions/{id}/pay ('Paga'): sends the citizen to pay MyPay's own record of the position
     * (imported: its notice number, its amount, its due date) and comes back to the named portal page. While
     * the checkout lives (CHECKOUT_HOLD_MS, or until its outcome is known) the position is held: a second
     * 'Paga' resumes the same checkout, and no edit, recalculation or export touches the position.
     */
    async pay(
      iud: string,
      body: { returnPath: string },
      actor: Actor,
      deadline?: number,
    ): Promise<{ url: string; idSession: string; resumed: boolean }> {
      const { userId, position } = await ownPosition(iud, actor);
      const now = clock.now();
      if (position.isPagato) throw new ConflictError(paymentOutcomeMessages.alreadyPaid);
      if (!isPayable(position)) throw new ConflictError(paymentOutcomeMessages.cancelled);
      // The last checkout's outcome is not known yet: the citizen may have paid, so no second payment starts.
      if (isVerifyingPayment(position, now))
        throw new ConflictError(
          fill(paymentOutcomeMessages.verifyingNoPay, { when: romeDateTime(position.checkoutUntil!) }),
        );
      const live = resume(position, now);
      if (live) return live;
      if (!isPayableOnline(position)) throw new ConflictError(paymentOutcomeMessages.notIssued);
      const returnUrl = paymentReturnUrl(body.returnPath, portalUrl());
      // What MyPay's landing would refuse is said here, in words the office can act on, not on MyPay's error page.
      const user = await users.getUserItem(userId);
      const blockers = checkoutBlockers(user ?? {}, position, {
        today: romeDay(now),
        dueDateRequired: dueDateRequired(),
      });
      if (blockers.length)
        throw new ConflictError(fill(paymentOutcomeMessages.blocked, { reasons: blockers.join('; ') }));
      const iuv = position.codIuv ?? position.nav!.slice(1);
      // MyPay's answer within the function's time (deadline): a slow MyPay is 'non raggiungibile', never a bare 5xx.
      const session = await mypay.openPositionCheckout(iuv, returnUrl, deadline).catch(unavailable);
      if (!session) throw new ConflictError(paymentOutcomeMessages.notOpenOnMyPay);
      const until = new Date(now.getTime() + CHECKOUT_HOLD_MS).toISOString();
      // The marker first: a recalculation that looks after the hold is taken sees it.
      await positions.putCheckoutMarker(position, until);
      if (
        !(await positions.applyTransition(
          hold(position, { session: session.idSession, url: session.url, until, now: now.toISOString() }),
        ))
      ) {
        const current = await positions.getPositionByIud(iud);
        const other = current && resume(current, now);
        if (other) return other;
        await positions.deleteCheckoutMarker(position);
        throw new ConflictError(paymentOutcomeMessages.positionChanged);
      }
      await sessions.createPaymentSession({
        idSession: session.idSession,
        userId,
        iud: position.iud,
        createdAt: now.toISOString(),
        outcome: null,
        resolvedAt: null,
      });
      // Whether the citizen comes back or not, the call's reporting follows: what MyPay collected is recorded.
      for (const dueAt of followUpTimes(now)) await deps.followUps?.putFollowUp(position.callId, dueAt);
      return { url: session.url, idSession: session.idSession, resumed: false };
    },

    /**
     * POST /api/me/payments/return: the portal page read idSession from MyPay's redirect. The outcome is
     * MyPay's (paaSILChiediPagati), never the URL's esito: PAID records what was paid (once: a reload finds
     * it recorded), FAILED / CANCELLED / EXPIRED free the position (payable again), PENDING keeps it held, and
     * so does UNKNOWN ('Pagamento in verifica': with the modello unico MyPay knows only once pagoPA's receipt
     * arrives), answered as PENDING.
     */
    async paymentReturn(body: { idSession: string }, actor: Actor, deadline?: number): Promise<PaymentReturn> {
      const userId = await citizenId(actor);
      const session = userId ? await sessions.getPaymentSession(body.idSession) : null;
      if (!userId || !session || session.userId !== userId) throw new NotFoundError(messages.payment.sessionNotFound);
      const outcome = await mypay.paymentOutcome(session.idSession, deadline).catch(unavailable);
      const now = clock.now();
      await sessions.recordSessionOutcome(session.idSession, outcome.status, now.toISOString());
      const current = await positions.getPositionByIud(session.iud);
      if (!current || current.userId !== userId) throw new NotFoundError(messages.payment.notFound);

      if (outcome.status === 'PAID') {
        const receipts = outcome.payments.filter((p) => p.iud === current.iud);
        if (!receipts.length)
          return {
            esito: 'PAID',
            recorded: false,
            message: paymentOutcomeMessages.mismatch,
            position: await citizenView(publicView(current)),
          };
        const settled = await settlement.settle(receipts, actor, { channel: 'checkout' });
        const recorded = settled.filter((s) => s.kind === 'recorded');
        const latest = (await positions.getPositionByIud(current.iud)) ?? current;
        const message = !recorded.length
          ? paymentOutcomeMessages.paidBefore
          : recorded.some((s) => s.kind === 'recorded' && s.reconciliation)
            ? paymentOutcomeMessages.paidToReconcile
            : paymentOutcomeMessages.paid;
        return {
          esito: 'PAID',
          recorded: recorded.length > 0,
          message,
          position: await citizenView(publicView(latest)),
        };
      }
      // Not known yet (modello unico: the receipt has not reached MyPay): the hold stays, the outcome is asked again later.
      if (outcome.status === 'PENDING' || outcome.status === 'UNKNOWN') {
        // 'Pagamento in verifica': the checkout keeps the position a while longer and 'Paga' is not offered.
        if (
          outcome.status === 'UNKNOWN' &&
          !current.isPagato &&
          current.checkoutSession === session.idSession &&
          !current.checkoutInVerifica
        ) {
          const until = verifyingUntil(current, now);
          await positions.putCheckoutMarker(current, until);
          await positions.applyTransition(verify(current, session.idSession, until));
          const latest = (await positions.getPositionByIud(current.iud)) ?? current;
          return {
            esito: 'PENDING',
            recorded: false,
            message: paymentOutcomeMessages.verifying,
            position: await citizenView(publicView(latest)),
          };
        }
        const message = current.isPagato
          ? paymentOutcomeMessages.paidBefore
          : outcome.status === 'UNKNOWN'
            ? paymentOutcomeMessages.verifying
            : paymentOutcomeMessages.pending;
        return { esito: 'PENDING', recorded: false, message, position: await citizenView(publicView(current)) };
      }
      // The checkout ended without a payment: the position is free again.
      if (current.checkoutSession === session.idSession) {
        await positions.applyTransition(release(current, session.idSession));
        await positions.deleteCheckoutMarker(current);
      }
      const latest = (await positions.getPositionByIud(current.iud)) ?? current;
      const message = latest.isPagato
        ? paymentOutcomeMessages.paidBefore
        : {
            FAILED: paymentOutcomeMessages.failed,
            CANCELLED: paymentOutcomeMessages.cancelledByCitizen,
            EXPIRED: paymentOutcomeMessages.expired,
          }[outcome.status];
      return { esito: outcome.status, recorded: false, message, position: await citizenView(publicView(latest)) };
    },

    /** GET /api/users/{id}/positions: the payments section of the user record (operators, delegates). */
    async listUserPositions(userId: string, query: { limit?: number; cursor?: string }): Promise<Page<PositionView>> {
      if (!(await users.getUserItem(userId))) throw new NotFoundError(userMessages.notFound);
      return views(await positions.listPositionsOfUser(userId, {}, query));
    },

    /** GET /api/positions?fiscalCode=: the operators' 'Pagamenti' page (a citizen's payments by fiscal code). */
    async listPositionsByFiscalCode(query: {
      fiscalCode: string;
      limit?: number;
      cursor?: string;
    }): Promise<Page<PositionView>> {
      const userId = await users.findUserIdByFiscalCode(query.fiscalCode);
      if (!userId) return { items: [], nextCursor: null };
      return views(await positions.listPositionsOfUser(userId, {}, { limit: query.limit, cursor: query.cursor }));
    },
  };
}

export type UserPositionUseCases = ReturnType<typeof makeUserPositionUseCases>;
