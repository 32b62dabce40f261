import { ArnFormat, CfnResource, Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct, type IConstruct } from 'constructs';
import { slowRouteKeys } from './function-access.ts';
import {
  BUSINESS_SERVICE,
  businessDimensions,
  businessMetricDefinitions,
  type BusinessMetric,
} from '../functions/domain/business-metrics.ts';

/** Where each alarm's description sends the on-call person: the section of the runbook that says what to do. */
export const RUNBOOK = 'docs/operations.md';

/** The thresholds, in one place (the runbook quotes them). */
export const thresholds = {
  /** Unhandled errors (a crash, a timeout, a failed start) of any function in 5 minutes. */
  lambdaErrors: 1,
  /** Invocations refused for lack of concurrency in 5 minutes. */
  lambdaThrottles: 1,
  /** p95 duration of an API function, as a share of its timeout, for 15 minutes (3 periods of 5). */
  apiDurationShareOfTimeout: 0.8,
  /**
   * Share of 5xx answers of the HTTP API (%) in 2 of 3 periods of 5 minutes, counted only from 5 errors and 20
   * requests a period: a rate, so a city's traffic needs as many failing users in proportion as a town's, and a
   * minimum count, so a town's quiet night does not page for one error among a few requests.
   */
  http5xxPercent: 5,
  http5xxMinimumRequests: 20,
  http5xxMinimumErrors: 5,
  /** p95 latency of the HTTP API's fast routes (ms) for 15 minutes (the slow ones: function-access.ts slowRouteKeys). */
  httpP95LatencyMs: 3000,
  /** SES: AWS reviews an account from a 5% bounce rate and pauses it from 10%; for complaints 0.1% and 0.5%. */
  sesBounceRate: 0.05,
  sesComplaintRate: 0.001,
  /** ISEE readings that failed in an hour (one alone also raises the reading state machine's alarm). */
  iseeReadFailuresPerHour: 3,
  /** SPID/CIE sign-ins through the gateway that failed (%) in 15 minutes, counted from 5 failures. */
  federationFailurePercent: 20,
  federationMinimumFailures: 5,
} as const;

/**
 * DynamoDB throttling pages when it persists: requests refused in each of 3 periods of 5 minutes in a row. A
 * burst (a month's generation, an import, the migrations) is retried by the SDK and settles by itself.
 */
export const TABLE_THROTTLE_PERIODS = 3;

/** The DynamoDB operations the portal makes (a math alarm takes at most 10 metrics). */
const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.SCAN,
];

const FIVE_MINUTES = Duration.minutes(5);

const logicalIdOf = (resource: CfnResource) =>
  `${Stack.of(resource).node.path}/${Stack.of(resource).resolve(resource.logicalId)}`;

/**
 * The functions CloudFormation calls only while deploying: the service tokens of custom resources (the web
 * app's BucketDeployment, a trigger's provider), as `<stack path>/<logical id>`. A CfnResource keeps its
 * properties in `_cfnProperties`, the one place the token is before synthesis.
 */
