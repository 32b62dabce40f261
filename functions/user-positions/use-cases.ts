import {
  hold,
  publicPosition,
  release,
  verify,
  type PositionRecord,
  type Transition,
} from '../domain/positions/index.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { fill, gpdPaymentMessages, messages, paymentOutcomeMessages } from '../domain/messages.ts';
import type { Position } from '../domain/payments.ts';
import { isNoticeSendable, romeDateTime } from '../domain/notices.ts';
import { gpdFirstDueDay } from '../domain/gpd.ts';
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
  receiptOfPayment,
  toPositionView,
  type CheckoutStatus,
  type PaymentReturn,
  type PositionView,
} from '../domain/position-payment.ts';
import { followUpTimes } from '../domain/reporting.ts';
import type { Actor } from '../domain/roles.ts';
import { userMessages } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { PayableNotice, PaymentPlatform } from '../domain/payment-platform.ts';
import type { PaymentSettlement } from '../positions/settlement.ts';
import type { StoredUser } from '../domain/user-record.ts';
import type { PaymentSession } from './repository.ts';

/**
 * A citizen's debt positions and paying them (issues 9, 21, 26, 37), and the operators' view of one citizen's
 * positions (user record, 'Pagamenti'). 'Paga' sends the citizen to pay the payment platform's own record of the
 * positions (the port's checkout: MyPay's landing for one, pagoPA Checkout's cart for up to five) and holds them
 * while the checkout lives; the return settles what the platform says was paid through positions/settlement.ts,
 * the use case the reporting shares.
 */
