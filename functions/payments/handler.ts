import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
// Named imports (not the whole modules): the bundle keeps only what the payments use.
import { getBand } from '../bands/repository.ts';
import { getCall } from '../calls/repository.ts';
import { getConfiguration } from '../configuration/repository.ts';
import { runningExportOf } from '../flows/repository.ts';
import { markIseeUsedForFee } from '../isee/repository.ts';
import { listApprovedSubscriptionsOfCall } from '../subscriptions/repository.ts';
import { getUserItem } from '../users/repository.ts';
import * as positionRepository from './repository.ts';
import { paymentRoutes } from './routes.ts';
import { makePaymentUseCases } from './use-cases.ts';

const payments = makePaymentUseCases({
  positions: positionRepository,
  calls: { getCall },
  bands: { getBand },
  subscriptions: { listApprovedSubscriptionsOfCall },
  users: { getUserItem },
  isees: { markIseeUsedForFee },
  configuration: { getConfiguration },
  exports: { runningExportOf },
  audit: dynamoAuditLog,
  clock: systemClock,
});

export const handler = resourceHandler(paymentRoutes, {
  generatePositions: ({ params, body, actor }) => payments.generatePositions(params.id, body, actor!),
  positionsCsv: ({ params, body, actor }) => payments.positionsCsv(params.id, body, actor!),
  listPositions: ({ params, query }) => payments.listPositions(params.id, query),
});
