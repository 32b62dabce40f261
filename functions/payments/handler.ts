import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
import * as bandRepository from '../bands/repository.ts';
import * as callRepository from '../calls/repository.ts';
import * as configurationRepository from '../configuration/repository.ts';
import * as iseeRepository from '../isee/repository.ts';
import * as subscriptionRepository from '../subscriptions/repository.ts';
import * as userRepository from '../users/repository.ts';
import * as positionRepository from './repository.ts';
import { paymentRoutes } from './routes.ts';
import { makePaymentUseCases } from './use-cases.ts';

const payments = makePaymentUseCases({
  positions: positionRepository,
  calls: callRepository,
  bands: bandRepository,
  subscriptions: subscriptionRepository,
  users: userRepository,
  isees: iseeRepository,
  configuration: configurationRepository,
  audit: dynamoAuditLog,
  clock: systemClock,
});

export const handler = resourceHandler(paymentRoutes, {
  generatePositions: ({ params, body, actor }) => payments.generatePositions(params.id, body, actor!),
  positionsCsv: ({ params, body, actor }) => payments.positionsCsv(params.id, body, actor!),
  listPositions: ({ params, query }) => payments.listPositions(params.id, query),
});
