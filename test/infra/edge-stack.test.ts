import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';

let portal: ScratchApp;
beforeAll(() => {
  portal = scratchApp({ bundle: false });
});
afterAll(() => portal.dispose());

describe('edge stack: the distribution’s web ACL (us-east-1)', () => {
  it('is made in us-east-1 with CLOUDFRONT scope, and deployed before the stacks that use it', () => {
    expect(portal.edge!.region).toBe('us-east-1');
    expect(portal.stacks[0]).toBe(portal.edge);
    Template.fromStack(portal.edge!).resourceCountIs('AWS::WAFv2::WebACL', 1);
    Template.fromStack(portal.edge!).hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
    });
  });

  it('blocks one IP address past the rate limit on the API (429), and runs AWS’s common and known-bad-inputs rules', () => {
    const [acl] = Object.values(Template.fromStack(portal.edge!).findResources('AWS::WAFv2::WebACL'));
    const rules = acl!.Properties.Rules as {
      Name: string;
      Priority: number;
      Action?: unknown;
      OverrideAction?: unknown;
      Statement: Record<string, any>;
    }[];
    const rate = rules.find((r) => r.Statement.RateBasedStatement)!;
    // The limit the operators' guide gives: "one IP address sending more than 1,000 requests to `/api/*` in 5 minutes".
    const [, requests, minutes] = readFileSync('docs/operations.md', 'utf8').match(
      /sending more than ([\d,]+) requests to `\/api\/\*` in (\d+) minutes/,
    )!;
    expect(rate.Statement.RateBasedStatement).toMatchObject({
      Limit: Number(requests!.replace(/,/g, '')),
      AggregateKeyType: 'IP',
      EvaluationWindowSec: Number(minutes) * 60,
    });
    expect(rate.Statement.RateBasedStatement.ScopeDownStatement.ByteMatchStatement).toMatchObject({
      SearchString: '/api/',
      PositionalConstraint: 'STARTS_WITH',
      FieldToMatch: { UriPath: {} },
    });
    expect(rate.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
    const managed = rules
      .filter((r) => r.Statement.ManagedRuleGroupStatement)
      .map((r) => [
        r.Statement.ManagedRuleGroupStatement.VendorName,
        r.Statement.ManagedRuleGroupStatement.Name,
        r.OverrideAction,
      ]);
    expect(managed).toEqual([
      ['AWS', 'AWSManagedRulesCommonRuleSet', { None: {} }],
      ['AWS', 'AWSManagedRulesKnownBadInputsRuleSet', { None: {} }],
    ]);
    expect(new Set(rules.map((r) => r.Priority)).size).toBe(rules.length);
  });

  it('attaches it to the distribution', () => {
    const [distribution] = Object.values(Template.fromStack(portal.web).findResources('AWS::CloudFront::Distribution'));
    // A cross-region reference: the ARN of the edge stack's web ACL, read in eu-south-1.
    expect(JSON.stringify(distribution!.Properties.DistributionConfig.WebACLId)).toMatch(/ExportsReader|WebAcl/);
  });

  it('makes none when the stage gives its own web ACL, and attaches that one', () => {
    const own = 'arn:aws:wafv2:us-east-1:111111111111:global/webacl/comune/abc';
    const staged = scratchApp({ bundle: false, context: { webAclArn: own } });
    try {
      expect(staged.edge).toBeUndefined();
      // us-east-1 keeps only CloudFront's alarms: no web ACL of ours anywhere.
      expect(staged.stacks.filter((s) => s.region === 'us-east-1')).toEqual([staged.edgeAlarms]);
      for (const stack of staged.stacks) Template.fromStack(stack).resourceCountIs('AWS::WAFv2::WebACL', 0);
      Template.fromStack(staged.web).hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: { WebACLId: own },
      });
    } finally {
      staged.dispose();
    }
  });
});