function customResourceHandlers(constructs: IConstruct[]): Set<string> {
  const handlers = new Set<string>();
  for (const c of constructs) {
    if (!(c instanceof CfnResource) || !/^(Custom::|AWS::CloudFormation::CustomResource$)/.test(c.cfnResourceType))
      continue;
    const properties = Stack.of(c).resolve(
      (c as unknown as { _cfnProperties?: Record<string, unknown> })._cfnProperties ?? {},
    );
    const target = (properties.ServiceToken as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
    if (target) handlers.add(`${Stack.of(c).node.path}/${target}`);
  }
  return handlers;
}

/**
 * Every Lambda function of the given stacks, except those CloudFormation runs only while deploying (the
 * handlers of custom resources): a failure of those fails the deployment itself, in front of whoever deploys.
 */
export function functionsOf(scopes: IConstruct[]): lambda.Function[] {
  const constructs = scopes.flatMap((scope) => scope.node.findAll());
  const deployOnly = customResourceHandlers(constructs);
  return constructs.filter(
    (c): c is lambda.Function =>
      c instanceof lambda.Function && !deployOnly.has(logicalIdOf(c.node.defaultChild as CfnResource)),
  );
}

/** Every EventBridge rule of the given stacks, with its name for people. */
export const rulesOf = (scopes: IConstruct[]): events.Rule[] =>
  scopes.flatMap((scope) => scope.node.findAll()).filter((c): c is events.Rule => c instanceof events.Rule);

/** Every Step Functions state machine of the given stacks. */
export const stateMachinesOf = (scopes: IConstruct[]): sfn.StateMachine[] =>
  scopes.flatMap((scope) => scope.node.findAll()).filter((c): c is sfn.StateMachine => c instanceof sfn.StateMachine);

/**
 * The functions the state machines invoke as Task states (`<stack path>/<logical id>`): the ARNs their
 * definitions reference. A Task's error is the state machine's to retry (MyPay unavailable, an ISEE record not
 * written yet) or to catch and report (the flow, the job, the reading marked failed, then the execution's own
 * alarm): not a Lambda error to page for.
 */
export function stateMachineTasks(machines: sfn.StateMachine[]): Set<string> {
  const tasks = new Set<string>();
  for (const machine of machines) {
    const stack = Stack.of(machine);
    const definition = JSON.stringify(
      stack.resolve((machine.node.defaultChild as sfn.CfnStateMachine).definitionString),
    );
    for (const [, id] of definition.matchAll(/"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/g))
      tasks.add(`${stack.node.path}/${id}`);
  }
  return tasks;
}

/** Whether a function is one of `tasks` (stateMachineTasks). */
export const isTaskOf = (tasks: Set<string>, fn: lambda.Function) =>
  tasks.has(logicalIdOf(fn.node.defaultChild as CfnResource));

/**
 * A resource's name for people: its stack without the deployment's prefix, then its path in the stack
 * ('Api/bands', 'Api/PaymentExport/FlowTask', 'IseeExtraction/ReadAttestation'), a segment repeated in a
 * row written once.
 */
export function resourceLabel(construct: IConstruct, stackPrefix: string): string {
  const stack = Stack.of(construct);
  const stackPart = stack.node.id.startsWith(stackPrefix) ? stack.node.id.slice(stackPrefix.length) : stack.node.id;
  const parts = [stackPart, ...construct.node.path.slice(stack.node.path.length + 1).split('/')].filter(Boolean);
  return parts.filter((part, i) => part !== parts[i - 1] && part !== 'Resource').join('/');
}

/** One business metric of the deployment's namespace (service portale, and the metric's own dimension when given). */
export function businessMetric(
  namespace: string,
  metric: BusinessMetric,
  options: cloudwatch.MetricOptions & { dimension?: string } = {},
): cloudwatch.Metric {
  const { dimension, ...metricOptions } = options;
  const definition = businessMetricDefinitions[metric] as { dimension?: keyof typeof businessDimensions };
  return new cloudwatch.Metric({
    namespace,
    metricName: metric,
    statistic: 'Sum',
    period: FIVE_MINUTES,
    ...metricOptions,
    dimensionsMap: {
      service: BUSINESS_SERVICE,
      ...(definition.dimension && dimension ? { [definition.dimension]: dimension } : {}),
    },
  });
}

/**
 * A business metric whatever its dimension: the sum over every value the dimension takes (EMF publishes a
 * metric with its dimension only), or the metric itself when it has none.
 */
export function businessTotal(
  namespace: string,
  metric: BusinessMetric,
  options: cloudwatch.MetricOptions = {},
): cloudwatch.IMetric {
  const definition = businessMetricDefinitions[metric] as { dimension?: keyof typeof businessDimensions };
  if (!definition.dimension) return businessMetric(namespace, metric, options);
  const values = businessDimensions[definition.dimension];
  return new cloudwatch.MathExpression({
    expression: values.map((_, i) => `FILL(m${i}, 0)`).join(' + '),
    usingMetrics: Object.fromEntries(
      values.map((value, i) => [`m${i}`, businessMetric(namespace, metric, { ...options, dimension: value })]),
    ),
    label: metric,
    period: options.period ?? FIVE_MINUTES,
  });
}

/**
 * The topic the alarms of one stack send to, in that stack's region (an alarm notifies a topic of its own region),
 * encrypted with a key of its own, with the stage's `alarmEmail` subscribed. CloudWatch publishes to an encrypted
 * topic only if the key lets it: the key's policy grants it to the alarms of this deployment (their names start
 * with the prefix), in this account and region.
 */
export function alarmTopic(stack: Stack, stackPrefix: string, alarmEmail: string | undefined): sns.Topic {
  const alarmArns = stack.formatArn({
    service: 'cloudwatch',
    resource: 'alarm',
    resourceName: `${stackPrefix} - *`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  const fromOurAlarms = {
    StringEquals: { 'aws:SourceAccount': stack.account },
    ArnLike: { 'aws:SourceArn': alarmArns },
  };
  const key = new kms.Key(stack, 'AlarmTopicKey', {
    description: `Encrypts the alarm notifications of ${stackPrefix}`,
    enableKeyRotation: true,
  });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: fromOurAlarms,
    }),
  );
  const topic = new sns.Topic(stack, 'AlarmTopic', {
    displayName: `Portale servizi sociali (${stackPrefix}): allarmi`,
    masterKey: key,
    enforceSSL: true,
  });
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: fromOurAlarms,
    }),
  );
  if (alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(alarmEmail));
  return topic;
}

