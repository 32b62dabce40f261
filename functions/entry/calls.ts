import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as bandRepository from '../bands/repository.ts';
import * as serviceRepository from '../services/repository.ts';
// Only what it asks of the subscriptions and users: the rest of their repositories stays out of this bundle.
import { countSubscriptionsOfCall, getSubscription } from '../subscriptions/repository.ts';
import { findUserIdByFiscalCode } from '../users/repository.ts';
import * as callRepository from '../calls/repository.ts';
import { makeCallUseCases } from '../calls/use-cases.ts';
import { callRoutes } from '../calls/routes.ts';

const calls = makeCallUseCases({
  calls: callRepository,
  services: serviceRepository,
  bands: bandRepository,
  subscriptions: { countSubscriptionsOfCall, getSubscription },
  citizens: { findUserIdByFiscalCode },
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(callRoutes, {
  listCalls: ({ query }) => calls.listCalls(query),
  listServiceCalls: ({ params, query }) => calls.listServiceCalls(params.id, query),
  getCall: ({ params }) => calls.getCall(params.id),
  createCall: ({ body, actor }) => calls.createCall(body, actor),
  updateCall: ({ params, body, actor }) => calls.updateCall(params.id, body, actor),
  deleteCall: ({ params, actor }) => calls.deleteCall(params.id, actor),
  deleteCallFile: ({ params, actor }) => calls.deleteCallFile(params.id, params.fileId, actor),
  listOpenCalls: ({ query }) => calls.listOpenCalls(query),
  getOpenCall: ({ params }) => calls.getOpenCall(params.id),
  getCitizenCall: ({ params, actor }) => calls.getCitizenCall(params.id, actor),
});
