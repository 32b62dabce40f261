import { Stack, type StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/**
 * Requests one client (IP address) may make to the API in 5 minutes before the WAF blocks it for a while
 * (WAF's rate-based rule: the smallest window is 1 minute, the evaluation window here 5). A council office
 * behind one address stays far below it; a script hammering the public routes does not.
 */
export const API_RATE_LIMIT_PER_IP = 1000;

export interface EdgeStackProps extends StackProps {
  /** Prefix of the metric names (the deployment's stackPrefix). */
  prefix: string;
}

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

/**
 * What CloudFront needs from us-east-1: the web ACL of the distribution (a CLOUDFRONT-scope web ACL can
 * only be created there). A rate limit per IP on the API, so one abuser cannot exhaust the API's shared
 * throttle, and AWS's managed rule groups for common attacks and known bad inputs.
 */
export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const managed = (
      name: string,
      priority: number,
      ruleActionOverrides?: wafv2.CfnWebACL.RuleActionOverrideProperty[],
    ): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ruleActionOverrides } },
      visibilityConfig: visibility(`${props.prefix}-${name}`),
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Portale servizi sociali: rate limit per IP on the API, AWS common and known-bad-inputs rules',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.prefix}-portale`),
      rules: [
        {
          name: 'ApiRatePerIp',
          priority: 0,
          action: { block: { customResponse: { responseCode: 429 } } },
          statement: {
            rateBasedStatement: {
              limit: API_RATE_LIMIT_PER_IP,
              aggregateKeyType: 'IP',
              evaluationWindowSec: 300,
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/api/',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: visibility(`${props.prefix}-ApiRatePerIp`),
        },
        // SizeRestrictions_BODY blocks bodies over 8 KB: an operator's enrolment CSV or a long support message
        // is larger, and the API validates every body itself (functions/http/handler.ts), so it only counts.
        managed('AWSManagedRulesCommonRuleSet', 1, [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }]),
        managed('AWSManagedRulesKnownBadInputsRuleSet', 2),
      ],
    });
  }
}
