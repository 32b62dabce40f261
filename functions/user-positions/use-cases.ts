import type { Configuration } from '../domain/configuration.ts';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { messages, paymentOutcomeMessages } from '../domain/messages.ts';
import type { Position } from '../domain/payments.ts';
import { applyPayment, isPayable, toPositionView, type CheckoutStatus, type PaymentReturn, type PositionView } from '../domain/position-payment.ts';
import type { Actor } from '../domain/roles.ts';
import { userMessages } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import { noMetrics, type AuditLog, type BusinessMetrics, type Clock, type MyPay } from '../adapters/ports.ts';
import { requireCompleteConfiguration, type ConfigurationRepository } from '../configuration/use-cases.ts';
import type { StoredUser } from '../users/repository.ts';
import type { PaymentSession } from './repository.ts';

/**
 * A citizen's debt positions and paying them through MyPay (issue 9), and the operators' view of one
 * citizen's positions (user record, 'Pagamenti'). Every position write is payments/repository.ts
 * recordPayment, through the domain rule applyPayment.
 */
export interface UserPositionDeps {
  positions: {
    getPositionByIud(iud: string): Promise<PositionRecord | null>;
    listPositionsOfUser(userId: string, filter: { callId?: string }, page: { limit?: number; cursor?: string }): Promise<Page<Position>>;
    recordPayment(position: PositionRecord, expectedVersion: number): Promise<boolean>;
  };
  users: {
    findUserIdByFiscalCode(fiscalCode: string): Promise<string | null>;
    getUserItem(id: string): Promise<StoredUser | null>;
  };
  sessions: {
    createPaymentSession(session: PaymentSession): Promise<void>;
    getPaymentSession(idSession: string): Promise<PaymentSession | null>;
    recordSessionOutcome(idSession: string, outcome: CheckoutStatus, at: string): Promise<void>;
  };
  configuration: Pick<ConfigurationRepository, 'getConfiguration'>;
  mypay: Pick<MyPay, 'startPayment' | 'paymentOutcome'>;
  /** A short-lived link to the position's notice PDF when the exports bucket has it; null otherwise. */
  notices: { noticeUrl(position: Pick<Position, 'iud' | 'nav'>): Promise<string | null> };
  audit: AuditLog;
  clock: Clock;
  /** PaymentsRecorded and PaymentsToReconcile, channel checkout (functions/domain/business-metrics.ts). */
  metrics?: BusinessMetrics;
}

/** The citizen pages MyPay may send the citizen back to (calls-citizens-roles §2.1, §2.5, §2.6). */
export const RETURN_PATHS = ['/iscrizioni/visualizza_servizio', '/sessione_servizi/visualizza_servizio', '/iscrizioni'];

/**
 * The return URL the web asked for, checked: the portal's own site (the host the request came from) and
 * one of the citizen's pages, without a previous return's idSession/esito. Anything else is a 400.
 */
export function checkReturnUrl(returnUrl: string, requestHost: string | null): string {
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    throw new ValidationError(messages.payment.returnUrl, { returnUrl: messages.payment.returnUrl });
  }
  const sameSite = requestHost !== null && url.host === requestHost;
  if (!/^https?:$/.test(url.protocol) || !sameSite || !RETURN_PATHS.includes(url.pathname) || url.username || url.password) {
    throw new ValidationError(messages.payment.returnUrl, { returnUrl: messages.payment.returnUrl });
  }
  url.searchParams.delete('idSession');
  url.searchParams.delete('esito');
  url.hash = '';
  return url.toString();
}

/** MyPay did not answer (or refused): the citizen is told to retry, nothing is written. */
const unavailable = (error: unknown): never => {
  if (error instanceof DomainError) throw error;
  const name = (error as Error)?.name;
  if (name === 'MyPayUnavailable' || name === 'MyPayFault') throw new DomainError(503, 'Servizio non disponibile', paymentOutcomeMessages.unavailable);
  throw error;
};