/**
 * The metric filter of the fast routes' latency: every access-log line whose route is not slow by design. Checked
 * against AWS's documentation: a metric filter publishes a JSON number it matched as the metric's value
 * (CloudWatch Logs, "Filter pattern syntax for metric filters", Publishing numerical values found in log events:
 * `{ $.latency = * }` with metric value `$.latency`), and such a metric takes percentile statistics in graphs and
 * alarms as long as no value is negative ("Creating metrics from log events using filters"): the pattern's
 * `$.responseLatency >= 0` both matches the field, as the value must be, and keeps negatives out.
 */
export const FAST_ROUTE_LATENCY = 'ApiFastRouteLatency';

function fastRouteLatency(scope: Construct, accessLogs: logs.ILogGroup, namespace: string): logs.MetricFilter {
  return new logs.MetricFilter(scope, 'ApiFastRouteLatency', {
    logGroup: accessLogs,
    filterPattern: logs.FilterPattern.all(
      logs.FilterPattern.numberValue('$.responseLatency', '>=', 0),
      ...slowRouteKeys.map((key) => logs.FilterPattern.stringValue('$.routeKey', '!=', key)),
    ),
    metricNamespace: namespace,
    metricName: FAST_ROUTE_LATENCY,
    metricValue: '$.responseLatency',
    unit: cloudwatch.Unit.MILLISECONDS,
  });
}

export interface PortalAlarmsProps {
  /** The deployment's prefix: every alarm's name starts with it (and the topic's policy lets CloudWatch publish for those). */
  stackPrefix: string;
  topic: sns.ITopic;
  /** The deployment's metrics namespace (lib/context.ts metricsNamespace). */
  namespace: string;
}

/**
 * The portal's alarms, each named and described for whoever is on call, sending ALARM and OK to the topic.
 * Built from what the stacks hold (every function, every state machine), so a function or a state machine
 * added later gets its alarms without a line here; `docs/operations.md` says what each one means and what
 * to do.
 */
