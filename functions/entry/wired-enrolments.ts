import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { getBands } from '../bands/repository.ts';
import { getCall } from '../calls/repository.ts';
import { runningExportOf } from '../flows/repository.ts';
import { runningExportsOf } from '../flows/running-exports.ts';
import {
  deleteSubscription,
  getSubscription,
  listAllSubscriptionsOfCall,
  putSubscription,
  recountEnrolments,
} from '../subscriptions/repository.ts';
import { listEnrolments } from '../subscriptions/repository-enrolment-query.ts';
import { getUserItem } from '../users/repository.ts';
import { makeEnrolmentUseCases, type EnrolmentDeps } from '../enrolments/use-cases.ts';

/** The enrolment use cases on the real adapters: for the API function (with the background jobs it starts) and the job function ('Reset ore'). */
export const enrolmentUseCases = (extra: Pick<EnrolmentDeps, 'jobs'> = {}) =>
  makeEnrolmentUseCases({
    subscriptions: {
      getSubscription,
      putSubscription,
      deleteSubscription,
      listEnrolments,
      listAllSubscriptionsOfCall,
      recountEnrolments,
    },
    calls: { getCall },
    bands: { getBands },
    users: { getUserItem },
    files: s3FileStore,
    exports: runningExportsOf({ runningExportOf }),
    audit: dynamoAuditLog,
    clock: systemClock,
    ids: randomUUID,
    ...extra,
  });
