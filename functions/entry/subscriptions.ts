import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as callRepository from '../calls/repository.ts';
// Only the lookup it uses: the users' search stays out of this bundle.
import { getUserItem } from '../users/repository.ts';
import { ensureCitizen } from '../users/ensure-citizen.ts';
import { getBand } from '../bands/repository.ts';
import * as subscriptionRepository from '../subscriptions/repository.ts';
import { makeSubscriptionUseCases } from '../subscriptions/use-cases.ts';
import { subscriptionRoutes } from '../subscriptions/routes.ts';

const subscriptions = makeSubscriptionUseCases({
  subscriptions: subscriptionRepository,
  calls: callRepository,
  bands: { getBand },
  users: { getUserItem },
  ensureCitizen,
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(subscriptionRoutes, {
  subscribe: ({ params, body, actor }) => subscriptions.subscribe(params.id, body, actor),
  getMySubscription: ({ params, actor }) => subscriptions.getMySubscription(params.id, actor),
  listMySubscriptions: ({ query, actor }) => subscriptions.listMySubscriptions(query, actor),
  listUserSubscriptions: ({ params, query }) => subscriptions.listUserSubscriptions(params.id, query),
  getSubscription: ({ params, actor }) => subscriptions.getSubscription(params.id, actor),
});