export interface UserPositionDeps {
  positions: {
    getPositionByIud(iud: string): Promise<PositionRecord | null>;
    listPositionsOfUser(
      userId: string,
      filter: { callId?: string },
      page: { limit?: number; cursor?: string },
    ): Promise<Page<PositionRecord>>;
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
  /** The deployment's payment platform (functions/adapters/payment-platform.ts): its checkout and its cart size. */
  platform: Pick<PaymentPlatform, 'name' | 'capabilities' | 'checkout'>;
  /** The portal's correlation id of a checkout (GPD: in Checkout's return addresses; MyPay makes its own session). */
  newId?: () => string;
  /** A short-lived link to the position's notice PDF when the exports bucket has it; null otherwise. */
  notices: { noticeUrl(position: Position): Promise<string | null> };
  /** The portal's own address (the deployment setting PORTAL_URL): the platform sends the citizen back there only. */
  portalUrl: () => string;
  /** Whether MyPay's payment type requires a due date (MYPAY_SCADENZA_OBBLIGATORIA): then a past one cannot be paid. */
  dueDateRequired: () => boolean;
  /** The reporting of the call a few minutes after a checkout starts (functions/reporting/schedule.ts sweeps them). */
  followUps?: { putFollowUp(callId: string, dueAt: string): Promise<void> };
  clock: Clock;
}

/** The platform did not answer (or refused): the citizen is told to retry, nothing is written. */
const unavailable = (error: unknown): never => {
  if (error instanceof DomainError) throw error;
  const name = (error as Error)?.name;
  // paaSILVerificaAvviso: the due date passed on MyPay's record (its payment type requires one).
  if ((error as { faultCode?: string })?.faultCode === 'PAA_IUV_SCADUTO')
    throw new ConflictError(fill(paymentOutcomeMessages.blocked, { reasons: paymentOutcomeMessages.blockedPastDue }));
  if (name === 'MyPayUnavailable' || name === 'MyPayFault' || name === 'GpdUnavailable' || name === 'GpdRefused')
    throw new DomainError(503, 'Servizio non disponibile', paymentOutcomeMessages.unavailable);
  throw error;
};

/** Where MyPay sends the citizen back: the page the client named (a path, checked), on the portal's own address. */
export function paymentReturnUrl(returnPath: string, portalUrl: string): string {
  const path = paymentReturnPath(returnPath);
  if (!path) throw new ValidationError(messages.payment.returnUrl, { returnPath: messages.payment.returnUrl });
  return new URL(path, portalUrl).toString();
}

/** A position as the platform's checkout takes it: the notice the export gave it. */
const noticeOf = (position: PositionRecord): PayableNotice => ({
  iud: position.iud,
  iuv: position.codIuv ?? position.nav?.slice(1) ?? '',
  noticeNumber: position.nav ?? '',
  amountCents: position.importoDovuto,
  description: position.descrizione || position.titolo,
});

export function makeUserPositionUseCases(deps: UserPositionDeps) {
  const { positions, settlement, users, sessions, platform, notices, portalUrl, dueDateRequired, clock } = deps;
  const newId = deps.newId ?? (() => crypto.randomUUID());
  /** What the citizen reads names the platform the council bills through. */
  const words =
    platform.name === 'gpd'
      ? gpdPaymentMessages
      : {
          mismatch: paymentOutcomeMessages.mismatch,
          notIssued: paymentOutcomeMessages.notIssued,
          notOpen: paymentOutcomeMessages.notOpenOnMyPay,
          verifying: paymentOutcomeMessages.verifying,
          verifyingNoPay: paymentOutcomeMessages.verifyingNoPay,
        };

  // On GPD the notice is printed on request ('Avviso PDF' asks functions/notice-downloads): nothing to look up here.
  const view = async (position: Position): Promise<PositionView> =>
    platform.name === 'gpd'
      ? toPositionView(position, { url: null, download: isNoticeSendable(position) }, clock.now())
      : toPositionView(position, { url: await notices.noticeUrl(position) }, clock.now());
  /** The citizen's own view: the operators' note on a closed reconciliation (and who wrote it) is the office's. */
  const citizenView = ({ riconciliazioneChiusa: _closed, ...position }: Position) => view(position);
  /**
   * What the API shows of a stored position. On GPD its 'Scadenza' is the day pagoPA holds and the notice prints
   * (gpdFirstDueDay: 30 days after the send of a month sent late), as the e-mail and the IO message say.
   */
  const publicView = (record: PositionRecord): Position =>
    publicPosition(platform.name === 'gpd' ? { ...record, dataScadenza: gpdFirstDueDay(record) } : record);
  const views = async (page: Page<PositionRecord>, toView = view): Promise<Page<PositionView>> => ({
    items: await Promise.all(page.items.map((p) => toView(publicView(p)))),
    nextCursor: page.nextCursor,
  });

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

  /**
   * 'Paga' of one position or of several at once: sends the citizen to pay the platform's own record of them
   * (exported: their notice numbers, amounts, due dates) and comes back to the named portal page. While the
   * checkout lives (CHECKOUT_HOLD_MS, or until its outcome is known) the positions are held: a second 'Paga'
   * resumes the same checkout, and no edit, recalculation or export touches them. Bad input (too many notices,
   * one twice, another citizen's, a paid one) changes nothing.
   */
  async function openCheckout(
    iuds: readonly string[],
    returnPath: string,
    actor: Actor,
    deadline?: number,
  ): Promise<{ url: string; idSession: string; resumed: boolean }> {
    const max = platform.capabilities.cartSize;
    if (!iuds.length) throw new ValidationError(gpdPaymentMessages.cartEmpty, { ids: gpdPaymentMessages.cartEmpty });
    if (iuds.length > max) {
      const tooMany = max === 1 ? gpdPaymentMessages.cartOne : fill(gpdPaymentMessages.cartTooMany, { max });
      throw new ValidationError(tooMany, { ids: tooMany });
    }
    if (new Set(iuds).size !== iuds.length)
      throw new ValidationError(gpdPaymentMessages.cartRepeated, { ids: gpdPaymentMessages.cartRepeated });
    const owned: PositionRecord[] = [];
    for (const iud of iuds) owned.push((await ownPosition(iud, actor)).position);
    const userId = owned[0]!.userId;
    const now = clock.now();
    for (const position of owned) {
      if (position.isPagato) throw new ConflictError(paymentOutcomeMessages.alreadyPaid);
      if (!isPayable(position)) throw new ConflictError(paymentOutcomeMessages.cancelled);
      // The last checkout's outcome is not known yet: the citizen may have paid, so no second payment starts.
      if (isVerifyingPayment(position, now))
        throw new ConflictError(fill(words.verifyingNoPay, { when: romeDateTime(position.checkoutUntil!) }));
    }
    const live = owned.map((p) => resume(p, now));
    if (live.some(Boolean)) {
      if (live.every((l) => l && l.idSession === live[0]!.idSession)) return live[0]!;
      throw new ConflictError(gpdPaymentMessages.cartInCorso);
    }
    if (!owned.every(isPayableOnline)) throw new ConflictError(words.notIssued);
    const returnUrl = paymentReturnUrl(returnPath, portalUrl());
    const user = await users.getUserItem(userId);
    // What MyPay's landing would refuse is said here, in words the office can act on, not on MyPay's error page.
    if (platform.name === 'mypay')
      for (const position of owned) {
        const blockers = checkoutBlockers(user ?? {}, position, {
          today: romeDay(now),
          dueDateRequired: dueDateRequired(),
        });
        if (blockers.length)
          throw new ConflictError(fill(paymentOutcomeMessages.blocked, { reasons: blockers.join('; ') }));
      }
    // The platform's answer within the function's time (deadline): a slow one is 'non raggiungibile', never a bare 5xx.
    const session = await platform.checkout
      .open(
        { notices: owned.map(noticeOf), returnUrl, correlationId: newId(), email: user?.email ?? null },
        { deadline },
      )
      .catch(unavailable);
    if (!session) throw new ConflictError(words.notOpen);
    const until = new Date(now.getTime() + CHECKOUT_HOLD_MS).toISOString();
    const checkout = { session: session.sessionId, url: session.url, until, now: now.toISOString() };
    const held: PositionRecord[] = [];
    for (const position of owned) {
      // The marker first: a recalculation that looks after the hold is taken sees it.
      await positions.putCheckoutMarker(position, until);
      if (await positions.applyTransition(hold(position, checkout))) {
        held.push(position);
        continue;
      }
      const current = await positions.getPositionByIud(position.iud);
      const other = owned.length === 1 && current && resume(current, now);
      if (other) return other;
      await positions.deleteCheckoutMarker(position);
      // Changed meanwhile: the ones already held are let go, nothing is paid.
      for (const done of held) {
        const again = await positions.getPositionByIud(done.iud);
        if (again) await positions.applyTransition(release(again, session.sessionId));
        await positions.deleteCheckoutMarker(done);
      }
      throw new ConflictError(paymentOutcomeMessages.positionChanged);
    }
    await sessions.createPaymentSession({
      idSession: session.sessionId,
      userId,
      iud: owned[0]!.iud,
      ...(owned.length > 1 ? { iuds: owned.map((p) => p.iud) } : {}),
      createdAt: now.toISOString(),
      outcome: null,
      resolvedAt: null,
    });
    // Whether the citizen comes back or not, the call's reporting follows: what the platform collected is recorded.
    for (const callId of new Set(owned.map((p) => p.callId)))
      for (const dueAt of followUpTimes(now)) await deps.followUps?.putFollowUp(callId, dueAt);
    return { url: session.url, idSession: session.sessionId, resumed: false };
  }

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
     * POST /api/me/positions/{id}/pay ('Paga'): one position in a checkout of its own (openCheckout). On MyPay
     * this is the only way: MyPay pays one position per checkout.
     */
    pay: (iud: string, body: { returnPath: string }, actor: Actor, deadline?: number) =>
      openCheckout([iud], body.returnPath, actor, deadline),

    /**
     * POST /api/me/payments/cart: several positions paid at once, as far as the platform's cart goes
     * (capabilities.cartSize: pagoPA Checkout's five notices on GPD, one on MyPay).
     */
    payCart: (body: { ids: string[]; returnPath: string }, actor: Actor, deadline?: number) =>
      openCheckout(body.ids, body.returnPath, actor, deadline),

    /** GET /api/me/payments/options: what the citizen's page offers (several notices at once only where the cart allows). */
    paymentOptions: async () => ({ platform: platform.name, cartSize: platform.capabilities.cartSize }),

    /**
     * POST /api/me/payments/return: the portal page read idSession from the platform's redirect (MyPay's session,
     * or on GPD the portal's correlation id in Checkout's return address). The outcome is the platform's
     * (paaSILChiediPagati; pagoPA's receipts), never the URL's esito: PAID records what was paid (once: a reload
     * finds it recorded), FAILED / CANCELLED / EXPIRED free the positions (payable again), PENDING keeps them
     * held, and so does UNKNOWN ('Pagamento in verifica': the receipt has not arrived yet), answered as PENDING.
     * A cart's positions whose receipt has not arrived stay 'in verifica' while the others are recorded.
     */
    async paymentReturn(body: { idSession: string }, actor: Actor, deadline?: number): Promise<PaymentReturn> {
      const userId = await citizenId(actor);
      const session = userId ? await sessions.getPaymentSession(body.idSession) : null;
      if (!userId || !session || session.userId !== userId) throw new NotFoundError(messages.payment.sessionNotFound);
      const found = await Promise.all((session.iuds ?? [session.iud]).map((iud) => positions.getPositionByIud(iud)));
      if (found.some((p) => !p || p.userId !== userId)) throw new NotFoundError(messages.payment.notFound);
      const cart = found as PositionRecord[];
      const outcome = await platform.checkout
        .outcome({ sessionId: session.idSession, notices: cart.map(noticeOf) }, { deadline })
        .catch(unavailable);
      const now = clock.now();
      await sessions.recordSessionOutcome(session.idSession, outcome.status, now.toISOString());
      const first = cart[0]!;
      const answer = async (esito: PaymentReturn['esito'], recorded: boolean, message: string) => ({
        esito,
        recorded,
        message,
        position: await citizenView(publicView((await positions.getPositionByIud(first.iud)) ?? first)),
      });

      /** 'Pagamento in verifica': the checkout keeps the position a while longer and 'Paga' is not offered. */
      const markVerifying = async (current: PositionRecord) => {
        if (current.isPagato || current.checkoutSession !== session.idSession || current.checkoutInVerifica)
          return false;
        const until = verifyingUntil(current, now);
        await positions.putCheckoutMarker(current, until);
        await positions.applyTransition(verify(current, session.idSession, until));
        return true;
      };

      if (outcome.status === 'PAID') {
        const receipts = outcome.payments.filter((p) => cart.some((c) => c.iud === p.iud)).map(receiptOfPayment);
        if (!receipts.length) return answer('PAID', false, words.mismatch);
        const settled = await settlement.settle(receipts, actor, { channel: 'checkout' });
        // Checkout pays the whole cart, but each notice's receipt arrives on its own.
        for (const current of cart.filter((c) => !receipts.some((r) => r.iud === c.iud))) await markVerifying(current);
        const recorded = settled.filter((s) => s.kind === 'recorded');
        const message = !recorded.length
          ? paymentOutcomeMessages.paidBefore
          : recorded.some((s) => s.kind === 'recorded' && s.reconciliation)
            ? paymentOutcomeMessages.paidToReconcile
            : paymentOutcomeMessages.paid;
        return answer('PAID', recorded.length > 0, message);
      }
      // Not known yet (no receipt yet): the hold stays, the outcome is asked again later.
      if (outcome.status === 'PENDING' || outcome.status === 'UNKNOWN') {
        let verifying = false;
        if (outcome.status === 'UNKNOWN')
          for (const current of cart) verifying = (await markVerifying(current)) || verifying;
        if (verifying) return answer('PENDING', false, words.verifying);
        const message = cart.every((c) => c.isPagato)
          ? paymentOutcomeMessages.paidBefore
          : outcome.status === 'UNKNOWN'
            ? words.verifying
            : paymentOutcomeMessages.pending;
        return answer('PENDING', false, message);
      }
      // The checkout ended without a payment: the positions are free again.
      for (const current of cart)
        if (current.checkoutSession === session.idSession) {
          await positions.applyTransition(release(current, session.idSession));
          await positions.deleteCheckoutMarker(current);
        }
      const latest = await Promise.all(cart.map(async (c) => (await positions.getPositionByIud(c.iud)) ?? c));
      const message = latest.every((c) => c.isPagato)
        ? paymentOutcomeMessages.paidBefore
        : {
            FAILED: paymentOutcomeMessages.failed,
            CANCELLED: paymentOutcomeMessages.cancelledByCitizen,
            EXPIRED: paymentOutcomeMessages.expired,
          }[outcome.status];
      return answer(outcome.status, false, message);
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
