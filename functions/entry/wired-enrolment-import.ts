import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { getCall } from '../calls/repository.ts';
import { runningExportOf } from '../flows/repository.ts';
import { runningExportsOf } from '../flows/running-exports.ts';
import * as iseeRepository from '../isee/repository.ts';
import { makeIseeUseCases } from '../isee/use-cases.ts';
import {
  deleteSubscription,
  getSubscription,
  listAllSubscriptionsOfCall,
  putSubscription,
  recountEnrolments,
  syncUserIsee,
} from '../subscriptions/repository.ts';
import { findUserIdByFiscalCode, getUserItem, getUserItems, updateUserFields } from '../users/repository.ts';
import { getPlan, getPlanSlice } from '../enrolment-csv/plan-repository.ts';
import { makeImportApply } from '../enrolment-csv/import-apply.ts';

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

/** The job kind 'enrolment-import' on the real adapters (functions/entry/job-task.ts). */
export const enrolmentImport = makeImportApply({
  plans: { getPlan, getPlanSlice },
  subscriptions: {
    getSubscription,
    putSubscription,
    deleteSubscription,
    listAllSubscriptionsOfCall,
    recountEnrolments,
  },
  calls: { getCall },
  users: { getUserItems },
  isees: { recordIsee: isee.recordIsee },
  files: s3FileStore,
  exports: runningExportsOf({ runningExportOf }),
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});
