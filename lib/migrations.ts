import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as triggers from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { jobDefinition } from '../functions/jobs/state-machine.ts';
import { MIGRATION_IDS } from '../functions/migrations/ids.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { PortalFunction } from './portal-function.ts';

export interface DataMigrationsProps {
  table: ITable;
  /** What must be deployed before the migrations run (the API: new code writes the new shape first). */
  executeAfter: Construct[];
}

/**
 * The data migrations (functions/migrations), run by the deployment: a trigger after the API starts them as
 * a background job of their own (the jobs' state machine definition, with the migration task function, 15
 * minutes a slice, looping until every migration is applied) and waits for them up to 12 minutes; a failure
 * fails the deployment. The trigger runs again whenever the list of migrations changes (its id list is in
 * the start function's environment); the table records what was applied, so nothing runs twice.
 */
export class DataMigrations extends Construct {
  readonly taskFunction: PortalFunction;
  readonly startFunction: PortalFunction;
  readonly stateMachine: sfn.StateMachine;
  readonly trigger: triggers.Trigger;

  constructor(scope: Construct, id: string, props: DataMigrationsProps) {
    super(scope, id);
    this.taskFunction = new PortalFunction(this, 'MigrationTask', {
      entry: 'functions/migrations/task-handler.ts',
      serviceName: 'migrations',
      description: 'Data migrations: pages of the pending migrations for up to 10 minutes, progress on the table',
      timeout: Duration.minutes(15),
    });
    this.taskFunction.bindTable(props.table, 'RW');

    const logGroup = new logs.LogGroup(this, 'StateMachineLogs', { retention: logs.RetentionDays.SIX_MONTHS });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(jobDefinition(this.taskFunction.functionArn))),
      tracingEnabled: true,
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

    this.startFunction = new PortalFunction(this, 'StartMigrations', {
      entry: 'functions/migrations/start-handler.ts',
      serviceName: 'migrations-start',
      description: 'Deployment trigger: starts the data migrations and waits for them',
      timeout: Duration.minutes(14),
      // A new migration in the list changes the function's configuration, hence its version: the trigger runs again.
      environment: { MIGRATIONS: MIGRATION_IDS.join(',') },
    });
    this.startFunction.bindTable(props.table, 'RW');
    this.stateMachine.grantStartExecution(this.startFunction);
    this.startFunction.addEnvironment('JOBS_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);

    this.trigger = new triggers.Trigger(this, 'AfterDeploy', {
      handler: this.startFunction,
      timeout: Duration.minutes(14),
      invocationType: triggers.InvocationType.REQUEST_RESPONSE,
      executeAfter: props.executeAfter,
    });
  }
}
