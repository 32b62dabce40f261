import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { makeMyPayCheckout, myPayConfigFromEnv } from '../adapters/mypay-soap.ts';
import { makeNoticeLinks } from '../adapters/notice-links.ts';
import { systemClock } from '../adapters/ports.ts';
import { getConfiguration } from '../configuration/repository.ts';
import { refreshingAfter } from '../payment-list/refresh.ts';
import { resourceHandler } from '../http/handler.ts';
import { businessMetrics } from '../http/observability.ts';
import { getPositionByIud, listPositionsOfUser, recordPayment } from '../payments/repository.ts';
import { findUserIdByFiscalCode, getUserItem } from '../users/repository.ts';
import * as sessions from './repository.ts';
import { userPositionRoutes } from './routes.ts';
import { makeUserPositionUseCases } from './use-cases.ts';

// Made at the first payment: a missing MyPay setting fails that request (visibly), not the cold start.
let checkout: ReturnType<typeof makeMyPayCheckout> | undefined;
const mypay = () => (checkout ??= makeMyPayCheckout(myPayConfigFromEnv()));

const positions = makeUserPositionUseCases({
  positions: { getPositionByIud, listPositionsOfUser, recordPayment: refreshingAfter(recordPayment, (written, position) => (written ? position : null)) },
  users: { findUserIdByFiscalCode, getUserItem },
  sessions,
  configuration: { getConfiguration },
  mypay: { startPayment: (...args) => mypay().startPayment(...args), paymentOutcome: (idSession) => mypay().paymentOutcome(idSession) },
  notices: makeNoticeLinks({ getPositionByIud }),
  audit: dynamoAuditLog,
  clock: systemClock,
  metrics: businessMetrics,
});

/** The host the browser called (the portal's own site): MyPay may only send the citizen back there. */
const requestHost = (headers: Record<string, string | undefined>) => {
  if (headers.origin) {
    try {
      return new URL(headers.origin).host;
    } catch {
      return null;
    }
  }
  return headers['x-forwarded-host'] ?? headers.host ?? null;
};

export const handler = resourceHandler(userPositionRoutes, {
  listMyPositions: ({ query, actor }) => positions.listMyPositions(query, actor!),
  payPosition: ({ params, body, actor, event }) => positions.pay(params.id, body, actor!, requestHost(event.headers ?? {})),
  paymentReturn: ({ body, actor }) => positions.paymentReturn(body, actor!),
  listUserPositions: ({ params, query }) => positions.listUserPositions(params.id, query),
  listPositionsByFiscalCode: ({ query }) => positions.listPositionsByFiscalCode(query),
});
