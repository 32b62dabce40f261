import { Duration } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { businessDimensions, type BusinessMetric } from '../functions/domain/business-metrics.ts';
import { FAST_ROUTE_LATENCY, RUNBOOK, businessMetric, businessTotal, resourceLabel } from './alarms.ts';

export interface PortalDashboardProps {
  stackPrefix: string;
  namespace: string;
  /** The API's functions (one per resource of the route table), by resource. */
  apiFunctions: Record<string, lambda.IFunction>;
  /** Every other function (background steps, the ISEE reading, the token trigger, the migrations). */
  otherFunctions: lambda.Function[];
  stateMachines: sfn.StateMachine[];
  /** The MyPay export's state machine (its executions beside the flows' outcome). */
  paymentExport: sfn.IStateMachine;
  httpApi: apigwv2.IHttpApi;
  table: dynamodb.ITable;
  alarms: cloudwatch.IAlarm[];
}

const FIVE_MINUTES = Duration.minutes(5);
const DAY = Duration.days(1);
const WIDE = 24;
const THIRD = 8;
const HALF = 12;
const ALARMS_PER_WIDGET = 100;

const graph = (title: string, left: cloudwatch.IMetric[], props: Partial<cloudwatch.GraphWidgetProps> = {}) =>
  new cloudwatch.GraphWidget({ title, left, width: THIRD, height: 6, ...props });

/**
 * The one dashboard of a deployment (`<prefix>-portale`): the alarms' state, the API per function, the HTTP
 * API, the MyPay exports and the month's positions and payments, the notices, the ISEE readings, the support
 * messages, DynamoDB, the background work. Business figures come from the catalogue
 * (functions/domain/business-metrics.ts), so the dashboard and the code count the same thing.
 */
