import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as triggers from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { MIGRATION_IDS } from '../functions/migrations/ids.ts';
import {
  MIGRATION_DEPLOY_WAIT_MS,
  MIGRATION_FUNCTION_TIMEOUT_SECONDS,
  migrationDefinition,
} from '../functions/migrations/state-machine.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { PortalFunction } from './portal-function.ts';

export interface DataMigrationsProps {
  table: ITable;
  /** What must be deployed before the migrations run (the API: new code writes the new shape first). */
  executeAfter: Construct[];
}

/**
 * The data migrations (functions/migrations), run by the deployment: a trigger after the API starts them as
 * a background job on a state machine of their own (functions/migrations/state-machine.ts: the migration task
 * function, 15 minutes a slice, its Task timeout above the function's, looping until every migration is
 * applied) and waits for them up to MIGRATION_DEPLOY_WAIT_MS. Past it, or when they fail, the deployment still succeeds: they go
 * on in the background, and a failed, timed-out or stopped run raises the alarm on this state machine
 * (lib/operations-stack.ts). The trigger runs again whenever the list of migrations changes (its id list is in
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
      entry: 'functions/entry/migration-task.ts',
      serviceName: 'migrations',
      description: 'Data migrations: pages of the pending migrations for up to 10 minutes, progress on the table',
      timeout: Duration.seconds(MIGRATION_FUNCTION_TIMEOUT_SECONDS),
    });
    this.taskFunction.bindTable(props.table, 'RW');
    // The TTL back-fill (retention-expiry-v1) finds the items without `expiresAt` with a Scan, page by page: this
    // one-time migration is the only reader of the portal that scans, on the table itself (no index).
    this.taskFunction.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Scan'], resources: [props.table.tableArn] }),
    );

    const logGroup = new logs.LogGroup(this, 'StateMachineLogs', { retention: logs.RetentionDays.SIX_MONTHS });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      definitionBody: sfn.DefinitionBody.fromString(
        Stack.of(this).toJsonString(migrationDefinition(this.taskFunction.functionArn)),
      ),
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
      entry: 'functions/entry/start-migrations.ts',
      serviceName: 'migrations-start',
      description: 'Deployment trigger: starts (or resumes) the data migrations and waits for them up to a bound',
      // The wait, and a minute to start them and answer.
      timeout: Duration.millis(MIGRATION_DEPLOY_WAIT_MS).plus(Duration.minutes(1)),
      // A new migration in the list changes the function's configuration, hence its version: the trigger runs again.
      environment: { MIGRATIONS: MIGRATION_IDS.join(',') },
    });
    this.startFunction.bindTable(props.table, 'RW');
    this.stateMachine.grantStartExecution(this.startFunction);
    // It looks up the recorded run's execution: one stopped or timed out is taken over (functions/entry/start-migrations.ts).
    const executions = `${Stack.of(this).formatArn({ service: 'states', resource: 'execution', resourceName: this.stateMachine.stateMachineName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })}:*`;
    this.startFunction.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['states:DescribeExecution'], resources: [executions] }),
    );
    acknowledgeWildcardResource(
      this.startFunction.role!,
      executions,
      'The executions of the migrations’ state machine (named after each run’s id): it reads the state of the recorded run’s execution, nothing else.',
    );
    this.startFunction.addEnvironment('JOBS_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);

    this.trigger = new triggers.Trigger(this, 'AfterDeploy', {
      handler: this.startFunction,
      timeout: Duration.millis(MIGRATION_DEPLOY_WAIT_MS).plus(Duration.minutes(2)),
      invocationType: triggers.InvocationType.REQUEST_RESPONSE,
      executeAfter: props.executeAfter,
    });
  }
}
