import { Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { JOB_FUNCTIONS, type JobFunctionName } from '../functions/jobs/job-functions.ts';
import { JOB_SLICE_TIMEOUT_SECONDS, jobDefinition } from '../functions/jobs/state-machine.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { PortalFunction } from './portal-function.ts';

export interface BackgroundJobsProps {
  table: ITable;
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
  {
    id: 'IseeExpirySchedule',
    kind: 'isee-expiry',
    expression: `cron(0 8 ${Number(reminderFrom.slice(3))}-31 12 ? *)`,
    description: 'ISEE in scadenza: elenco e promemoria di dicembre',
  },
  {
    id: 'IseeNewYearSchedule',
    kind: 'isee-new-year',
    expression: 'cron(0 7 2-7 1 ? *)',
    description: 'Nuovi ISEE da INPS per gli iscritti attivi, a inizio anno',
  },
];

/**
 * The reporting schedules (issue 34): 'Rendicontazione' of every call with open positions every morning, and
 * every five minutes the sweep that reports the calls whose checkouts ended without the portal learning the
 * outcome (functions/reporting/schedule.ts). The local stack runs the same kinds on timers (lib/local/schedules.ts).
 */
export const reportingSchedules = [
  {
    id: 'ReportingDailySchedule',
    kind: 'reporting-daily',
    expression: 'cron(0 6 * * ? *)',
    description: 'Rendicontazione giornaliera dei bandi con posizioni da pagare',
  },
  {
    id: 'ReportingFollowUpSchedule',
    kind: 'reporting-follow-ups',
    expression: 'rate(5 minutes)',
    description: 'Rendicontazione dei bandi dopo un pagamento dall’esito non noto',
  },
];

/**
 * The one background-job mechanism: a state machine (functions/jobs/state-machine.ts) that calls the job
 * function of the run's kind (functions/jobs/job-functions.ts) one bounded slice at a time until the job is
 * done. Here the job functions get the table (their job records); each gets what its own kinds need from the
 * API stack. The starters may start the state machine and nothing else.
 */
export class BackgroundJobs extends Construct {
  readonly stateMachine: sfn.StateMachine;
  /** The job functions, by name (JOB_FUNCTIONS): each bundles only its own kinds. */
  readonly jobFunctions: Record<JobFunctionName, PortalFunction>;
  /** What the schedules invoke: it starts the ISEE jobs (functions/entry/scheduled-jobs.ts). */
  readonly scheduledJobs: PortalFunction;

  constructor(scope: Construct, id: string, props: BackgroundJobsProps) {
    super(scope, id);
    const groups = Object.entries(JOB_FUNCTIONS) as [JobFunctionName, (typeof JOB_FUNCTIONS)[JobFunctionName]][];
    const jobFunction = (name: JobFunctionName, entry: string, kinds: readonly string[]) =>
      new PortalFunction(this, name, {
        entry: `functions/entry/${entry}.ts`,
        // Its own service name on its logs and metrics: jobs-payment, jobs-enrolment, jobs-notice, jobs-isee.
        serviceName: `jobs-${name.replace(/Jobs$/, '').toLowerCase()}`,
        description: `Background jobs (${kinds.join(', ')}): one bounded slice of work per invocation`,
        // One slice: e.g. a month of a call's debt positions (thousands of conditional writes).
        timeout: Duration.seconds(JOB_SLICE_TIMEOUT_SECONDS),
      });
    this.jobFunctions = Object.fromEntries(
      groups.map(([name, { entry, kinds }]) => [name, jobFunction(name, entry, kinds)]),
    ) as Record<JobFunctionName, PortalFunction>;
    // Every job reads and writes its own record (the run's lock and progress).
    for (const fn of Object.values(this.jobFunctions)) fn.bindTable(props.table, 'RW');
    const definition = jobDefinition(
      groups.map(([name, { kinds }]) => ({ name, arn: this.jobFunctions[name].functionArn, kinds })),
    );

    const logGroup = new logs.LogGroup(this, 'StateMachineLogs', { retention: logs.RetentionDays.SIX_MONTHS });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(definition)),
      tracingEnabled: true,
      // Execution data would put ids and actors in the logs: states and errors only.
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    acknowledge(this.stateMachine.role, {
      'AwsSolutions-IAM5[Resource::*]':
        'Added by Step Functions for tracing and execution logs: X-Ray (PutTraceSegments, PutTelemetryRecords, GetSamplingRules, GetSamplingTargets) and CloudWatch Logs delivery (CreateLogDelivery, GetLogDelivery, …) support no resource-level permissions.',
    });
    for (const fn of Object.values(this.jobFunctions)) {
      fn.grantInvoke(this.stateMachine);
      acknowledgeWildcardResource(
        this.stateMachine.role,
        `${fn.functionArn}:*`,
        'grantInvoke allows the function and its versions/aliases (ARN:*); the state machine invokes the job functions and nothing else.',
      );
    }

    this.scheduledJobs = new PortalFunction(this, 'ScheduledJobs', {
      entry: 'functions/entry/scheduled-jobs.ts',
      serviceName: 'jobs-scheduled',
      description:
        'Starts the scheduled jobs (ISEE: December reminders, January refresh from INPS; the daily and follow-up reporting)',
    });
    // It only takes the job's lock (the table) and starts the state machine.
    this.scheduledJobs.bindTable(props.table, 'RW');

    for (const starter of [...props.starters, this.scheduledJobs]) {
      this.stateMachine.grantStartExecution(starter);
      starter.addEnvironment('JOBS_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    }

    // The machine's own two-hour limit and a stop bypass every Catch: their status changes come to the scheduled
    // jobs' function, which marks the run failed with its cursor kept, so it can be resumed at once.
    new events.Rule(this, 'ExecutionEnded', {
      description:
        'Background jobs: an execution that timed out, was aborted or failed marks its run failed (resumable)',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [this.stateMachine.stateMachineArn], status: ['FAILED', 'TIMED_OUT', 'ABORTED'] },
      },
      targets: [new targets.LambdaFunction(this.scheduledJobs, { retryAttempts: 8, maxEventAge: Duration.hours(24) })],
    });

    const schedulerRole = new iam.Role(this, 'SchedulerRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
    });
    this.scheduledJobs.grantInvoke(schedulerRole);
    acknowledgeWildcardResource(
      schedulerRole,
      `${this.scheduledJobs.functionArn}:*`,
      'grantInvoke allows the function and its versions/aliases (ARN:*); the schedules invoke this one function and nothing else.',
    );
    for (const schedule of [...iseeSchedules(props.iseeReminderFrom), ...reportingSchedules]) {
      new scheduler.CfnSchedule(this, schedule.id, {
        description: schedule.description,
        scheduleExpression: schedule.expression,
        scheduleExpressionTimezone: 'Europe/Rome',
        flexibleTimeWindow: { mode: 'FLEXIBLE', maximumWindowInMinutes: 30 },
        target: {
          arn: this.scheduledJobs.functionArn,
          roleArn: schedulerRole.roleArn,
          input: JSON.stringify({ kind: schedule.kind }),
          retryPolicy: { maximumRetryAttempts: 3 },
        },
      });
    }
  }
}