export function portalDashboard(scope: Construct, props: PortalDashboardProps): cloudwatch.Dashboard {
  const { namespace } = props;
  const business = (metric: BusinessMetric, options: cloudwatch.MetricOptions & { dimension?: string } = {}) =>
    businessMetric(namespace, metric, {
      label: options.dimension ? `${metric} ${options.dimension}` : metric,
      ...options,
    });
  const byFunction = (metric: (fn: lambda.IFunction) => cloudwatch.IMetric) =>
    Object.values(props.apiFunctions).map(metric);
  const labelOf = (fn: lambda.IFunction) =>
    Object.entries(props.apiFunctions).find(([, f]) => f === fn)?.[0] ?? fn.node.id;
  const month = { period: Duration.days(30), statistic: 'Sum' };

  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    dashboardName: `${props.stackPrefix}-portale`,
    defaultInterval: Duration.days(7),
  });
  dashboard.addWidgets(
    new cloudwatch.TextWidget({
      markdown: `# Portale servizi sociali (${props.stackPrefix})\nAllarmi, metriche di business (namespace \`${namespace}\`) e risorse della copia \`${props.stackPrefix}\`. Cosa fare per ogni allarme: \`${RUNBOOK}\`.`,
      width: WIDE,
      height: 2,
    }),
  );
  // An alarm status widget shows at most 100 alarms: one more widget per hundred.
  for (let i = 0; i < props.alarms.length; i += ALARMS_PER_WIDGET) {
    const part = props.alarms.length > ALARMS_PER_WIDGET ? ` (${i / ALARMS_PER_WIDGET + 1})` : '';
    dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({
        title: `Stato degli allarmi${part}`,
        alarms: props.alarms.slice(i, i + ALARMS_PER_WIDGET),
        width: WIDE,
        height: 8,
      }),
    );
  }

  // The API, per function: requests, errors, p95.
  dashboard.addWidgets(
    graph(
      'API: richieste per funzione',
      byFunction((fn) => fn.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum', label: labelOf(fn) })),
    ),
    graph('API: errori per funzione', [
      ...byFunction((fn) =>
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: `${labelOf(fn)} (errori Lambda)` }),
      ),
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${namespace},service,operation} MetricName="ServerError"', 'Sum', 300)`,
        label: 'Risposte 5xx per operazione',
        period: FIVE_MINUTES,
      }),
    ]),
    graph(
      'API: durata p95 per funzione (ms)',
      byFunction((fn) => fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p95', label: labelOf(fn) })),
    ),
  );

  // The HTTP API as the browser sees it.
  dashboard.addWidgets(
    graph('API HTTP: richieste e errori', [
      props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum', label: 'Richieste' }),
      props.httpApi.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum', label: '4xx' }),
      props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: '5xx' }),
    ]),
    // The latency the alarm watches: the access log's, without the routes slow by design (lib/alarms.ts), so the
    // graph and the alarm show the same figure; API Gateway's own Latency mixes in the slow routes.
    graph(
      'API HTTP: latenza delle route veloci (ms)',
      (['p50', 'p95'] as const).map(
        (statistic) =>
          new cloudwatch.Metric({
            namespace,
            metricName: FAST_ROUTE_LATENCY,
            period: FIVE_MINUTES,
            statistic,
            label: statistic,
          }),
      ),
    ),
    graph('Messaggi di assistenza ricevuti', [business('SupportMessages', { period: DAY })]),
  );

  // MyPay: the flows and their outcome; the month's positions and payments.
  dashboard.addWidgets(
    graph('Flussi MyPay: esito', [
      business('ExportsCompleted', { period: DAY, label: 'Flussi conclusi' }),
      business('ExportsFailed', { period: DAY, label: 'Flussi in errore' }),
      props.paymentExport.metricSucceeded({ period: DAY, statistic: 'Sum', label: 'Esecuzioni riuscite' }),
      props.paymentExport.metricFailed({ period: DAY, statistic: 'Sum', label: 'Esecuzioni fallite' }),
    ]),
    new cloudwatch.SingleValueWidget({
      title: 'Posizioni e pagamenti, ultimi 30 giorni',
      metrics: [
        business('PositionsGenerated', { ...month, label: 'Posizioni generate' }),
        business('PositionsExported', { ...month, label: 'Posizioni esportate (accettate da MyPay)' }),
        business('MyPayRowsRejected', { ...month, label: 'Righe scartate da MyPay' }),
        ...businessDimensions.channel.map((channel) =>
          business('PaymentsRecorded', {
            ...month,
            dimension: channel,
            label: `Pagate (${channel === 'checkout' ? 'Paga' : 'Rendicontazione'})`,
          }),
        ),
        businessTotal(namespace, 'PaymentsToReconcile', { ...month, label: 'Da riconciliare' }),
      ],
      start: '-P30D',
      width: HALF + 4,
      height: 6,
    }),
  );

  // Notices and ISEE readings.
  dashboard.addWidgets(
    graph(
      'Avvisi inviati e non riusciti',
      [
        ...businessDimensions.notice.map((notice) =>
          business('NoticesSent', { period: DAY, dimension: notice, label: `Inviati (${notice})` }),
        ),
        ...businessDimensions.notice.map((notice) =>
          business('NoticesFailed', { period: DAY, dimension: notice, label: `Non riusciti (${notice})` }),
        ),
      ],
      { width: HALF },
    ),
    graph(
      'Letture ISEE',
      [
        ...businessDimensions.source.map((source) =>
          business('IseeRead', { period: DAY, dimension: source, label: `Lette (${source})` }),
        ),
        businessTotal(namespace, 'IseeReadWithWarning', {
          period: DAY,
          label: 'Con avviso (omissioni, valori non coerenti)',
        }),
        business('IseeReadFailed', { period: DAY, label: 'Non riuscite' }),
        business('InpsConfigurationErrors', { period: DAY, label: 'INPS: configurazione da correggere' }),
      ],
      { width: HALF },
    ),
  );

  // DynamoDB: what the table consumes, and whether it refuses.
  dashboard.addWidgets(
    graph(
      'DynamoDB: capacità consumata',
      [
        props.table.metricConsumedReadCapacityUnits({ period: FIVE_MINUTES, statistic: 'Sum', label: 'RCU' }),
        props.table.metricConsumedWriteCapacityUnits({ period: FIVE_MINUTES, statistic: 'Sum', label: 'WCU' }),
      ],
      { width: HALF },
    ),
    graph(
      'DynamoDB: throttling ed errori di sistema',
      [
        new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName: 'ReadThrottleEvents',
          dimensionsMap: { TableName: props.table.tableName },
          statistic: 'Sum',
          period: FIVE_MINUTES,
          label: 'Letture limitate',
        }),
        new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName: 'WriteThrottleEvents',
          dimensionsMap: { TableName: props.table.tableName },
          statistic: 'Sum',
          period: FIVE_MINUTES,
          label: 'Scritture limitate',
        }),
        new cloudwatch.MathExpression({
          expression: `SEARCH('{AWS/DynamoDB,TableName,Operation} MetricName="SystemErrors" TableName="${props.table.tableName}"', 'Sum', 300)`,
          label: 'Errori di sistema',
          period: FIVE_MINUTES,
        }),
      ],
      { width: HALF },
    ),
  );

  // The background work: state machines and the functions outside the API.
  dashboard.addWidgets(
    graph(
      'Macchine a stati: esecuzioni',
      props.stateMachines.flatMap((machine) => {
        const label = resourceLabel(machine, props.stackPrefix);
        return [
          machine.metricStarted({ period: FIVE_MINUTES, statistic: 'Sum', label: `${label} avviate` }),
          machine.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum', label: `${label} fallite` }),
        ];
      }),
      { width: HALF },
    ),
    graph(
      'Funzioni non API: errori',
      props.otherFunctions.map((fn) =>
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: resourceLabel(fn, props.stackPrefix) }),
      ),
      { width: HALF },
    ),
  );
  return dashboard;
}
