import { recordAudit } from '../adapters/audit-log.ts';
import { NotFoundError } from '../domain/errors.ts';
import { userMessages, type UserState } from '../domain/users.ts';
import { resourceHandler } from '../http/handler.ts';
import { userRoutes } from './routes.ts';
import * as users from './repository.ts';

const notFound = () => new NotFoundError(userMessages.notFound);

export const handler = resourceHandler(userRoutes, {
  searchUsers: ({ query }) => users.searchUsers(query),

  countLoadedUsers: async () => ({ count: await users.countLoadedUsers() }),

  getUser: async ({ params }) => (await users.getUser(params.id)) ?? Promise.reject(notFound()),

  createUser: async ({ body, actor }) => {
    const user = await users.createUser(body);
    await recordAudit({ actor: actor!, entity: 'user', id: user.id, action: 'create', before: null, after: user });
    return user;
  },

  updateUser: async ({ params, body, actor }) => {
    const result = await users.updateUser(params.id, body);
    if (!result) throw notFound();
    const after = users.toUser(result.after);
    await recordAudit({ actor: actor!, entity: 'user', id: params.id, action: 'update', before: users.toUser(result.before), after });
    return after;
  },

  /** 'SOSPENDI' / 'ABILITA': a re-enabled user is LOADED again if their newest ISEE still waits. */
  setUserStatus: async ({ params, body, actor }) => {
    const current = await users.getUserItem(params.id);
    if (!current) throw notFound();
    const state: UserState = body.suspended ? 'SUSPEND' : current.lastIsee?.state === 'LOADED' ? 'LOADED' : 'VALIDATED';
    const result = await users.updateUserFields(params.id, { state });
    if (!result) throw notFound();
    const after = users.toUser(result.after);
    await recordAudit({ actor: actor!, entity: 'user', id: params.id, action: 'update', before: users.toUser(result.before), after });
    return after;
  },

  deleteUser: async ({ params, actor }) => {
    const before = await users.deleteUser(params.id);
    await recordAudit({ actor: actor!, entity: 'user', id: params.id, action: 'delete', before: users.toUser(before), after: null });
  },
});
