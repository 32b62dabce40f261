import { inject as injectProvided } from 'vitest';
import type { StackAddresses } from './stack-pool.ts';

/**
 * An address of this worker's own stack (test/support/stack-pool.ts starts one per worker; vitest numbers
 * its workers 1…maxWorkers in VITEST_POOL_ID, and two files running at once never share a number).
 */
export function inject<K extends keyof StackAddresses>(key: K): StackAddresses[K] {
  return workerStack()[key];
}

export function workerStack(): StackAddresses {
  const stacks = injectProvided('stacks');
  const stack = stacks[Number(process.env.VITEST_POOL_ID ?? 1) - 1];
  if (!stack) throw new Error(`No test stack for worker ${process.env.VITEST_POOL_ID} (${stacks.length} started)`);
  return stack;
}
