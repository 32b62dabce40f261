import { Duration, Stack } from 'aws-cdk-lib';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { DEFAULT_IMPORT_MAX_WAIT_MINUTES } from '../functions/domain/flows.ts';
import { TASK_TIMEOUT_SECONDS, exportDefinition } from '../functions/flows/state-machine.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { PortalFunction } from './portal-function.ts';

export interface PaymentExportProps {
  table: ITable;
  exports: IBucket;
  /** The secret with MyPay's endpoint, entity code and password (JSON: endpoint, codIpa, password). */
  mypaySecret: ISecret;
  /** The API function that starts exports ('Invia a MyPay', 'Rielabora'). */
  starter: PortalFunction;
  /** How long MyPay may keep an import in IMPORT_IN_ELAB before the flow is suspended (minutes; default 48 hours). */
  importMaxWaitMinutes?: number;
  /** The entity's MyPay settings the CSV's rows depend on (functions/adapters/mypay-rules.ts). */
  scadenzaObbligatoria?: boolean;
  applicationCode?: string;
  /** On pagoPA GPD (paymentPlatform "gpd"): binds GPD's settings and secret to the task function instead of MyPay's. */
  bindGpd?: (fn: PortalFunction) => void;
}

/**
 * The export of debt positions to MyPay: a state machine (functions/flows/state-machine.ts) whose steps
 * are one task function (functions/entry/flow-task.ts). The flows API function may start it and
 * nothing else; the task function reads and writes the table and the exports bucket and talks to MyPay.
 */
export class PaymentExport extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly taskFunction: PortalFunction;

  constructor(scope: Construct, id: string, props: PaymentExportProps) {
    super(scope, id);
    this.taskFunction = new PortalFunction(this, 'FlowTask', {
      // One task function per platform, so neither bundle carries the other's client.
      entry: props.bindGpd ? 'functions/entry/flow-task-gpd.ts' : 'functions/entry/flow-task.ts',
      serviceName: 'flows-export',
      description: props.bindGpd
        ? 'pagoPA GPD export: prepares, publishes and writes back one flow'
        : 'MyPay export: prepares, sends, follows and writes back one flow',
      // An upload of a large ZIP or the write-back of thousands of IUVs; each Task state waits as long.
      timeout: Duration.seconds(TASK_TIMEOUT_SECONDS),
    });
    this.taskFunction.bindTable(props.table, 'RW').bindBucket('EXPORTS_BUCKET', props.exports, 'RW');
    if (props.bindGpd) props.bindGpd(this.taskFunction);
    else {
      // MyPay's endpoint, entity code and password: the secret's fields, read at run time (functions/adapters/secrets.ts).
      this.taskFunction.bindSecret('MYPAY_SECRET_NAME', props.mypaySecret);
      this.taskFunction.addEnvironment('MYPAY_SCADENZA_OBBLIGATORIA', String(props.scadenzaObbligatoria ?? false));
      if (props.applicationCode) this.taskFunction.addEnvironment('MYPAY_APPLICATION_CODE', props.applicationCode);
    }
    const importMaxWaitMinutes = props.importMaxWaitMinutes ?? DEFAULT_IMPORT_MAX_WAIT_MINUTES;
    this.taskFunction.addEnvironment('MYPAY_IMPORT_MAX_WAIT_MINUTES', String(importMaxWaitMinutes));

    const logGroup = new logs.LogGroup(this, 'StateMachineLogs', { retention: logs.RetentionDays.SIX_MONTHS });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      definitionBody: sfn.DefinitionBody.fromString(
        Stack.of(this).toJsonString(exportDefinition(this.taskFunction.functionArn, importMaxWaitMinutes)),
      ),
      tracingEnabled: true,
      // Execution data would put fiscal codes and amounts in the logs: states and errors only.
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    this.taskFunction.grantInvoke(this.stateMachine);
    acknowledge(this.stateMachine.role, {
      'AwsSolutions-IAM5[Resource::*]':
        'Added by Step Functions for tracing and execution logs: X-Ray (PutTraceSegments, PutTelemetryRecords, GetSamplingRules, GetSamplingTargets) and CloudWatch Logs delivery (CreateLogDelivery, GetLogDelivery, …) support no resource-level permissions.',
    });
    acknowledgeWildcardResource(
      this.stateMachine.role,
      `${this.taskFunction.functionArn}:*`,
      'grantInvoke allows the function and its versions/aliases (ARN:*); the state machine invokes this one function and nothing else.',
    );

    // The execution's own timeout and an abort bypass every Catch: the machine's status changes come back to
    // the task function (functions/entry/flow-task.ts), which fails the flow cleanly and frees the call.
    new events.Rule(this, 'ExecutionEnded', {
      description: 'MyPay export: an execution that failed, timed out or was aborted fails its flow',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [this.stateMachine.stateMachineArn], status: ['FAILED', 'TIMED_OUT', 'ABORTED'] },
      },
      targets: [new targets.LambdaFunction(this.taskFunction, { retryAttempts: 8, maxEventAge: Duration.hours(24) })],
    });

    this.stateMachine.grantStartExecution(props.starter);
    props.starter.addEnvironment('EXPORT_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
  }
}
