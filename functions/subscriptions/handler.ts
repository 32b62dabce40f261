import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
import * as callRepository from '../calls/repository.ts';
import * as userRepository from '../users/repository.ts';
import { ensureCitizen } from '../users/ensure-citizen.ts';
import { getBand } from '../bands/repository.ts';
import * as iseeRepository from '../isee/repository.ts';
import { makeIseeUseCases } from '../isee/use-cases.ts';
import * as subscriptionRepository from './repository.ts';
import { makeEnrolmentUseCases } from './enrolment-use-cases.ts';
import { makeSubscriptionUseCases } from './use-cases.ts';
import { subscriptionRoutes } from './routes.ts';

const subscriptions = makeSubscriptionUseCases({
  subscriptions: subscriptionRepository,
  calls: callRepository,
  isees: { newestIseeOfUser: iseeRepository.newestIseeOfUser },
  bands: { getBand },
  users: userRepository,
  ensureCitizen,
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

/** The import records ISEE the one way there is (recordIsee), which keeps the subscriptions' copies in step. */
const isee = makeIseeUseCases({
  isees: iseeRepository,
  users: userRepository,
  ensureCitizen,
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
  subscriptions: { syncUserIsee: subscriptionRepository.syncUserIsee },
});

const enrolments = makeEnrolmentUseCases({
  subscriptions: subscriptionRepository,
  calls: callRepository,
  bands: { getBand },
  users: userRepository,
  isees: { recordIsee: isee.recordIsee },
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(subscriptionRoutes, {
  subscribe: ({ params, body, actor }) => subscriptions.subscribe(params.id, body, actor!),
  getMySubscription: ({ params, actor }) => subscriptions.getMySubscription(params.id, actor!),
  listMySubscriptions: ({ query, actor }) => subscriptions.listMySubscriptions(query, actor!),
  listUserSubscriptions: ({ params, query }) => subscriptions.listUserSubscriptions(params.id, query),
  getSubscription: ({ params, actor }) => subscriptions.getSubscription(params.id, actor!),
  listEnrolments: ({ params, query }) => enrolments.listEnrolments(params.id, query),
  enrolUser: ({ params, body, actor }) => enrolments.enrolUser(params.id, body, actor!),
  updateEnrolment: ({ params, body, actor }) => enrolments.updateEnrolment(params.id, body, actor!),
  rankEnrolment: ({ params, body, actor }) => enrolments.rankEnrolment(params.id, body, actor!),
  unenrol: ({ params, actor }) => enrolments.unenrol(params.id, actor!),
  resetHours: ({ params, actor }) => enrolments.resetHours(params.id, actor!),
  exportEnrolments: ({ params }) => enrolments.exportEnrolments(params.id),
  enrolmentTemplate: () => enrolments.enrolmentTemplate(),
  importEnrolments: ({ params, body, actor }) => enrolments.importEnrolments(params.id, body, actor!),
});
