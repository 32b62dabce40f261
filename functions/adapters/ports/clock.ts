/**
 * What every use case may receive besides its repositories. The real adapters are wired once in each
 * entry (functions/entry/); the use-case tests pass in-memory ones (test/support/in-memory.ts).
 */
export interface Clock {
  now(): Date;
}

export type IdGenerator = () => string;

export const systemClock: Clock = { now: () => new Date() };
