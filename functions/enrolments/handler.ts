import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
import { getBands } from '../bands/repository.ts';
import { getCall } from '../calls/repository.ts';
import { runningExportOf } from '../flows/repository.ts';
import { deleteSubscription, getSubscription, listAllSubscriptionsOfCall, listEnrolments, putSubscription, recountEnrolments } from '../subscriptions/repository.ts';
import { getUserItem } from '../users/repository.ts';
import { makeEnrolmentUseCases } from './use-cases.ts';
import { enrolmentRoutes } from './routes.ts';

const enrolments = makeEnrolmentUseCases({
  subscriptions: { getSubscription, putSubscription, deleteSubscription, listEnrolments, listAllSubscriptionsOfCall, recountEnrolments },
  calls: { getCall },
  bands: { getBands },
  users: { getUserItem },
  files: s3FileStore,
  exports: { runningExportOf },
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(enrolmentRoutes, {
  listEnrolments: ({ params, query }) => enrolments.listEnrolments(params.id, query),
  enrolUser: ({ params, body, actor }) => enrolments.enrolUser(params.id, body, actor!),
  updateEnrolment: ({ params, body, actor }) => enrolments.updateEnrolment(params.id, body, actor!),
  rankEnrolment: ({ params, body, actor }) => enrolments.rankEnrolment(params.id, body, actor!),
  unenrol: ({ params, actor }) => enrolments.unenrol(params.id, actor!),
  resetHours: ({ params, actor }) => enrolments.resetHours(params.id, actor!),
});
