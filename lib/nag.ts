import { Stack, Validations } from 'aws-cdk-lib';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag 3 findings are acknowledged with CDK's own Validations API; an acknowledgement covers the
 * construct and everything under it. `rules` maps a rule id (with `[finding]` for rules such as IAM5
 * that report one finding per wildcard) to why the finding is acceptable here.
 */
export function acknowledge(scope: IConstruct, rules: Record<string, string>): void {
  for (const [id, reason] of Object.entries(rules)) Validations.of(scope).acknowledge({ id, reason });
}

/**
 * Acknowledges the IAM5 finding of one wildcard resource (e.g. `bucket.arnForObjects('*')`), spelt as
 * cdk-nag spells it in the policy's own template. A resource from another stack is spelt as a
 * cross-stack reference, which CDK only settles while preparing the synth: so the finding id is
 * computed then, in a construct validation that runs after that and before cdk-nag.
 */
export function acknowledgeWildcardResource(scope: IConstruct, resource: string, reason: string): void {
  scope.node.addValidation({
    validate: () => {
      const finding = flattenCfnReference(Stack.of(scope).resolve(resource));
      acknowledge(scope, { [`AwsSolutions-IAM5[Resource::${finding}]`]: reason });
      return [];
    },
  });
}
