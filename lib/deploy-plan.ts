import type { Check } from './preflight.ts';
import { stackNamesOf } from './stage-config.ts';

/**
 * What `npm run deploy` and `npm run rollback` decide, apart from running the CDK CLI (lib/deploy-steps.ts): which
 * stacks, in which order, and when to refuse. Pure, so each decision is tested (test/unit/deploy-plan.test.ts).
 */

interface StackSettings {
  stackPrefix: string;
  /** A stage with its own web ACL has no Edge stack of the portal's. */
  webAclArn?: string;
}

/** Every stack of the stage, in deploy order. */
export const stageStacks = (settings: StackSettings) =>
  stackNamesOf(settings.stackPrefix, { edge: !settings.webAclArn, edgeAlarms: true });

/**
 * The stacks a deploy updates, in order, and the preflight checks it needs: the data stack alone (`--data-only`, the
 * first time: it makes the PDND key whose kid the stage's file needs) needs only the account, the region, the
 * bootstrap and the API domain's certificate.
 */
export function deployPlan(
  settings: StackSettings,
  dataOnly: boolean,
): { stacks: string[]; needs: ((check: Check) => boolean) | undefined } {
  if (!dataOnly) return { stacks: stageStacks(settings), needs: undefined };
  return {
    stacks: [`${settings.stackPrefix}Data`],
    needs: (check) =>
      /^(credentials|region|CDK bootstrap)/.test(check.title) || check.title.includes('the API’s own domain'),
  };
}

/** A stack the tag does not have yet (one added since, e.g. EdgeAlarms) stays as it is deployed. */
export function rollbackStacks(stacks: string[], inTag: (stack: string) => boolean) {
  return { compare: stacks.filter(inTag), left: stacks.filter((stack) => !inTag(stack)) };
}

/** The data and auth stacks hold the table, the buckets and the user pool: never rolled back without being asked. */
const isStateful = (stack: string) => stack.endsWith('Data') || stack.endsWith('Auth');

/** What a rollback does with the stacks whose deployed template differs from the tag's. */
export function rollbackDecision(
  changed: string[],
  includeStateful: boolean,
): { kind: 'nothing' } | { kind: 'refuse'; message: string } | { kind: 'deploy'; stacks: string[] } {
  if (changed.length === 0) return { kind: 'nothing' };
  const stateful = changed.filter(isStateful);
  if (stateful.length > 0 && !includeStateful)
    return {
      kind: 'refuse',
      message: `${stateful.join(', ')} would change too (above): a rollback of the table, buckets or user pool is not automatic. Read docs/operations.md, "Rolling back", then add --include-stateful if it is safe.`,
    };
  return { kind: 'deploy', stacks: changed };
}
