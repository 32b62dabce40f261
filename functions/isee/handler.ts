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
});
