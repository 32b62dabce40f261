import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as userRepository from '../users/repository.ts';
import { ensureCitizen } from '../users/ensure-citizen.ts';
import { makeProfileUseCases } from '../profile/use-cases.ts';
import { profileRoutes } from '../profile/routes.ts';

const profile = makeProfileUseCases({
  users: userRepository,
  ensureCitizen,
  clock: systemClock,
});

export const handler = resourceHandler(profileRoutes, {
  getMe: ({ actor }) => profile.getMe(actor),
  getProfile: ({ actor }) => profile.getProfile(actor),
  updateProfile: ({ actor, body }) => profile.updateProfile(body, actor),
});
