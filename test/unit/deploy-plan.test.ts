import { describe, expect, it } from 'vitest';
import { deployPlan, rollbackDecision, rollbackStacks, stageStacks } from '../../lib/deploy-plan.ts';

/** What npm run deploy and npm run rollback decide before they run the CDK CLI (docs/operations.md). */
describe('npm run deploy -- <stage>', () => {
  it('deploys every stack in order: the web ACL first, the stateful stacks before the API, the edge alarms last', () => {
    expect(deployPlan({ stackPrefix: 'PortaleProd' }, false)).toEqual({
      stacks: [
        'PortaleProdEdge',
        'PortaleProdData',
        'PortaleProdAuth',
        'PortaleProdWeb',
        'PortaleProdApi',
        'PortaleProdIseeExtraction',
        'PortaleProdOperations',
        'PortaleProdEdgeAlarms',
      ],
      needs: undefined,
    });
  });

  it('has no Edge stack of its own when the stage gives its web ACL', () => {
    const { stacks } = deployPlan(
      { stackPrefix: 'PortaleProd', webAclArn: 'arn:aws:wafv2:us-east-1:1:global/webacl/x/y' },
      false,
    );
    expect(stacks).not.toContain('PortaleProdEdge');
    expect(stacks[0]).toBe('PortaleProdData');
  });

  it('--data-only deploys the data stack alone', () => {
    expect(deployPlan({ stackPrefix: 'PortaleStaging' }, true).stacks).toEqual(['PortaleStagingData']);
  });
});

describe('npm run rollback -- <stage> <tag>', () => {
  const stacks = stageStacks({ stackPrefix: 'PortaleProd' });

  it('leaves as deployed a stack the tag does not have yet, and compares the others', () => {
    const { compare, left } = rollbackStacks(stacks, (stack) => stack !== 'PortaleProdEdgeAlarms');
    expect(left).toEqual(['PortaleProdEdgeAlarms']);
    expect(compare).toEqual(stacks.filter((stack) => stack !== 'PortaleProdEdgeAlarms'));
  });

  it('does nothing when every stack already matches the tag', () => {
    expect(rollbackDecision([], false)).toEqual({ kind: 'nothing' });
  });

  it('rolls back only the stacks that differ, when none holds data', () => {
    expect(rollbackDecision(['PortaleProdApi', 'PortaleProdWeb'], false)).toEqual({
      kind: 'deploy',
      stacks: ['PortaleProdApi', 'PortaleProdWeb'],
    });
  });

  it('refuses to roll back the table, buckets or user pool unless asked, and names them', () => {
    const refused = rollbackDecision(['PortaleProdData', 'PortaleProdAuth', 'PortaleProdApi'], false);
    expect(refused).toMatchObject({ kind: 'refuse' });
    expect(refused.kind === 'refuse' && refused.message).toMatch(/^PortaleProdData, PortaleProdAuth would change too/);
    expect(refused.kind === 'refuse' && refused.message).toContain('--include-stateful');
    expect(rollbackDecision(['PortaleProdData', 'PortaleProdApi'], true)).toEqual({
      kind: 'deploy',
      stacks: ['PortaleProdData', 'PortaleProdApi'],
    });
  });
});
