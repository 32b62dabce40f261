import { recordAuditBatch } from '../adapters/audit-log.ts';
import { makeMyPayCheckout, myPayConfigFromEnv } from '../adapters/mypay-soap.ts';
import { clientFromSettings } from '../adapters/fresh-client.ts';
import { makeNoticeLinks } from '../adapters/notice-links.ts';
import { myPayCheckout } from '../adapters/mypay/platform.ts';
import { gpdConfigFromEnv, gpdPlatformFromEnv, paymentPlatformName } from '../adapters/payment-platform.ts';
import { PLATFORM_CAPABILITIES, type PlatformCheckout } from '../domain/payment-platform.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { positionWriter } from './wired-payment-list.ts';
import { resourceHandler } from '../http/handler.ts';
import { businessMetrics } from '../adapters/observability.ts';
import { deleteCheckoutMarker, putCheckoutMarker } from '../payments/checkouts.ts';
import { getPositionByIud, listPositionsOfUser } from '../positions/repository.ts';
import { makePaymentSettlement } from '../positions/settlement.ts';
import { findUserIdByFiscalCode, getUserItem } from '../users/repository.ts';
import * as sessions from '../user-positions/repository.ts';
import { userPositionRoutes } from '../user-positions/routes.ts';
import { makeUserPositionUseCases } from '../user-positions/use-cases.ts';
import { putFollowUp } from '../reporting/repository.ts';

// Made at the first payment (a missing platform setting fails that request, visibly, not the cold start), and again
// when a rotated key or password reaches the warm function.
const platformName = paymentPlatformName();
const platformCheckout: () => PlatformCheckout =
  platformName === 'gpd'
    ? clientFromSettings(gpdConfigFromEnv, () => gpdPlatformFromEnv().checkout)
    : clientFromSettings(myPayConfigFromEnv, (config) => myPayCheckout(makeMyPayCheckout(config)));

/** The portal's own address (a deployment setting; locally the app URL): where the platform sends citizens back. */
const portalUrl = () => {
  const url = process.env.PORTAL_URL;
  if (!url) throw new Error('Missing environment variable PORTAL_URL');
  return url;
};

// Every position write tells the payment list (the citizen's row follows a payment).
const { applyTransition, recordPayment } = positionWriter();

const settlement = makePaymentSettlement({
  positions: { getPositionByIud, recordPayment, deleteCheckoutMarker },
  audit: { recordMany: recordAuditBatch },
  clock: systemClock,
  metrics: businessMetrics,
});

const positions = makeUserPositionUseCases({
  positions: { getPositionByIud, listPositionsOfUser, applyTransition, putCheckoutMarker, deleteCheckoutMarker },
  settlement,
  users: { findUserIdByFiscalCode, getUserItem },
  sessions,
  platform: {
    name: platformName,
    capabilities: PLATFORM_CAPABILITIES[platformName],
    checkout: {
      open: (...args) => platformCheckout().open(...args),
      outcome: (...args) => platformCheckout().outcome(...args),
    },
  },
  notices: makeNoticeLinks({ getPositionByIud }),
  portalUrl,
  // MyPay's payment type (tipoDovuto) with flg_scadenza_obbligatoria: a past due date cannot be paid.
  dueDateRequired: () => process.env.MYPAY_SCADENZA_OBBLIGATORIA?.trim().toLowerCase() === 'true',
  followUps: { putFollowUp },
  clock: systemClock,
});

export const handler = resourceHandler(userPositionRoutes, {
  listMyPositions: ({ query, actor }) => positions.listMyPositions(query, actor),
  // Where the platform sends the citizen back is built from PORTAL_URL: no Origin, Host or X-Forwarded-Host is read.
  payPosition: ({ params, body, actor, deadline }) => positions.pay(params.id, body, actor, deadline),
  payCart: ({ body, actor, deadline }) => positions.payCart(body, actor, deadline),
  paymentOptions: () => positions.paymentOptions(),
  paymentReturn: ({ body, actor, deadline }) => positions.paymentReturn(body, actor, deadline),
  listUserPositions: ({ params, query }) => positions.listUserPositions(params.id, query),
  listPositionsByFiscalCode: ({ query }) => positions.listPositionsByFiscalCode(query),
});
