import { randomUUID } from 'node:crypto';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
import * as userRepository from '../users/repository.ts';
import { makeEnsureCitizen } from '../users/use-cases.ts';
import { makeProfileUseCases } from './use-cases.ts';
import { profileRoutes } from './routes.ts';

const profile = makeProfileUseCases({
  users: userRepository,
  ensureCitizen: makeEnsureCitizen({ users: userRepository, ids: randomUUID, clock: systemClock }),
  clock: systemClock,
});

export const handler = resourceHandler(profileRoutes, {
  getMe: ({ actor }) => profile.getMe(actor!),
  getProfile: ({ actor }) => profile.getProfile(actor!),
  updateProfile: ({ actor, body }) => profile.updateProfile(body, actor!),
});