export function makeUserPositionUseCases(deps: UserPositionDeps) {
  const { positions, users, sessions, configuration, mypay, notices, audit, clock, metrics = noMetrics } = deps;
  const toReconcile = () => metrics.count('PaymentsToReconcile', 1, { channel: 'checkout' });

  const view = async (position: Position): Promise<PositionView> => toPositionView(position, await notices.noticeUrl(position));
  const views = async (page: Page<Position>): Promise<Page<PositionView>> => ({ items: await Promise.all(page.items.map(view)), nextCursor: page.nextCursor });
  const publicView = (record: PositionRecord): Position => {
    const { exportedAt: _e, iseeId: _i, version: _v, iur: _r, ...position } = record;
    return position;
  };

  /** The signed-in citizen's user id, or null when the portal has no record of them (then they own nothing). */
  const citizenId = async (actor: Actor) => (actor.fiscalCode ? users.findUserIdByFiscalCode(actor.fiscalCode) : null);

  /** A position of this citizen; another citizen's, or none, is the same 404. */
  async function ownPosition(iud: string, actor: Actor): Promise<{ userId: string; position: PositionRecord }> {
    const userId = await citizenId(actor);
    const position = userId ? await positions.getPositionByIud(iud) : null;
    if (!userId || !position || position.userId !== userId) throw new NotFoundError(messages.payment.notFound);
    return { userId, position };
  }

  return {
    /** GET /api/me/positions: the citizen's own positions, newest month first (one call's, if asked). */
    async listMyPositions(query: { callId?: string; limit?: number; cursor?: string }, actor: Actor): Promise<Page<PositionView>> {
      const userId = await citizenId(actor);
      if (!userId) return { items: [], nextCursor: null };
      const { callId, limit, cursor } = query;
      return views(await positions.listPositionsOfUser(userId, { callId }, { limit, cursor }));
    },

    /**
     * POST /api/me/positions/{id}/pay ('Paga'): hands the position to MyPay's checkout (paaSILInviaDovuti)
     * with the payer from the user record and the return URL back to the portal page; remembers the
     * session (idSession → position, citizen) and answers the checkout URL.
     */
    async pay(iud: string, body: { returnUrl: string }, actor: Actor, requestHost: string | null): Promise<{ url: string; idSession: string }> {
      const { userId, position } = await ownPosition(iud, actor);
      if (position.isPagato) throw new ConflictError(paymentOutcomeMessages.alreadyPaid);
      if (!isPayable(position)) throw new ConflictError(paymentOutcomeMessages.cancelled);
      const returnUrl = checkReturnUrl(body.returnUrl, requestHost);
      const config: Configuration = await requireCompleteConfiguration(configuration);
      const user = await users.getUserItem(userId);
      const session = await mypay
        .startPayment(
          {
            tipoIdentificativoUnivoco: 'F',
            codiceIdentificativoUnivoco: (user?.fiscalCode ?? position.fiscalCode).toUpperCase(),
            anagrafica: `${user?.lastName ?? position.cognome} ${user?.firstName ?? position.nome}`.trim().slice(0, 70),
            email: user?.email || undefined,
          },
          [
            {
              iud: position.iud,
              amountCents: position.importoDovuto,
              causale: position.descrizione.slice(0, 1024),
              iuv: position.codIuv ?? undefined,
              tipoDovuto: config.tipoDovuto,
              datiSpecificiRiscossione: config.datiSpecificiRiscossione,
            },
          ],
          returnUrl,
        )
        .catch(unavailable);
      await sessions.createPaymentSession({ idSession: session.idSession, userId, iud: position.iud, createdAt: clock.now().toISOString(), outcome: null, resolvedAt: null });
      return { url: session.url, idSession: session.idSession };
    },

    /**
     * POST /api/me/payments/return: the portal page read idSession from MyPay's redirect. The outcome is
     * MyPay's (paaSILChiediPagati), never the URL's esito: PAID marks the position paid (once: a reload or
     * a second return finds it paid and writes nothing), FAILED / CANCELLED / PENDING leave it payable.
     */
    async paymentReturn(body: { idSession: string }, actor: Actor): Promise<PaymentReturn> {
      const userId = await citizenId(actor);
      const session = userId ? await sessions.getPaymentSession(body.idSession) : null;
      if (!userId || !session || session.userId !== userId) throw new NotFoundError(messages.payment.sessionNotFound);
      const outcome = await mypay.paymentOutcome(session.idSession).catch(unavailable);
      const now = clock.now();
      await sessions.recordSessionOutcome(session.idSession, outcome.status, now.toISOString());
      const current = await positions.getPositionByIud(session.iud);
      if (!current || current.userId !== userId) throw new NotFoundError(messages.payment.notFound);

      if (outcome.status !== 'PAID') {
        const message = { FAILED: paymentOutcomeMessages.failed, CANCELLED: paymentOutcomeMessages.cancelledByCitizen, PENDING: paymentOutcomeMessages.pending }[outcome.status];
        return { esito: outcome.status, recorded: false, message: current.isPagato ? paymentOutcomeMessages.paidBefore : message, position: await view(publicView(current)) };
      }
      const receipt = outcome.payments.find((p) => p.iud === current.iud);
      if (!receipt) {
        toReconcile();
        return { esito: 'PAID', recorded: false, message: paymentOutcomeMessages.mismatch, position: await view(publicView(current)) };
      }
      // A write that loses a race (another return, the reporting) re-reads and finds the position paid.
      for (let attempt = 0; attempt < 3; attempt++) {
        const position = attempt === 0 ? current : await positions.getPositionByIud(session.iud);
        if (!position) throw new NotFoundError(messages.payment.notFound);
        const effect = applyPayment(position, receipt, now.toISOString());
        if (effect.kind === 'already-paid') return { esito: 'PAID', recorded: false, message: paymentOutcomeMessages.paidBefore, position: await view(publicView(position)) };
        if (effect.kind !== 'paid') {
          toReconcile();
          return { esito: 'PAID', recorded: false, message: effect.kind === 'cancelled' ? paymentOutcomeMessages.cancelled : paymentOutcomeMessages.mismatch, position: await view(publicView(position)) };
        }
        if (await positions.recordPayment(effect.after, position.version)) {
          await audit.record({ actor, entity: 'position', id: position.iud, action: 'update', before: position, after: effect.after }, now);
          metrics.count('PaymentsRecorded', 1, { channel: 'checkout' });
          return { esito: 'PAID', recorded: true, message: paymentOutcomeMessages.paid, position: await view(publicView(effect.after)) };
        }
      }
      throw new ConflictError(paymentOutcomeMessages.unavailable);
    },

    /** GET /api/users/{id}/positions: the payments section of the user record (operators, delegates). */
    async listUserPositions(userId: string, query: { limit?: number; cursor?: string }): Promise<Page<PositionView>> {
      if (!(await users.getUserItem(userId))) throw new NotFoundError(userMessages.notFound);
      return views(await positions.listPositionsOfUser(userId, {}, query));
    },

    /** GET /api/positions?fiscalCode=: the operators' 'Pagamenti' page (a citizen's payments by fiscal code). */
    async listPositionsByFiscalCode(query: { fiscalCode: string; limit?: number; cursor?: string }): Promise<Page<PositionView>> {
      const userId = await users.findUserIdByFiscalCode(query.fiscalCode);
      if (!userId) return { items: [], nextCursor: null };
      return views(await positions.listPositionsOfUser(userId, {}, { limit: query.limit, cursor: query.cursor }));
    },
  };
}

export type UserPositionUseCases = ReturnType<typeof makeUserPositionUseCases>;
