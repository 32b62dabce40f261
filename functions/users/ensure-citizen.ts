import { randomUUID } from 'node:crypto';
import { systemClock } from '../adapters/ports.ts';
import * as userRepository from './repository.ts';
import { makeEnsureCitizen } from './use-cases.ts';

/** The citizen's record, created at the first sign-in, wired to the real adapters for every handler that needs it. */
export const ensureCitizen = makeEnsureCitizen({ users: userRepository, ids: randomUUID, clock: systemClock });
