import { App, Stack, Validations, type PolicyViolation } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';

/**
 * cdk-nag 3 runs as a CDK policy-validation plugin: `app.synth()` (and so `cdk synth`) fails on any
 * finding that is not acknowledged. These tests run the AwsSolutions pack on each stack once more to
 * show what it finds, and check that every acknowledgement is specific and still needed.
 */
const findings = (scope: IConstruct): PolicyViolation[] =>
  new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(scope).violations;
const describeFindings = (violations: PolicyViolation[]) =>
  violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
  scope: IConstruct;
}
function acknowledgementsIn(app: App): Acknowledgement[] {
  return app.node.findAll().flatMap((scope) =>
    scope.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) => Object.entries(m.data as Record<string, string>))
      .map(([id, reason]) => ({ path: scope.node.path, id: id.replace(/^annotation::/i, ''), reason, scope })),
  );
}

describe.each([
  ['with no context', {}],
  [
    'with a custom domain, the API’s own domain and a web ACL',
    {
      webDomainName: 'servizisociali.comune.example.it',
      certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
      apiDomainName: 'api.servizisociali.comune.example.it',
      apiCertificateArn: 'arn:aws:acm:eu-south-1:111111111111:certificate/api',
      webAclArn: 'arn:aws:wafv2:us-east-1:111111111111:global/webacl/portale/abc',
    },
  ],
])('cdk-nag AwsSolutions %s', (_, context) => {
  let portal: ScratchApp;
  beforeAll(() => {
    portal = sharedPortal({ bundle: false, context });
    portal.app.synth();
  });
  afterAll(() => portal.dispose());

  it('leaves no finding unacknowledged in any stack, errors and warnings alike', () => {
    for (const stack of portal.stacks) expect(describeFindings(findings(stack)), stack.stackName).toEqual([]);
  });

  it('leaves no CDK warning or error annotation on any stack either', () => {
    for (const stack of portal.stacks) {
      expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue()), stack.stackName).toEqual([]);
      expect(Annotations.fromStack(stack).findError('*', Match.anyValue()), stack.stackName).toEqual([]);
    }
  });

  it('acknowledges findings on the resources concerned, never on a whole stack or the app', () => {
    const acknowledgements = acknowledgementsIn(portal.app);
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const { scope, path } of acknowledgements) {
      expect(Stack.isStack(scope) || App.isApp(scope), path).toBe(false);
    }
  });

  it('gives every acknowledgement its own reason', () => {
    for (const { path, id, reason } of acknowledgementsIn(portal.app)) {
      expect(reason.length, `${path} ${id}`).toBeGreaterThanOrEqual(60);
      expect(reason, `${path} ${id}`).not.toMatch(/^(ok|n\/a|not needed|suppress)/i);
    }
  });

  it('acknowledges only findings that cdk-nag really reports (none stale, none blanket)', () => {
    // The same app with acknowledgements switched off: what cdk-nag would report on its own.
    const spy = vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => {});
    const raw = scratchApp({ bundle: false, context, nag: false });
    try {
      raw.app.synth();
      const reported = findings(raw.app).flatMap((v) =>
        v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '' })),
      );
      const acknowledgements = acknowledgementsIn(portal.app);
      for (const { path, id } of acknowledgements) {
        const covers = reported.filter((f) => f.rule === id && (f.path === path || f.path.startsWith(`${path}/`)));
        expect(covers.length, `${path} ${id} acknowledges nothing`).toBeGreaterThan(0);
      }
      for (const finding of reported) {
        const covered = acknowledgements.some(
          (a) => a.id === finding.rule && (finding.path === a.path || finding.path.startsWith(`${a.path}/`)),
        );
        expect(covered, `${finding.path} ${finding.rule}`).toBe(true);
      }
    } finally {
      spy.mockRestore();
      raw.dispose();
    }
  });
});

describe('cdk-nag conditional acknowledgements', () => {
  it('drops the CloudFront TLS and WAF acknowledgements once a custom domain and a web ACL are given', () => {
    const portal = sharedPortal({
      bundle: false,
      context: {
        webDomainName: 'servizisociali.comune.example.it',
        certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
        webAclArn: 'arn:aws:wafv2:us-east-1:111111111111:global/webacl/portale/abc',
      },
    });
    try {
      portal.app.synth();
      const ids = acknowledgementsIn(portal.app).map((a) => a.id);
      expect(ids).toContain('AwsSolutions-CFR1');
      expect(ids).not.toContain('AwsSolutions-CFR2');
      expect(ids).not.toContain('AwsSolutions-CFR4');
    } finally {
      portal.dispose();
    }
  });
});
