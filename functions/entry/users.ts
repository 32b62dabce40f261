import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as iseeRepository from '../isee/repository.ts';
// Only what it asks of the subscriptions: the rest of their repository (the enrolment table) stays out of this bundle.
import { syncUserNames, userHasSubscriptions } from '../subscriptions/repository.ts';
import * as userRepository from '../users/repository.ts';
import { searchUsers } from '../users/repository-search.ts';
import { makeUserUseCases } from '../users/use-cases.ts';
import { userRoutes } from '../users/routes.ts';

const users = makeUserUseCases({
  users: { ...userRepository, searchUsers },
  isees: iseeRepository,
  subscriptions: { userHasSubscriptions, syncUserNames },
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(userRoutes, {
  searchUsers: ({ query }) => users.searchUsers(query),
  countLoadedUsers: () => users.countLoadedUsers(),
  getUser: ({ params }) => users.getUser(params.id),
  createUser: ({ body, actor }) => users.createUser(body, actor),
  updateUser: ({ params, body, actor }) => users.updateUser(params.id, body, actor),
  setUserStatus: ({ params, body, actor }) => users.setUserStatus(params.id, body.suspended, actor),
  deleteUser: ({ params, actor }) => users.deleteUser(params.id, actor),
});
