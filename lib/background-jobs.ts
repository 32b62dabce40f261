import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { jobDefinition } from '../functions/jobs/state-machine.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { PortalFunction } from './portal-function.ts';

export interface BackgroundJobsProps {
  table: ITable;
  /** The documents bucket: an enrolment import removing a subscription deletes its files. */
  documents: IBucket;
  /** The API functions that start jobs (the payments function: 'Sincronizza'; enrolment-csv: the import's 'Applica'). */
  starters: PortalFunction[];
}

/**
 * The one background-job mechanism: a state machine (functions/jobs/state-machine.ts) that calls the job
 * function (functions/jobs/task-handler.ts) one bounded slice at a time until the job is done. The job
 * function reads and writes the table and nothing else; the starters may start the state machine and
 * nothing else.
 */
export class BackgroundJobs extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly jobFunction: PortalFunction;

  constructor(scope: Construct, id: string, props: BackgroundJobsProps) {
    super(scope, id);
    this.jobFunction = new PortalFunction(this, 'JobTask', {
      entry: 'functions/jobs/task-handler.ts',
      serviceName: 'jobs',
      description: 'Background jobs: one bounded slice of work per invocation (recalculation of debt positions, enrolment imports, …)',
      // One slice: a month of a call's debt positions (thousands of conditional writes).
      timeout: Duration.minutes(5),
    });
    this.jobFunction.bindTable(props.table, 'RW');
    this.jobFunction.bindBucket('DOCUMENTS_BUCKET', props.documents, 'RW');

    const logGroup = new logs.LogGroup(this, 'StateMachineLogs', { retention: logs.RetentionDays.SIX_MONTHS });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(jobDefinition(this.jobFunction.functionArn))),
      tracingEnabled: true,
      // Execution data would put ids and actors in the logs: states and errors only.
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    this.jobFunction.grantInvoke(this.stateMachine);
    acknowledge(this.stateMachine.role, {
      'AwsSolutions-IAM5[Resource::*]':
        'Added by Step Functions for tracing and execution logs: X-Ray (PutTraceSegments, PutTelemetryRecords, GetSamplingRules, GetSamplingTargets) and CloudWatch Logs delivery (CreateLogDelivery, GetLogDelivery, …) support no resource-level permissions.',
    });
    acknowledgeWildcardResource(
      this.stateMachine.role,
      `${this.jobFunction.functionArn}:*`,
      'grantInvoke allows the function and its versions/aliases (ARN:*); the state machine invokes this one function and nothing else.',
    );

    for (const starter of props.starters) {
      this.stateMachine.grantStartExecution(starter);
      starter.addEnvironment('JOBS_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    }
  }
}
