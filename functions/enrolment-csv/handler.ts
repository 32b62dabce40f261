import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
import { getCall } from '../calls/repository.ts';
import * as iseeRepository from '../isee/repository.ts';
import { makeIseeUseCases } from '../isee/use-cases.ts';
import { deleteSubscription, getSubscription, listAllSubscriptionsOfCall, putSubscription, recountEnrolments, syncUserIsee } from '../subscriptions/repository.ts';
import { findUserIdByFiscalCode, getUserItem, updateUserFields } from '../users/repository.ts';
import { getUsersByFiscalCodes } from '../users/lookup.ts';
import { makeEnrolmentCsvUseCases } from './use-cases.ts';
import { enrolmentCsvRoutes } from './routes.ts';

/** The import records ISEE the one way there is (recordIsee), which keeps the subscriptions' copies in step. */
const isee = makeIseeUseCases({
  isees: iseeRepository,
  users: { getUserItem, findUserIdByFiscalCode, updateUserFields },
  // The import records operator-entered ISEE only: nobody signs in here as a citizen.
  ensureCitizen: async () => {
    throw new Error('not a citizen route');
  },
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
  subscriptions: { syncUserIsee },
});

const enrolmentCsv = makeEnrolmentCsvUseCases({
  subscriptions: { getSubscription, putSubscription, deleteSubscription, listAllSubscriptionsOfCall, recountEnrolments },
  calls: { getCall },
  users: { getUserItem, getUsersByFiscalCodes },
  isees: { recordIsee: isee.recordIsee },
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(enrolmentCsvRoutes, {
  exportEnrolments: ({ params }) => enrolmentCsv.exportEnrolments(params.id),
  enrolmentTemplate: () => enrolmentCsv.enrolmentTemplate(),
  importEnrolments: ({ params, body, actor }) => enrolmentCsv.importEnrolments(params.id, body, actor!),
});
