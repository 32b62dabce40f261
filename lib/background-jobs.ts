import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { JOB_SLICE_TIMEOUT_SECONDS, jobDefinition } from '../functions/jobs/state-machine.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { PortalFunction } from './portal-function.ts';

export interface BackgroundJobsProps {
  table: ITable;
  /** The documents bucket: an enrolment import removing a subscription deletes its files. */
  documents: IBucket;
  /** The API functions that start jobs (the payments function: 'Sincronizza'; enrolment-csv: the import's 'Applica'). */
  starters: PortalFunction[];
  /** The first day (MM-DD, in December) of the ISEE reminders: the expiry job runs every day from it. */
  iseeReminderFrom: string;
}

/**
 * The ISEE schedules (EventBridge Scheduler, Europe/Rome): the expiry list and the December reminders every
 * morning from the configured day to the 31st; the January refresh from INPS from the 2nd to the 7th (a
 * subscriber who already has this year's ISEE is not asked again).
 */
export const iseeSchedules = (reminderFrom: string) => [
  { id: 'IseeExpirySchedule', kind: 'isee-expiry', expression: `cron(0 8 ${Number(reminderFrom.slice(3))}-31 12 ? *)`, description: 'ISEE in scadenza: elenco e promemoria di dicembre' },
  { id: 'IseeNewYearSchedule', kind: 'isee-new-year', expression: 'cron(0 7 2-7 1 ? *)', description: 'Nuovi ISEE da INPS per gli iscritti attivi, a inizio anno' },
];

/**
 * The one background-job mechanism: a state machine (functions/jobs/state-machine.ts) that calls the job
 * function (functions/jobs/task-handler.ts) one bounded slice at a time until the job is done. The job
 * function reads and writes the table and nothing else; the starters may start the state machine and
 * nothing else.
 */
export class BackgroundJobs extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly jobFunction: PortalFunction;
  /** What the schedules invoke: it starts the ISEE jobs (functions/jobs/scheduled.ts). */
  readonly scheduledJobs: PortalFunction;

  constructor(scope: Construct, id: string, props: BackgroundJobsProps) {
    super(scope, id);
    this.jobFunction = new PortalFunction(this, 'JobTask', {
      entry: 'functions/jobs/task-handler.ts',
      serviceName: 'jobs',
      description: 'Background jobs: one bounded slice of work per invocation (recalculation of debt positions, enrolment imports, …)',
      // One slice: a month of a call's debt positions (thousands of conditional writes).
      timeout: Duration.seconds(JOB_SLICE_TIMEOUT_SECONDS),
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

    this.scheduledJobs = new PortalFunction(this, 'ScheduledJobs', {
      entry: 'functions/jobs/scheduled.ts',
      serviceName: 'jobs-scheduled',
      description: 'Starts the scheduled ISEE jobs (December reminders, January refresh from INPS)',
    });
    // It only takes the job's lock (the table) and starts the state machine.
    this.scheduledJobs.bindTable(props.table, 'RW');

    for (const starter of [...props.starters, this.scheduledJobs]) {
      this.stateMachine.grantStartExecution(starter);
      starter.addEnvironment('JOBS_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    }

    const schedulerRole = new iam.Role(this, 'SchedulerRole', { assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com') });
    this.scheduledJobs.grantInvoke(schedulerRole);
    acknowledgeWildcardResource(
      schedulerRole,
      `${this.scheduledJobs.functionArn}:*`,
      'grantInvoke allows the function and its versions/aliases (ARN:*); the schedules invoke this one function and nothing else.',
    );
    for (const schedule of iseeSchedules(props.iseeReminderFrom)) {
      new scheduler.CfnSchedule(this, schedule.id, {
        description: schedule.description,
        scheduleExpression: schedule.expression,
        scheduleExpressionTimezone: 'Europe/Rome',
        flexibleTimeWindow: { mode: 'FLEXIBLE', maximumWindowInMinutes: 30 },
        target: { arn: this.scheduledJobs.functionArn, roleArn: schedulerRole.roleArn, input: JSON.stringify({ kind: schedule.kind }), retryPolicy: { maximumRetryAttempts: 3 } },
      });
    }
  }
}
