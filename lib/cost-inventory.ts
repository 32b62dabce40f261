import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { businessDimensions, businessMetricDefinitions } from '../functions/domain/business-metrics.ts';
import { routes } from '../functions/routes.ts';
import type { Inventory } from './cost-model.ts';
import { scratchApp, type ScratchApp } from './scratch-app.ts';

type Json = any;
const ofType = (templates: Json[], type: string): Json[] =>
  templates.flatMap((t) => Object.values<Json>(t.Resources ?? {}).filter((r) => r.Type === type));

/**
 * What a deployment holds that is billed by the unit, counted in the synthesized app (not typed by hand): the
 * alarms' metrics (CloudWatch bills an alarm per metric it reads), the custom metrics the code publishes, the KMS
 * keys, the Secrets Manager secrets the templates resolve or grant, the functions, state machines and dashboards,
 * the WAF web ACLs and their rules.
 */
export function inventoryOf(portal: Pick<ScratchApp, 'app'>): Inventory {
  const templates = portal.app.node.children
    .filter((c): c is Stack => Stack.isStack(c))
    .map((stack) => Template.fromStack(stack).toJSON());
  const alarmMetrics = ofType(templates, 'AWS::CloudWatch::Alarm').reduce(
    (sum, alarm) =>
      sum + (alarm.Properties.MetricName ? 1 : alarm.Properties.Metrics.filter((m: Json) => m.MetricStat).length),
    0,
  );
  const secretNames = new Set<string>();
  // A secret of the account is named by a dynamic reference or, read at run time, by the grant on it (its ARN ends in "-??????").
  for (const template of templates) {
    const text = JSON.stringify(template);
    // A reference joined with a Ref (the web stack's origin-verify secret) names a secret the templates create: counted below.
    for (const [, name] of text.matchAll(/\{\{resolve:secretsmanager:([^:}"]+)/g)) secretNames.add(name!);
    for (const [, name] of text.matchAll(/:secret:([^"]+?)-\?{6}/g)) secretNames.add(name!);
  }
  const definitions: { description: string; dimension?: keyof typeof businessDimensions }[] =
    Object.values(businessMetricDefinitions);
  const webAcls = ofType(templates, 'AWS::WAFv2::WebACL');
  const businessMetrics = definitions.reduce(
    (sum, d) => sum + (d.dimension ? businessDimensions[d.dimension].length : 1),
    0,
  );
  return {
    alarmMetrics,
    // The API publishes Request per operation (functions/http/observability); the business catalogue with its dimensions;
    // one metric per metric filter (the fast routes' latency).
    customMetrics: routes.length + businessMetrics + ofType(templates, 'AWS::Logs::MetricFilter').length,
    kmsKeys: ofType(templates, 'AWS::KMS::Key').length,
    secrets: secretNames.size + ofType(templates, 'AWS::SecretsManager::Secret').length,
    functions: ofType(templates, 'AWS::Lambda::Function').length,
    stateMachines: ofType(templates, 'AWS::StepFunctions::StateMachine').length,
    dashboards: ofType(templates, 'AWS::CloudWatch::Dashboard').length,
    webAcls: webAcls.length,
    webAclRules: webAcls.reduce((sum, acl) => sum + (acl.Properties.Rules?.length ?? 0), 0),
  };
}

/** The inventory of the portal as the repository defines it (no bundling, no cdk-nag: a synth of the templates only). */
export function portalInventory(): Inventory {
  const portal = scratchApp({ bundle: false, nag: false });
  try {
    return inventoryOf(portal);
  } finally {
    portal.dispose();
  }
}
