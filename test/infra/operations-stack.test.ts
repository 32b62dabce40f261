import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessMetricNames } from '../../functions/domain/business-metrics.ts';
import { MIGRATION_IDS } from '../../functions/migrations/ids.ts';
import { resources, routeKey, routes } from '../../functions/routes.ts';
import { FAST_ROUTE_LATENCY } from '../../lib/alarms.ts';
import { inventoryOf } from '../../lib/cost-inventory.ts';
import { OperationsStack } from '../../lib/operations-stack.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';
import { completeProduction } from '../support/stages.ts';

/**
 * The operations stack read from the synthesized templates: the alarms' topic, an alarm on every function
 * and state machine found in ANY template of the app (so a function added without alarms fails here), the
 * dashboard's widgets and their metrics, and the migrations' trigger.
 */
type Json = any;

interface Synthesized {
  portal: ScratchApp;
  templates: Map<string, Json>;
  operations: Json;
}

/** Every stack of the app (not only those buildApp lists), so a stack added anywhere is checked too. */
function synthesize(portal: ScratchApp): Synthesized {
  const stacks = portal.app.node.children.filter((c): c is Stack => Stack.isStack(c));
  const templates = new Map<string, Json>(stacks.map((stack) => [stack.stackName, Template.fromStack(stack).toJSON()]));
  return { portal, templates, operations: templates.get(portal.operations.stackName) };
}

/** `<stack>/<logical id>` of what a value of the operations template points at: a Ref of its own, or another stack's output (weak references). */
function target(s: Synthesized, value: Json): string | null {
  if (value?.Ref) return `${s.portal.operations.stackName}/${value.Ref}`;
  const output = value?.['Fn::GetStackOutput'];
  if (output) {
    const produced = s.templates.get(output.StackName)?.Outputs?.[output.OutputName]?.Value;
    return produced?.Ref ? `${output.StackName}/${produced.Ref}` : null;
  }
  return null;
}

const resourcesOf = (template: Json, type: string): [string, Json][] =>
  Object.entries(template.Resources ?? {}).filter(([, r]: [string, Json]) => r.Type === type) as [string, Json][];

/** The functions CloudFormation calls only while deploying: the service tokens of custom resources. */
function deployOnly(template: Json): Set<string> {
  return new Set(
    Object.values<Json>(template.Resources ?? {})
      .filter((r) => /^Custom::|^AWS::CloudFormation::CustomResource$/.test(r.Type))
      .map((r) => r.Properties?.ServiceToken?.['Fn::GetAtt']?.[0])
      .filter(Boolean),
  );
}

const alarmsOf = (s: Synthesized) => resourcesOf(s.operations, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);

/** The alarm on `metric` of `namespace` whose dimension `dimension` points at `resource` (`<stack>/<logical id>`). */
const alarmOn = (s: Synthesized, namespace: string, metric: string, dimension: string, resource: string) =>
  alarmsOf(s).filter(
    (a) =>
      a.Namespace === namespace &&
      a.MetricName === metric &&
      a.Dimensions?.some((d: Json) => d.Name === dimension && target(s, d.Value) === resource),
  );

/** The functions a state machine of the template invokes as a Task (`<stack>/<logical id>`). */
function stateMachineTasksOf(s: Synthesized): Set<string> {
  const tasks = new Set<string>();
  for (const [stackName, template] of s.templates) {
    for (const [, machine] of resourcesOf(template, 'AWS::StepFunctions::StateMachine')) {
      for (const [, id] of JSON.stringify(machine.Properties.DefinitionString).matchAll(
        /"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/g,
      ))
        tasks.add(`${stackName}/${id}`);
    }
  }
  return tasks;
}

/**
 * Every function of every template that runs outside deployments, and which metrics of it have no alarm: errors
 * and throttles; a state machine's task throttles only (its errors are the state machine's to retry or report),
 * and then no errors alarm at all.
 */
function functionsWithoutAlarms(s: Synthesized): string[] {
  const missing: string[] = [];
  const tasks = stateMachineTasksOf(s);
  for (const [stackName, template] of s.templates) {
    const skip = deployOnly(template);
    for (const [id] of resourcesOf(template, 'AWS::Lambda::Function')) {
      if (skip.has(id)) continue;
      const task = tasks.has(`${stackName}/${id}`);
      for (const metric of task ? ['Throttles'] : ['Errors', 'Throttles']) {
        if (alarmOn(s, 'AWS/Lambda', metric, 'FunctionName', `${stackName}/${id}`).length !== 1)
          missing.push(`${stackName}/${id} ${metric}`);
      }
      if (task && alarmOn(s, 'AWS/Lambda', 'Errors', 'FunctionName', `${stackName}/${id}`).length)
        missing.push(`${stackName}/${id} Errors of a task`);
    }
  }
  return missing;
}

