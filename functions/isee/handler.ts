import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3FileStore } from '../adapters/files.ts';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
import * as userRepository from '../users/repository.ts';
import { ensureCitizen } from '../users/ensure-citizen.ts';
import * as iseeRepository from './repository.ts';
// Only the ISEE copy on the user's subscriptions: the rest of the subscriptions repository stays out of this bundle.
import { syncUserIsee } from '../subscriptions/repository.ts';
import { makeIseeUseCases } from './use-cases.ts';
import { inpsRuntime } from '../adapters/inps-config.ts';
import * as inpsQueries from './inps-queries-repository.ts';
import { makeInpsIseeUseCases } from './inps-use-cases.ts';
import { iseeRoutes } from './routes.ts';

/** Exported for the demo data (lib/local/demo-users.ts), which records its ISEE the way the API does. */
export const isee = makeIseeUseCases({
  isees: iseeRepository,
  users: userRepository,
  ensureCitizen,
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
  subscriptions: { syncUserIsee },
});

/** The ISEE from INPS through PDND (issue 24): the same use cases the refresh jobs run. */
export const inpsIsee = makeInpsIseeUseCases({
  inps: () => inpsRuntime().inps,
  settings: () => inpsRuntime(),
  isees: { getIseeItem: iseeRepository.getIseeItem, newestIseeOfUser: iseeRepository.newestIseeOfUser, recordIsee: isee.recordIsee },
  users: userRepository,
  ensureCitizen,
  queries: inpsQueries,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(iseeRoutes, {
  listIseesToVerify: ({ query }) => isee.listIseesToVerify(query),
  countIseesToVerify: () => isee.countIseesToVerify(),
  getIsee: ({ params, actor }) => isee.getIsee(params.id, actor!),
  listMyIsees: ({ query, actor }) => isee.listMyIsees(query, actor!),
  listUserIsees: ({ params, query }) => isee.listUserIsees(params.id, query),
  uploadMyIsee: ({ body, actor }) => isee.uploadMyIsee(body, actor!),
  uploadUserIsee: ({ params, body, actor }) => isee.uploadUserIsee(params.id, body, actor!),
  decideIsee: ({ params, body, actor }) => isee.decideIsee(params.id, body, actor!),
  deleteIsee: ({ params, actor }) => isee.deleteIsee(params.id, actor!),
  fetchMyIseeFromInps: ({ actor }) => inpsIsee.fetchMyIsee(actor!),
  listMyInpsQueries: ({ query, actor }) => inpsIsee.listMyQueries(actor!, query),
  fetchUserIseeFromInps: ({ params, actor }) => inpsIsee.fetchUserIsee(params.id, actor!),
  listUserInpsQueries: ({ params, query }) => inpsIsee.listUserQueries(params.id, query),
  checkIseeWithInps: ({ params, actor }) => inpsIsee.checkWithInps(params.id, actor!),
});
