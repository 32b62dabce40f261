import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import {
  PortalAlarms,
  alarmTopic,
  functionsOf,
  isTaskOf,
  rulesOf,
  stateMachineTasks,
  stateMachinesOf,
} from './alarms.ts';
import { metricsNamespace } from './context.ts';
import { portalDashboard } from './dashboard.ts';
import { DataMigrations } from './migrations.ts';

export interface OperationsStackProps extends StackProps {
  stackPrefix: string;
  /** Who gets the alarms by e-mail (context alarmEmail); none: subscribe later (docs/operations.md). */
  alarmEmail?: string;
  /**
   * The stacks watched: every Lambda function and state machine in them gets its alarms. Default: every stack
   * of the app made before this one (build the operations stack last).
   */
  watched?: Stack[];
  table: dynamodb.ITable;
  httpApi: apigwv2.IHttpApi;
  /** The API's access log: the latency of its fast routes is read from it. */
  apiAccessLogs: logs.ILogGroup;
  /** The API's functions by resource (their duration is watched against the timeout, and graphed one by one). */
  apiFunctions: Record<string, lambda.IFunction>;
  paymentExport: sfn.IStateMachine;
  /** The data migrations run after these are deployed (the API). */
  migrateAfter: Construct[];
  /** SPID/CIE sign-ins: the user pool, the web app's client and the gateway's identity provider name. */
  signIn: { userPool: cognito.IUserPool; client: cognito.IUserPoolClient; providerName: string };
}

/**
 * Running the portal, for whoever is on call: the data migrations that each deployment runs after the API
 * (lib/migrations.ts), the alarms' topic (SNS, encrypted with a key of its own), an
 * alarm on every function and state machine of the other stacks (found in them, so one added later is
 * watched too), on the HTTP API, DynamoDB, SES and the business, and the deployment's dashboard. Deployed
 * last, after every stack it watches; its references to them are read at deploy time (weak references,
 * cdk.json), so none of them is locked by it.
 */
export class OperationsStack extends Stack {
  readonly topic: sns.Topic;
  readonly alarms: PortalAlarms;
  readonly dashboard: cloudwatch.Dashboard;
  readonly migrations: DataMigrations;

  constructor(scope: Construct, id: string, props: OperationsStackProps) {
    const watched = props.watched ?? scope.node.children.filter((c): c is Stack => Stack.isStack(c));
    super(scope, id, props);
    const namespace = metricsNamespace(props.stackPrefix);

    this.topic = alarmTopic(this, props.stackPrefix, props.alarmEmail);
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.topic.topicArn,
      description: 'Subscribe whoever is on call (e-mail, SMS, chat) to this topic',
    });

    // The data migrations, after the API (their functions and state machine are watched below like the others).
    this.migrations = new DataMigrations(this, 'Migrations', { table: props.table, executeAfter: props.migrateAfter });

    this.alarms = new PortalAlarms(this, 'Alarms', { stackPrefix: props.stackPrefix, topic: this.topic, namespace });
    const apiFunctions = new Set<unknown>(Object.values(props.apiFunctions));
    const functions = functionsOf([...watched, this]);
    const stateMachines = stateMachinesOf([...watched, this]);
    const tasks = stateMachineTasks(stateMachines);
    for (const fn of functions)
      this.alarms.watchFunction(fn, { api: apiFunctions.has(fn), stateMachineTask: isTaskOf(tasks, fn) });
    // The export's failures page once, as 'MyPay: flusso in errore' (MarkFailed counts them), not again as failed executions.
    for (const machine of stateMachines)
      this.alarms.watchStateMachine(machine, { failuresReported: machine === props.paymentExport });
    this.alarms.watchHttpApi(props.httpApi, props.apiAccessLogs);
    this.alarms.watchFederation(
      props.signIn.userPool.userPoolId,
      props.signIn.client.userPoolClientId,
      props.signIn.providerName,
    );
    this.alarms.watchDeliveries(rulesOf(watched));
    this.alarms.watchTopic(this.topic, 'degli allarmi');
    this.alarms.watchTable(props.table);
    this.alarms.watchSesReputation();
    this.alarms.watchBusiness();

    this.dashboard = portalDashboard(this, {
      stackPrefix: props.stackPrefix,
      namespace,
      apiFunctions: props.apiFunctions,
      otherFunctions: functions.filter((fn) => !apiFunctions.has(fn)),
      stateMachines,
      paymentExport: props.paymentExport,
      httpApi: props.httpApi,
      table: props.table,
      alarms: this.alarms.alarms,
    });
  }
}
