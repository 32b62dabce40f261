import type { Me } from '../domain/profile.ts';
import { resourceHandler } from '../http/handler.ts';

export const handler = resourceHandler('profile', {
  getMe: async ({ actor }): Promise<Me> => {
    const { role, fullName, firstName, lastName, fiscalCode, email, workingEntityId } = actor!;
    return { role, fullName, firstName, lastName, fiscalCode, email, workingEntityId };
  },
});