export class PortalAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly props: PortalAlarmsProps;

  constructor(scope: Construct, id: string, props: PortalAlarmsProps) {
    super(scope, id);
    this.props = props;
  }

  /** `${prefix} - <subject> - <what>`: the name the e-mail's subject and the console show. */
  alarmName(subject: string, what: string): string {
    return `${this.props.stackPrefix} - ${subject} - ${what}`;
  }

  private add(
    id: string,
    subject: string,
    what: string,
    description: string,
    runbookSection: string,
    props: Omit<cloudwatch.CreateAlarmOptions, 'alarmName' | 'alarmDescription'>,
    metric: cloudwatch.IMetric,
  ) {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...props,
      alarmName: this.alarmName(subject, what),
      alarmDescription: `${description} Cosa fare: ${RUNBOOK}, «${runbookSection}».`,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.props.topic));
    alarm.addOkAction(new actions.SnsAction(this.props.topic));
    this.alarms.push(alarm);
    return alarm;
  }

  /**
   * Errors and throttles of a function; for an API function also its p95 duration near the timeout. A state
   * machine's task (stateMachineTasks) has no errors alarm: its state machine retries or reports its errors.
   */
  watchFunction(fn: lambda.Function, options: { api: boolean; stateMachineTask?: boolean }) {
    const label = resourceLabel(fn, this.props.stackPrefix);
    const id = `Lambda${label.replace(/[^A-Za-z0-9]/g, '')}`;
    const subject = `Lambda ${label}`;
    const what = (fn.node.defaultChild as lambda.CfnFunction).description ?? label;
    if (!options.stateMachineTask)
      this.add(
        `${id}Errors`,
        subject,
        'errori',
        `La funzione ${label} («${what}») ha avuto errori non gestiti (eccezione, timeout o avvio fallito) negli ultimi 5 minuti.`,
        'Lambda: errori',
        {
          threshold: thresholds.lambdaErrors,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        },
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      );
    this.add(
      `${id}Throttles`,
      subject,
      'throttling',
      `Invocazioni della funzione ${label} rifiutate per mancanza di concorrenza negli ultimi 5 minuti.`,
      'Lambda: throttling',
      {
        threshold: thresholds.lambdaThrottles,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
    );
    if (!options.api) return;
    const timeoutSeconds = fn.timeout?.toSeconds() ?? 3;
    const limitMs = Math.round(timeoutSeconds * 1000 * thresholds.apiDurationShareOfTimeout);
    this.add(
      `${id}Duration`,
      subject,
      'durata vicina al timeout',
      `La durata p95 della funzione API ${label} supera ${limitMs / 1000} s (l’80% del suo timeout di ${timeoutSeconds} s) da 15 minuti: le richieste rischiano di essere interrotte.`,
      'Lambda API: durata vicina al timeout',
      {
        threshold: limitMs,
        evaluationPeriods: 3,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p95' }),
    );
  }

  /**
   * Executions failed, timed out and aborted of a state machine. `failuresReported`: its failed executions are
   * already reported by an alarm of their own (the MyPay export: 'flusso in errore'), so one failure pages once.
   */
  watchStateMachine(machine: sfn.StateMachine, options: { failuresReported?: boolean } = {}) {
    const label = resourceLabel(machine, this.props.stackPrefix);
    const id = `StateMachine${label.replace(/[^A-Za-z0-9]/g, '')}`;
    const subject = `Step Functions ${label}`;
    const kinds = [
      [
        'Failed',
        'esecuzioni fallite',
        'finite in errore',
        machine.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
      ],
      [
        'TimedOut',
        'esecuzioni scadute',
        'interrotte per superamento del tempo massimo',
        machine.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' }),
      ],
      [
        'Aborted',
        'esecuzioni interrotte',
        'interrotte a mano o da un nuovo avvio',
        machine.metricAborted({ period: FIVE_MINUTES, statistic: 'Sum' }),
      ],
    ] as const;
    for (const [kind, what, meaning, metric] of kinds) {
      if (kind === 'Failed' && options.failuresReported) continue;
      this.add(
        `${id}${kind}`,
        subject,
        what,
        `Esecuzioni della macchina a stati ${label} ${meaning} negli ultimi 5 minuti.`,
        'Step Functions: esecuzioni non riuscite',
        {
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        },
        metric,
      );
    }
  }

  /**
   * The share of 5xx answers and the p95 latency of the HTTP API. The latency leaves out the routes slow by design
   * (slowRouteKeys): API Gateway's Latency has one value for the whole API, and its per-route metrics cost 7 metrics a
   * route, so a metric filter on the access log publishes the latency of every other route as one metric.
   */
  watchHttpApi(api: apigwv2.IHttpApi, accessLogs: logs.ILogGroup) {
    const errors = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    this.add(
      'HttpApi5xxShare',
      'API HTTP',
      'quota di risposte 5xx',
      `Più del ${thresholds.http5xxPercent}% delle risposte dell’API è un errore 5xx in 2 periodi di 5 minuti su 3 (contato da ${thresholds.http5xxMinimumErrors} errori e ${thresholds.http5xxMinimumRequests} richieste per periodo).`,
      'API HTTP: risposte 5xx',
      {
        threshold: thresholds.http5xxPercent,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      new cloudwatch.MathExpression({
        expression: `IF(requests >= ${thresholds.http5xxMinimumRequests} AND FILL(errors, 0) >= ${thresholds.http5xxMinimumErrors}, 100 * FILL(errors, 0) / requests, 0)`,
        usingMetrics: { errors, requests },
        label: 'Risposte 5xx (%)',
        period: FIVE_MINUTES,
      }),
    );
    this.add(
      'HttpApiLatencyP95',
      'API HTTP',
      'latenza p95',
      `La latenza p95 dell’API supera ${thresholds.httpP95LatencyMs / 1000} s da 15 minuti (le route lente per natura, avvisi, import/export CSV delle iscrizioni e chiamate a INPS e MyPay, escluse).`,
      'API HTTP: latenza',
      {
        threshold: thresholds.httpP95LatencyMs,
        evaluationPeriods: 3,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      fastRouteLatency(this, accessLogs, this.props.namespace).metric({ period: FIVE_MINUTES, statistic: 'p95' }),
    );
  }

  /**
   * The share of 5xx answers CloudFront gave (the site and the API through it), by the same rule as the API's. Its
   * metrics exist only in us-east-1, with `Region=Global`: the alarm is made in a stack of that region. CloudFront
   * gives the rate (5xxErrorRate, Average) and the requests (Sum): the errors are their product.
   */
  watchDistribution(distributionId: string) {
    const cloudFront = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/CloudFront',
        metricName,
        dimensionsMap: { DistributionId: distributionId, Region: 'Global' },
        statistic,
        period: FIVE_MINUTES,
        region: 'us-east-1',
      });
    const rate = cloudFront('5xxErrorRate', 'Average');
    const requests = cloudFront('Requests', 'Sum');
    this.add(
      'CloudFront5xxShare',
      'CloudFront',
      'quota di risposte 5xx',
      `Più del ${thresholds.http5xxPercent}% delle risposte di CloudFront (sito e API) è un errore 5xx in 2 periodi di 5 minuti su 3 (contato da ${thresholds.http5xxMinimumErrors} errori e ${thresholds.http5xxMinimumRequests} richieste per periodo).`,
      'CloudFront: risposte 5xx',
      {
        threshold: thresholds.http5xxPercent,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      new cloudwatch.MathExpression({
        expression: `IF(requests >= ${thresholds.http5xxMinimumRequests} AND FILL(rate, 0) * requests / 100 >= ${thresholds.http5xxMinimumErrors}, FILL(rate, 0), 0)`,
        usingMetrics: { rate, requests },
        label: 'Risposte 5xx di CloudFront (%)',
        period: FIVE_MINUTES,
      }),
    );
  }

  /** Throttled requests and system errors of the table (and its indexes). */
  watchTable(table: dynamodb.ITable) {
    this.add(
      'TableThrottles',
      'DynamoDB',
      'richieste limitate',
      `Richieste alla tabella (o ai suoi indici) respinte per throttling in ciascuno degli ultimi ${TABLE_THROTTLE_PERIODS} periodi di 5 minuti: non un picco, un limite che persiste.`,
      'DynamoDB: throttling ed errori di sistema',
      {
        threshold: 1,
        evaluationPeriods: TABLE_THROTTLE_PERIODS,
        datapointsToAlarm: TABLE_THROTTLE_PERIODS,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
    );
    this.add(
      'TableSystemErrors',
      'DynamoDB',
      'errori di sistema',
      'DynamoDB ha risposto con errori interni (HTTP 500) negli ultimi 5 minuti.',
      'DynamoDB: throttling ed errori di sistema',
      {
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
    );
  }

  /**
   * SPID/CIE sign-ins failing: Cognito's FederationSuccesses (1 a success, 0 a failure, per user pool, web client
   * and identity provider): the share of failures over 15 minutes, from a minimum of failures.
   */
  watchFederation(userPoolId: string, clientId: string, providerName: string) {
    const federation = (statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/Cognito',
        metricName: 'FederationSuccesses',
        statistic,
        period: Duration.minutes(15),
        dimensionsMap: { UserPool: userPoolId, UserPoolClient: clientId, IdentityProvider: providerName },
      });
    this.add(
      'FederationFailures',
      'Accesso SPID/CIE',
      'accessi non riusciti',
      `Più del ${thresholds.federationFailurePercent}% degli accessi con SPID/CIE (gateway ${providerName}) non è riuscito negli ultimi 15 minuti (contato da ${thresholds.federationMinimumFailures} accessi falliti): i cittadini non entrano nel portale.`,
      'Accesso SPID/CIE: accessi non riusciti',
      {
        threshold: thresholds.federationFailurePercent,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      new cloudwatch.MathExpression({
        expression: `IF(attempts - successes >= ${thresholds.federationMinimumFailures}, 100 * (attempts - successes) / attempts, 0)`,
        usingMetrics: { attempts: federation('SampleCount'), successes: federation('Sum') },
        label: 'Accessi SPID/CIE non riusciti (%)',
        period: Duration.minutes(15),
      }),
    );
  }

  /**
   * Deliveries that never reached their target: an EventBridge rule's failed invocations (a stored ISEE document
   * not read, an export's end not recorded) and the schedules' (the December reminders, the January refresh)
   * invocations dropped after their retries.
   */
  watchDeliveries(rules: events.Rule[], scheduleGroup = 'default') {
    for (const rule of rules) {
      const label = resourceLabel(rule, this.props.stackPrefix);
      this.add(
        `Rule${label.replace(/[^A-Za-z0-9]/g, '')}Failed`,
        `EventBridge ${label}`,
        'consegne non riuscite',
        `La regola EventBridge ${label} non è riuscita a consegnare eventi al suo destinatario negli ultimi 5 minuti.`,
        'EventBridge e Scheduler: consegne non riuscite',
        {
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        },
        new cloudwatch.Metric({
          namespace: 'AWS/Events',
          metricName: 'FailedInvocations',
          dimensionsMap: { RuleName: rule.ruleName },
          statistic: 'Sum',
          period: FIVE_MINUTES,
        }),
      );
    }
    this.add(
      'SchedulesDropped',
      'Scheduler',
      'avvii programmati persi',
      'Una pianificazione ISEE (promemoria di dicembre, aggiornamento di gennaio da INPS) non ha avviato il suo lavoro nemmeno dopo i tentativi previsti.',
      'EventBridge e Scheduler: consegne non riuscite',
      {
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      new cloudwatch.MathExpression({
        expression: 'FILL(dropped, 0) + FILL(failed, 0)',
        usingMetrics: {
          dropped: new cloudwatch.Metric({
            namespace: 'AWS/Scheduler',
            metricName: 'InvocationDroppedCount',
            dimensionsMap: { ScheduleGroup: scheduleGroup },
            statistic: 'Sum',
            period: FIVE_MINUTES,
          }),
          failed: new cloudwatch.Metric({
            namespace: 'AWS/Scheduler',
            metricName: 'TargetErrorCount',
            dimensionsMap: { ScheduleGroup: scheduleGroup },
            statistic: 'Sum',
            period: FIVE_MINUTES,
          }),
        },
        label: 'Avvii programmati non riusciti',
        period: FIVE_MINUTES,
      }),
    );
  }

  /** Notifications SNS could not deliver (the alarms' own topic: an e-mail subscriber gone, a bad endpoint). */
  watchTopic(topic: sns.ITopic, label: string, subject = 'SNS') {
    this.add(
      'TopicNotificationsFailed',
      subject,
      'notifiche non consegnate',
      `Il topic SNS ${label} non ha consegnato notifiche ad almeno un destinatario negli ultimi 5 minuti.`,
      'SNS: notifiche non consegnate',
      {
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      topic.metricNumberOfNotificationsFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
    );
  }

  /** The account's SES reputation, before AWS pauses sending (bounce 10%, complaint 0.5%). */
  watchSesReputation() {
    const reputation = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1) });
    this.add(
      'SesBounceRate',
      'SES',
      'bounce rate vicino alla sospensione',
      `La percentuale di e-mail respinte (bounce) dell’account supera il ${thresholds.sesBounceRate * 100}%: AWS mette l’account sotto revisione e sospende l’invio dal 10%.`,
      'SES: bounce e reclami',
      {
        threshold: thresholds.sesBounceRate,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      reputation('Reputation.BounceRate'),
    );
    this.add(
      'SesComplaintRate',
      'SES',
      'complaint rate vicino alla sospensione',
      `La percentuale di e-mail segnalate come spam supera lo ${thresholds.sesComplaintRate * 100}%: AWS mette l’account sotto revisione e sospende l’invio dallo 0,5%.`,
      'SES: bounce e reclami',
      {
        threshold: thresholds.sesComplaintRate,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      },
      reputation('Reputation.ComplaintRate'),
    );
  }

  /** What the council would notice: an export in error, notices not sent, payments to reconcile, ISEE not read. */
  watchBusiness() {
    const { namespace } = this.props;
    const atLeastOnce = {
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    };
    this.add(
      'ExportFailed',
      'MyPay',
      'flusso in errore',
      'Un invio a MyPay è finito in errore (Errore flusso o Errore flusso interno in Flussi MyPay).',
      'MyPay: flusso in errore',
      atLeastOnce,
      businessMetric(namespace, 'ExportsFailed'),
    );
    this.add(
      'NoticesFailed',
      'Avvisi',
      'invii non riusciti',
      'Avvisi di pagamento non inviati per un errore di SES o di IO negli ultimi 5 minuti (non conta i cittadini senza e-mail o senza IO).',
      'Avvisi: invii non riusciti',
      atLeastOnce,
      businessTotal(namespace, 'NoticesFailed'),
    );
    this.add(
      'PaymentsToReconcile',
      'Pagamenti',
      'da riconciliare',
      'MyPay ha riportato nell’ultima ora pagamenti che il portale non ha potuto applicare (importo diverso, posizione annullata o mancante).',
      'Pagamenti da riconciliare',
      atLeastOnce,
      businessTotal(namespace, 'PaymentsToReconcile', { period: Duration.hours(1) }),
    );
    this.add(
      'IseeReadFailed',
      'ISEE',
      'letture non riuscite',
      `Almeno ${thresholds.iseeReadFailuresPerHour} attestazioni ISEE non lette nell’ultima ora (extractionStatus FAILED): gli operatori le vedono senza valori proposti.`,
      'ISEE: letture non riuscite',
      { ...atLeastOnce, threshold: thresholds.iseeReadFailuresPerHour },
      businessMetric(namespace, 'IseeReadFailed', { period: Duration.hours(1) }),
    );
    this.add(
      'InpsConfiguration',
      'INPS',
      'configurazione da correggere',
      'Una richiesta a INPS tramite PDND è fallita per la configurazione del Comune (operazione non prevista dall’e-service, certificato client o voucher rifiutati, richiesta rifiutata): nessuna richiesta riesce finché non è corretta; i cittadini sono invitati a caricare l’attestazione.',
      'INPS: configurazione da correggere',
      atLeastOnce,
      businessMetric(namespace, 'InpsConfigurationErrors'),
    );
  }
}