/** Every state machine's failed, timed-out and aborted executions; the MyPay export's failures page as 'flusso in errore' instead. */
function stateMachinesWithoutAlarms(s: Synthesized): string[] {
  const missing: string[] = [];
  const exportMachine = `${s.portal.api.stackName}/${s.portal.api.resolve((s.portal.api.paymentExport.stateMachine.node.defaultChild as Json).logicalId)}`;
  for (const [stackName, template] of s.templates) {
    for (const [id] of resourcesOf(template, 'AWS::StepFunctions::StateMachine')) {
      const machine = `${stackName}/${id}`;
      for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted']) {
        const expected = metric === 'ExecutionsFailed' && machine === exportMachine ? 0 : 1;
        if (alarmOn(s, 'AWS/States', metric, 'StateMachineArn', machine).length !== expected)
          missing.push(`${machine} ${metric}`);
      }
    }
  }
  return missing;
}

/**
 * The dashboard's body as JSON, each CloudFormation value in it (a Ref, a stack output, an alarm's ARN)
 * replaced by `<stack>/<logical id>` of what it points at.
 */
function dashboardBody(s: Synthesized): Json {
  const [[, dashboard]] = resourcesOf(s.operations, 'AWS::CloudWatch::Dashboard');
  const body = dashboard.Properties.DashboardBody;
  const parts: Json[] = body['Fn::Join'] ? body['Fn::Join'][1] : [body];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const getAtt = part['Fn::GetAtt'];
      return getAtt
        ? `${s.portal.operations.stackName}/${getAtt[0]}`
        : (target(s, part) ?? JSON.stringify(part).replace(/"/g, "'"));
    })
    .join('');
  return JSON.parse(text);
}

const widget = (body: Json, title: string) => {
  const found = body.widgets.find((w: Json) => w.properties.title === title);
  if (!found)
    throw new Error(`No widget «${title}» in ${body.widgets.map((w: Json) => w.properties.title).join(' | ')}`);
  return found;
};
/** The metric names a widget graphs (SEARCH and math expressions as their text). */
const metricsIn = (w: Json): string[] =>
  (w.properties.metrics ?? []).map((m: Json) =>
    Array.isArray(m) && typeof m[0] === 'string' && m[0] !== '...' ? `${m[0]} ${m[1]}` : JSON.stringify(m),
  );

let s: Synthesized;
beforeAll(() => {
  s = synthesize(sharedPortal({ bundle: false }));
});
afterAll(() => s.portal.dispose());

describe('the alarms topic', () => {
  it('is encrypted with a key of its own (rotated), accepts only TLS, and lets CloudWatch publish for this deployment’s alarms only', () => {
    const template = Template.fromJSON(s.operations);
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            Condition: {
              StringEquals: { 'aws:SourceAccount': Match.anyValue() },
              ArnLike: { 'aws:SourceArn': Match.anyValue() },
            },
          }),
        ]),
      },
    });
    const [[keyId]] = resourcesOf(s.operations, 'AWS::KMS::Key');
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    const [[, policy]] = resourcesOf(s.operations, 'AWS::SNS::TopicPolicy');
    const statements = policy.Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const publish = statements.find((st: Json) => st.Principal?.Service === 'cloudwatch.amazonaws.com');
    expect(publish).toMatchObject({ Effect: 'Allow', Action: 'sns:Publish' });
    expect(JSON.stringify(publish.Condition.ArnLike['aws:SourceArn'])).toContain(':alarm:Portale - *');
  });

  it('has no subscriber unless the context gives alarmEmail, then that address by e-mail', () => {
    expect(resourcesOf(s.operations, 'AWS::SNS::Subscription')).toEqual([]);
    const withEmail = scratchApp({ bundle: false, context: { alarmEmail: 'reperibile@comune.example.it' } });
    try {
      Template.fromStack(withEmail.operations).hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: 'reperibile@comune.example.it',
      });
    } finally {
      withEmail.dispose();
    }
    expect(() => scratchApp({ bundle: false, context: { alarmEmail: 'not-an-address' } })).toThrow(/alarmEmail/);
  });
});

