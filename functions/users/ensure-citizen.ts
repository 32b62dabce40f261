import { randomUUID } from 'node:crypto';
import { systemClock } from '../adapters/ports/clock.ts';
// Only what a first sign-in needs: the users' search stays out of the bundles that use this.
import { claimFiscalCode, findUserIdByFiscalCode, insertUser } from './repository.ts';
import { makeEnsureCitizen } from './use-cases.ts';

/** The citizen's record, created at the first sign-in, wired to the real adapters for every handler that needs it. */
export const ensureCitizen = makeEnsureCitizen({
  users: { findUserIdByFiscalCode, claimFiscalCode, insertUser },
  ids: randomUUID,
  clock: systemClock,
});