describe('alarms', () => {
  it('watch every function of every stack (errors and throttles), except the handlers CloudFormation calls while deploying', () => {
    expect(functionsWithoutAlarms(s)).toEqual([]);
    // The web app's upload to its bucket runs only during a deployment: no alarm.
    const web = s.templates.get(s.portal.web.stackName);
    expect(deployOnly(web).size).toBeGreaterThan(0);
  });

  it('would report a function the stacks gain without its alarms', () => {
    const portal = scratchApp({ bundle: false, nag: false });
    try {
      // Made after the operations stack has looked at the stacks: nobody watches it.
      new lambda.Function(portal.api, 'Unwatched', {
        runtime: lambda.Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: lambda.Code.fromInline('exports.handler = async () => 1'),
      });
      const missing = functionsWithoutAlarms(synthesize(portal));
      expect(missing).toHaveLength(2);
      expect(missing.every((m) => m.startsWith(`${portal.api.stackName}/Unwatched`))).toBe(true);
    } finally {
      portal.dispose();
    }
  });

  it('page once for one MyPay refusal: the flow in error, not the export task’s Lambda error nor the failed execution', () => {
    const flowTask = `${s.portal.api.stackName}/${s.portal.api.resolve((s.portal.api.paymentExport.taskFunction.node.defaultChild as Json).logicalId)}`;
    const exportMachine = `${s.portal.api.stackName}/${s.portal.api.resolve((s.portal.api.paymentExport.stateMachine.node.defaultChild as Json).logicalId)}`;
    expect(alarmOn(s, 'AWS/Lambda', 'Errors', 'FunctionName', flowTask)).toEqual([]);
    expect(alarmOn(s, 'AWS/States', 'ExecutionsFailed', 'StateMachineArn', exportMachine)).toEqual([]);
    expect(alarmsOf(s).filter((a) => a.MetricName === 'ExportsFailed')).toHaveLength(1);
    // MyPay unavailable is retried by the export (MyPayUnavailable), an ISEE reading waits for its record: the
    // tasks of every state machine have no Lambda errors alarm, only throttles.
    expect(stateMachineTasksOf(s).size).toBeGreaterThanOrEqual(6);
  });

  it('watch every state machine: executions failed, timed out and aborted', () => {
    expect(stateMachinesWithoutAlarms(s)).toEqual([]);
    const machines = [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::StepFunctions::StateMachine'));
    expect(machines.length).toBeGreaterThanOrEqual(4); // MyPay export, background jobs, ISEE reading, migrations
  });

  it('watch the p95 duration of every API function against 80% of its own timeout', () => {
    const api = s.templates.get(s.portal.api.stackName);
    const apiFunctions = resourcesOf(api, 'AWS::Lambda::Permission')
      .filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com')
      .map(([, p]) => p.Properties.FunctionName['Fn::GetAtt'][0]);
    expect(new Set(apiFunctions).size).toBe(resources.length);
    for (const id of new Set(apiFunctions)) {
      const [alarm] = alarmOn(s, 'AWS/Lambda', 'Duration', 'FunctionName', `${s.portal.api.stackName}/${id}`);
      expect(alarm, id).toMatchObject({
        ExtendedStatistic: 'p95',
        EvaluationPeriods: 3,
        Threshold: api.Resources[id].Properties.Timeout * 1000 * 0.8,
      });
    }
    // The background functions have no duration alarm (they loop by design up to their timeout).
    const task = Stack.of(s.portal.api.paymentExport.taskFunction).resolve(
      (s.portal.api.paymentExport.taskFunction.node.defaultChild as lambda.CfnFunction).logicalId,
    );
    expect(alarmOn(s, 'AWS/Lambda', 'Duration', 'FunctionName', `${s.portal.api.stackName}/${task}`)).toEqual([]);
  });

  it('watch the HTTP API (share of 5xx, p95 latency), DynamoDB (throttles, system errors) and SES (bounces, complaints before AWS pauses sending)', () => {
    const byName = (name: string) => alarmsOf(s).find((a) => a.AlarmName === name);
    const http5xx = byName('Portale - API HTTP - quota di risposte 5xx');
    // A rate with a minimum count: 5% from 5 errors and 20 requests, for a town's few requests as for a city's many.
    expect(http5xx.Metrics[0].Expression).toBe(
      'IF(requests >= 20 AND FILL(errors, 0) >= 5, 100 * FILL(errors, 0) / requests, 0)',
    );
    expect(http5xx).toMatchObject({ Threshold: 5, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    expect(
      http5xx.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => [
        m.Id,
        m.MetricStat.Metric.MetricName,
        target(s, m.MetricStat.Metric.Dimensions[0].Value),
      ]),
    ).toEqual([
      [
        'errors',
        '5xx',
        `${s.portal.web.stackName}/${s.portal.web.resolve((s.portal.web.httpApi.node.defaultChild as Json).logicalId)}`,
      ],
      ['requests', 'Count', expect.any(String)],
    ]);
    const throttles = byName('Portale - DynamoDB - richieste limitate');
    expect(
      throttles.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => m.MetricStat.Metric.MetricName),
    ).toEqual(Array(8).fill('ThrottledRequests'));
    // Throttling pages only when it persists: three periods of 5 minutes in a row.
    expect(throttles).toMatchObject({ EvaluationPeriods: 3, DatapointsToAlarm: 3 });
    expect(
      byName('Portale - DynamoDB - errori di sistema')
        .Metrics.filter((m: Json) => m.MetricStat)
        .every((m: Json) => m.MetricStat.Metric.MetricName === 'SystemErrors'),
    ).toBe(true);
    expect(byName('Portale - SES - bounce rate vicino alla sospensione')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Threshold: 0.05,
    });
    expect(byName('Portale - SES - complaint rate vicino alla sospensione')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.ComplaintRate',
      Threshold: 0.001,
    });
  });

  it('watch the p95 latency of the API’s fast routes only: not notices, the enrolments’ CSV, nor the INPS and MyPay calls', () => {
    const latency = alarmsOf(s).find((a) => a.AlarmName === 'Portale - API HTTP - latenza p95');
    expect(latency).toMatchObject({
      Namespace: 'PortaleServiziSociali/Portale',
      MetricName: FAST_ROUTE_LATENCY,
      ExtendedStatistic: 'p95',
      Threshold: 3000,
      EvaluationPeriods: 3,
    });
    const filters = Object.values(s.operations.Resources as Record<string, Json>)
      .filter((r) => r.Type === 'AWS::Logs::MetricFilter')
      .map((r) => r.Properties);
    const filter = filters.find((f) => f.MetricTransformations[0].MetricName === FAST_ROUTE_LATENCY);
    expect(filter.MetricTransformations[0]).toMatchObject({
      MetricNamespace: 'PortaleServiziSociali/Portale',
      MetricValue: '$.responseLatency',
      Unit: 'Milliseconds',
    });
    // On the API's access log, which writes the latency as a JSON number.
    const web = Template.fromStack(s.portal.web);
    const accessLogs = s.portal.web.resolve((s.portal.web.apiAccessLogs.node.defaultChild as Json).logicalId);
    expect(target(s, filter.LogGroupName)).toBe(`${s.portal.web.stackName}/${accessLogs}`);
    // Metric filters work on the Standard log class only (CloudWatch Logs, "Creating metrics from log events using filters").
    expect(web.findResources('AWS::Logs::LogGroup')[accessLogs].Properties.LogGroupClass ?? 'STANDARD').toBe(
      'STANDARD',
    );
    const [stage] = Object.values(web.findResources('AWS::ApiGatewayV2::Stage')) as Json[];
    const format: string = stage.Properties.AccessLogSettings.Format;
    expect(JSON.parse(format.replace('$context.responseLatency', '1234')).responseLatency).toBe(1234);
    // API Gateway writes '-' for a variable that has no value. Every other variable is quoted, so such a line stays
    // JSON; the latency alone is a bare number, and a line without one is not JSON: the filter (a JSON pattern)
    // skips it, so a request without a latency publishes no value rather than a wrong one.
    const everyMissing = format.replace(/\$context\.[A-Za-z.]+/g, '-');
    expect(() => JSON.parse(everyMissing)).toThrow();
    expect(Object.values(JSON.parse(everyMissing.replace(':-', ':null')))).toEqual(
      Object.keys(JSON.parse(everyMissing.replace(':-', ':null'))).map((key) =>
        key === 'responseLatency' ? null : '-',
      ),
    );
    expect(filter.FilterPattern).toContain('$.responseLatency >= 0');
    // Every route but the slow ones: the route keys are those of the route table.
    const pattern: string = filter.FilterPattern;
    expect(pattern.length).toBeLessThanOrEqual(1024);
    const excluded = [...pattern.matchAll(/\$\.routeKey != "([^"]+)"/g)].map((m) => m[1]);
    const slow = routes.filter(
      (r) =>
        r.resource === 'notices' ||
        r.resource === 'enrolment-csv' ||
        [
          'fetchMyIseeFromInps',
          'fetchUserIseeFromInps',
          'checkIseeWithInps',
          'payPosition',
          'payCart',
          'paymentReturn',
        ].includes(r.operationId),
    );
    expect(excluded.sort()).toEqual(slow.map(routeKey).sort());
    expect(excluded).not.toContain('GET /api/me/positions');
    expect(excluded).not.toContain('GET /api/isee');
    expect(pattern).toContain('$.responseLatency >= 0');
  });

  it('watch what fired nothing before: SPID/CIE sign-ins failing, EventBridge and Scheduler deliveries, SNS notifications', () => {
    const byName = (name: string) => alarmsOf(s).find((a) => a.AlarmName === name);
    const federation = byName('Portale - Accesso SPID/CIE - accessi non riusciti');
    expect(federation.Metrics[0].Expression).toBe(
      'IF(attempts - successes >= 5, 100 * (attempts - successes) / attempts, 0)',
    );
    const federationMetrics = federation.Metrics.filter((m: Json) => m.MetricStat);
    expect(
      federationMetrics.map((m: Json) => [
        m.MetricStat.Metric.Namespace,
        m.MetricStat.Metric.MetricName,
        m.MetricStat.Stat,
      ]),
    ).toEqual([
      ['AWS/Cognito', 'FederationSuccesses', 'SampleCount'],
      ['AWS/Cognito', 'FederationSuccesses', 'Sum'],
    ]);
    expect(federationMetrics[0].MetricStat.Metric.Dimensions.map((d: Json) => d.Name).sort()).toEqual([
      'IdentityProvider',
      'UserPool',
      'UserPoolClient',
    ]);
    expect(
      federationMetrics[0].MetricStat.Metric.Dimensions.find((d: Json) => d.Name === 'IdentityProvider').Value,
    ).toBe('SpidCie');
    // Every EventBridge rule of the app (the ISEE document stored, the export's end): its failed invocations.
    const rules = [...s.templates.entries()].flatMap(([stack, t]) =>
      resourcesOf(t, 'AWS::Events::Rule').map(([id]) => `${stack}/${id}`),
    );
    expect(rules.length).toBeGreaterThanOrEqual(2);
    for (const rule of rules)
      expect(alarmOn(s, 'AWS/Events', 'FailedInvocations', 'RuleName', rule), rule).toHaveLength(1);
    // The ISEE schedules (default group): invocations dropped or failed at their target.
    const schedules = [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::Scheduler::Schedule'));
    expect(schedules.every(([, r]) => r.Properties.GroupName === undefined)).toBe(true);
    const dropped = byName('Portale - Scheduler - avvii programmati persi');
    expect(dropped.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => m.MetricStat.Metric.MetricName)).toEqual([
      'InvocationDroppedCount',
      'TargetErrorCount',
    ]);
    // The alarms' topic itself.
    const [[topic]] = resourcesOf(s.operations, 'AWS::SNS::Topic');
    expect(
      alarmsOf(s).filter(
        (a) =>
          a.Namespace === 'AWS/SNS' &&
          a.MetricName === 'NumberOfNotificationsFailed' &&
          a.Dimensions[0].Value['Fn::GetAtt']?.[0] === topic,
      ),
    ).toHaveLength(1);
  });

  it('refuse a production stage without an alarm recipient, naming the setting', () => {
    const { alarmEmail: _alarmEmail, ...withoutRecipient } = completeProduction;
    const configDir = mkdtempSync(path.join(os.tmpdir(), 'portale-alarm-stage-'));
    try {
      writeFileSync(path.join(configDir, 'prod.json'), JSON.stringify(withoutRecipient));
      writeFileSync(path.join(configDir, 'staging.json'), JSON.stringify({ ...withoutRecipient, production: false }));
      expect(() => scratchApp({ bundle: false, nag: false, configDir, context: { stage: 'prod' } })).toThrow(
        /alarmEmail is not set \(who receives the alarms\)/,
      );
      scratchApp({ bundle: false, nag: false, configDir, context: { stage: 'staging' } }).dispose();
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it('watch the business: an export in error, notices not sent, payments to reconcile, ISEE readings that failed', () => {
    const business = (name: string) => alarmsOf(s).find((a) => a.AlarmName === name);
    expect(business('Portale - MyPay - flusso in errore')).toMatchObject({
      Namespace: 'PortaleServiziSociali/Portale',
      MetricName: 'ExportsFailed',
      Threshold: 1,
    });
    const notices = business('Portale - Avvisi - invii non riusciti');
    const dimensions = (m: Json) =>
      Object.fromEntries(m.MetricStat.Metric.Dimensions.map((d: Json) => [d.Name, d.Value]));
    expect(
      notices.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => [
        m.MetricStat.Metric.MetricName,
        dimensions(m),
      ]),
    ).toEqual([
      ['NoticesFailed', { service: 'portale', notice: 'email' }],
      ['NoticesFailed', { service: 'portale', notice: 'io' }],
    ]);
    expect(
      business('Portale - Pagamenti - da riconciliare')
        .Metrics.filter((m: Json) => m.MetricStat)
        .map((m: Json) => m.MetricStat.Metric.MetricName),
    ).toEqual(['PaymentsToReconcile', 'PaymentsToReconcile']);
    expect(business('Portale - ISEE - letture non riuscite')).toMatchObject({
      MetricName: 'IseeReadFailed',
      Period: 3600,
      Threshold: 3,
    });
  });

  it('each reach the topic (ALARM and OK), start with the deployment’s prefix and point at the runbook', () => {
    const [[topic]] = resourcesOf(s.operations, 'AWS::SNS::Topic');
    const alarms = alarmsOf(s);
    expect(new Set(alarms.map((a) => a.AlarmName)).size).toBe(alarms.length);
    for (const alarm of alarms) {
      expect(alarm.AlarmActions, alarm.AlarmName).toEqual([{ Ref: topic }]);
      expect(alarm.OKActions, alarm.AlarmName).toEqual([{ Ref: topic }]);
      expect(alarm.AlarmName).toMatch(/^Portale - /);
      expect(alarm.AlarmDescription).toMatch(/Cosa fare: docs\/operations\.md, «.+»\.$/);
      expect(alarm.TreatMissingData).toBe('notBreaching');
    }
  });
});

describe('the dashboard', () => {
  it('shows the state of every alarm', () => {
    const body = dashboardBody(s);
    const shown = body.widgets.filter((w: Json) => w.type === 'alarm').flatMap((w: Json) => w.properties.alarms);
    const alarmIds = resourcesOf(s.operations, 'AWS::CloudWatch::Alarm').map(
      ([id]) => `${s.portal.operations.stackName}/${id}`,
    );
    expect([...shown].sort()).toEqual([...alarmIds].sort());
  });

  it('graphs requests, errors and p95 of every API function, and the HTTP API', () => {
    const body = dashboardBody(s);
    const api = s.templates.get(s.portal.api.stackName);
    const apiFunctionIds = resources.map(
      (resource) =>
        `${s.portal.api.stackName}/${s.portal.api.resolve((s.portal.api.functions[resource].node.defaultChild as Json).logicalId)}`,
    );
    const functionsIn = (title: string, metric: string) =>
      widget(body, title)
        .properties.metrics.filter((m: Json) => m[0] === 'AWS/Lambda' && m[1] === metric)
        .map((m: Json) => m[3]);
    expect(functionsIn('API: richieste per funzione', 'Invocations').sort()).toEqual([...apiFunctionIds].sort());
    expect(functionsIn('API: errori per funzione', 'Errors').sort()).toEqual([...apiFunctionIds].sort());
    expect(JSON.stringify(widget(body, 'API: errori per funzione').properties.metrics)).toContain(
      'MetricName=\\"ServerError\\"',
    );
    const p95 = widget(body, 'API: durata p95 per funzione (ms)').properties.metrics;
    expect(p95.map((m: Json) => m[3]).sort()).toEqual([...apiFunctionIds].sort());
    expect(p95.every((m: Json) => m[1] === 'Duration' && m.at(-1).stat === 'p95')).toBe(true);
    expect(metricsIn(widget(body, 'API HTTP: richieste e errori'))).toEqual([
      'AWS/ApiGateway Count',
      'AWS/ApiGateway 4xx',
      'AWS/ApiGateway 5xx',
    ]);
    // The latency is the fast routes' (the alarm's metric filter), not the whole API's.
    const latency = widget(body, 'API HTTP: latenza delle route veloci (ms)').properties.metrics;
    expect(latency.map((m: Json) => `${m[0]} ${m[1]} ${m.at(-1).stat}`)).toEqual([
      'PortaleServiziSociali/Portale ApiFastRouteLatency p50',
      'PortaleServiziSociali/Portale ApiFastRouteLatency p95',
    ]);
    expect(JSON.stringify(body)).not.toMatch(/"AWS\/ApiGateway","(Integration)?Latency"/);
    expect(api).toBeDefined();
  });

  it('shows the exports and their outcome, the positions exported, paid and to reconcile in 30 days, the notices, the ISEE readings, DynamoDB', () => {
    const body = dashboardBody(s);
    const ns = 'PortaleServiziSociali/Portale';
    expect(metricsIn(widget(body, 'Flussi MyPay: esito'))).toEqual([
      `${ns} ExportsCompleted`,
      `${ns} ExportsFailed`,
      'AWS/States ExecutionsSucceeded',
      'AWS/States ExecutionsFailed',
    ]);
    const month = widget(body, 'Posizioni e pagamenti, ultimi 30 giorni');
    expect(month.type).toBe('metric');
    expect(month.properties).toMatchObject({ view: 'singleValue', start: '-P30D' });
    // Each figure is the sum over 30 days.
    expect(month.properties.metrics.every((m: Json) => m.at(-1).period === 2592000)).toBe(true);
    expect(JSON.stringify(month.properties.metrics)).toMatch(
      /PositionsExported[\s\S]*PaymentsRecorded[\s\S]*PaymentsRecorded[\s\S]*PaymentsToReconcile/,
    );
    expect(metricsIn(widget(body, 'Avvisi inviati e non riusciti'))).toEqual([
      `${ns} NoticesSent`,
      `${ns} NoticesSent`,
      `${ns} NoticesFailed`,
      `${ns} NoticesFailed`,
    ]);
    expect(JSON.stringify(widget(body, 'Letture ISEE').properties.metrics)).toMatch(
      /IseeRead[\s\S]*IseeReadWithWarning[\s\S]*IseeReadFailed/,
    );
    expect(metricsIn(widget(body, 'DynamoDB: capacità consumata'))).toEqual([
      'AWS/DynamoDB ConsumedReadCapacityUnits',
      'AWS/DynamoDB ConsumedWriteCapacityUnits',
    ]);
    expect(JSON.stringify(widget(body, 'DynamoDB: throttling ed errori di sistema').properties.metrics)).toMatch(
      /ReadThrottleEvents[\s\S]*WriteThrottleEvents[\s\S]*SystemErrors/,
    );
    // Every business metric of the catalogue is on the dashboard.
    for (const name of businessMetricNames) expect(JSON.stringify(body), name).toContain(name);
  });
});

describe('the data migrations', () => {
  const machineOf = (fn: lambda.IFunction) => {
    const task = Stack.of(s.portal.operations).resolve((fn.node.defaultChild as lambda.CfnFunction).logicalId);
    const [found] = resourcesOf(s.operations, 'AWS::StepFunctions::StateMachine').filter(([, m]) =>
      JSON.stringify(m.Properties.DefinitionString).includes(task),
    );
    return {
      task,
      machine: found![0],
      definition: JSON.parse(
        (found![1].Properties.DefinitionString['Fn::Join'][1] as Json[])
          .map((part) => (typeof part === 'string' ? part : 'ARN'))
          .join(''),
      ),
    };
  };

  it('run by a trigger after the API, which waits for them only up to a bound, through a start function that knows the migrations and their state machine', () => {
    expect(s.portal.operations.dependencies).toContain(s.portal.api);
    const template = Template.fromJSON(s.operations);
    const start = Stack.of(s.portal.operations).resolve(
      (s.portal.operations.migrations.startFunction.node.defaultChild as lambda.CfnFunction).logicalId,
    );
    const [[, trigger]] = resourcesOf(s.operations, 'Custom::Trigger');
    const version = trigger.Properties.HandlerArn.Ref;
    expect(s.operations.Resources[version]).toMatchObject({
      Type: 'AWS::Lambda::Version',
      Properties: { FunctionName: { Ref: start } },
    });
    // The start waits MIGRATION_DEPLOY_WAIT_MS (10 minutes), then answers: the trigger's and the function's timeouts leave it room.
    expect(trigger.Properties).toMatchObject({
      InvocationType: 'RequestResponse',
      ExecuteOnHandlerChange: true,
      Timeout: String(Duration.minutes(12).toMilliseconds()),
    });
    expect(s.operations.Resources[start].Properties.Timeout).toBe(11 * 60);
    const { machine } = machineOf(s.portal.operations.migrations.taskFunction);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: 660,
      Environment: {
        Variables: {
          MIGRATIONS: MIGRATION_IDS.join(','),
          JOBS_STATE_MACHINE_ARN: { Ref: machine },
          TABLE_NAME: Match.anyValue(),
        },
      },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: 'states:StartExecution', Resource: { Ref: machine } })]),
      },
    });
    // It reads the recorded run's execution, to take over one that was stopped or timed out.
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'states:DescribeExecution' })]) },
    });
  });

  it('have a state machine of their own whose slice waits longer than the function may run, tried again from the checkpoint when cut short', () => {
    const { task, machine, definition } = machineOf(s.portal.operations.migrations.taskFunction);
    const timeout = s.operations.Resources[task].Properties.Timeout;
    expect(timeout).toBe(900);
    expect(definition.States.Slice.TimeoutSeconds).toBeGreaterThanOrEqual(timeout);
    expect(definition.States.Slice.Retry.flatMap((r: Json) => r.ErrorEquals)).toEqual(
      expect.arrayContaining(['States.Timeout', 'Sandbox.Timedout', 'Lambda.Unknown']),
    );
    expect(definition.TimeoutSeconds).toBeGreaterThanOrEqual(24 * 3600);
    // Its own machine, calling the migration task and nothing else (not the background jobs', whose slices are 5 minutes).
    expect(
      new Set(
        JSON.stringify(s.operations.Resources[machine].Properties.DefinitionString).match(
          /"Fn::GetAtt":\["[A-Za-z0-9]+","Arn"\]/g,
        ),
      ),
    ).toEqual(new Set([`"Fn::GetAtt":["${task}","Arn"]`]));
    // A failed, timed-out or stopped run pages (the deployment itself never fails on a migration).
    for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted']) {
      expect(
        alarmOn(s, 'AWS/States', metric, 'StateMachineArn', `${s.portal.operations.stackName}/${machine}`),
        metric,
      ).toHaveLength(1);
    }
  });
});

describe('the cost model’s counts (npm run cost)', () => {
  it('come from the synthesized app: one more alarm or function shows in them', () => {
    const before = inventoryOf(s.portal);
    const alarms = [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::CloudWatch::Alarm'));
    expect(before.alarmMetrics).toBeGreaterThanOrEqual(alarms.length);
    expect(before.functions).toBe(
      [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::Lambda::Function')).length,
    );
    expect(before.kmsKeys).toBe([...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::KMS::Key')).length);
    // The edge stack's web ACL: the rate limit per IP and AWS's two managed rule groups.
    expect([before.webAcls, before.webAclRules]).toEqual([1, 3]);
    // The secrets the templates resolve or grant: MyPay, IO (read at run time), the SPID/CIE gateway's client secret (and the cursor key the API creates).
    expect(before.secrets).toBeGreaterThanOrEqual(3);
    expect(before.dashboards).toBe(1);
  });
});

describe('a staging copy (stackPrefix)', () => {
  it('keeps its metrics, alarms and dashboard apart from production in the same account', () => {
    const staging = scratchApp({ bundle: false, context: { stackPrefix: 'PortaleTest' } });
    try {
      const operations = Template.fromStack(staging.operations).toJSON();
      const alarms = resourcesOf(operations, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
      expect(alarms.every((a) => a.AlarmName.startsWith('PortaleTest - '))).toBe(true);
      expect(alarms.filter((a) => a.Namespace?.startsWith('PortaleServiziSociali')).map((a) => a.Namespace)).toContain(
        'PortaleServiziSociali/PortaleTest',
      );
      expect(resourcesOf(operations, 'AWS::CloudWatch::Dashboard')[0][1].Properties.DashboardName).toBe(
        'PortaleTest-portale',
      );
      for (const stack of staging.stacks) {
        for (const [, fn] of resourcesOf(Template.fromStack(stack).toJSON(), 'AWS::Lambda::Function')) {
          const namespace = fn.Properties.Environment?.Variables?.POWERTOOLS_METRICS_NAMESPACE;
          if (namespace !== undefined) expect(namespace).toBe('PortaleServiziSociali/PortaleTest');
        }
      }
    } finally {
      staging.dispose();
    }
  });
});

describe('rotating secrets (context secretsRevision)', () => {
  it('changes every function’s configuration, so a deploy resolves their secrets again; without it nothing is added', () => {
    const functionsOfApp = (portal: ScratchApp) =>
      portal.app.node.children
        .filter((c): c is Stack => Stack.isStack(c))
        .flatMap((stack) => resourcesOf(Template.fromStack(stack).toJSON(), 'AWS::Lambda::Function'));
    const rotated = scratchApp({ bundle: false, context: { secretsRevision: '2026-05-01' } });
    try {
      const portalFunctions = functionsOfApp(rotated).filter(
        ([, fn]) => fn.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME,
      );
      expect(portalFunctions.length).toBeGreaterThan(20);
      for (const [id, fn] of portalFunctions)
        expect(fn.Properties.Environment.Variables.SECRETS_REVISION, id).toBe('2026-05-01');
    } finally {
      rotated.dispose();
    }
    expect(functionsOfApp(s.portal).some(([, fn]) => fn.Properties.Environment?.Variables?.SECRETS_REVISION)).toBe(
      false,
    );
  });
});

// The operations stack is built last in the stage's region: a stack made after it would not be watched. After it
// comes only CloudFront's alarms' stack, in us-east-1, which has nothing for it to watch.
it('is the last stack of the app but CloudFront’s alarms in us-east-1, which hold no function, state machine or rule', () => {
  const stacks = s.portal.app.node.children.filter((c): c is Stack => Stack.isStack(c));
  expect(stacks.at(-2)).toBeInstanceOf(OperationsStack);
  expect(stacks.at(-1)).toBe(s.portal.edgeAlarms);
  const held = Object.values(Template.fromStack(s.portal.edgeAlarms).toJSON().Resources as Record<string, Json>).map(
    (r) => r.Type,
  );
  expect(
    held.filter((type) => /^AWS::(Lambda::Function|StepFunctions::StateMachine|Events::Rule|Scheduler::)/.test(type)),
  ).toEqual([]);
});
