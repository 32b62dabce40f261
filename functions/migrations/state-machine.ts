/**
 * The data migrations' own state machine (Amazon States Language): the same in the cloud (lib/migrations.ts)
 * and on the local stack (aws-local-stepfunctions). It calls the migration task function (functions/entry/migration-task.ts) one
 * slice at a time until every migration is applied.
 *
 * Unlike the background jobs' machine (functions/jobs/state-machine.ts, slices of 5 minutes), a migration slice
 * runs up to SLICE_BUDGET_MS (10 minutes) in a function of MIGRATION_FUNCTION_TIMEOUT_SECONDS: the Task's timeout
 * is above the function's, so a slow slice is never cut short by Step Functions. A slice that times out anyway
 * (the function killed at its timeout) or dies is tried again: every step is checkpointed on the migration's
 * record, so the next slice goes on from the last page written. Only then does the run fail (MarkFailed → Fail),
 * which the operations stack's alarm on the state machine's failed executions reports.
 */
import type { JobTaskStep } from '../jobs/state-machine.ts';

export const MIGRATION_STEPS: readonly JobTaskStep[] = ['Slice', 'MarkFailed'];

/** The migration task function's timeout (Lambda's maximum). */
export const MIGRATION_FUNCTION_TIMEOUT_SECONDS = 900;
/** A slice's Task timeout: at least the function's, so only the function's own timeout ends a slice. */
export const MIGRATION_SLICE_TIMEOUT_SECONDS = MIGRATION_FUNCTION_TIMEOUT_SECONDS + 60;
/** A whole run: a day of slices (a migration of millions of items), then TIMED_OUT and its alarm. */
export const MIGRATION_RUN_TIMEOUT_SECONDS = 24 * 60 * 60;

/**
 * How long the deployment waits for the migrations (the trigger's bound, lib/migrations.ts): past it the
 * deployment goes on and they finish in the background.
 */
export const MIGRATION_DEPLOY_WAIT_MS = 10 * 60 * 1000;

const run = { 'kind.$': '$.kind', 'key.$': '$.key', 'jobId.$': '$.jobId' };

export function migrationDefinition(functionArn: string) {
  return {
    Comment: 'Migrazioni dei dati a blocchi, ciascuno ripreso dal punto salvato',
    StartAt: 'Slice',
    TimeoutSeconds: MIGRATION_RUN_TIMEOUT_SECONDS,
    States: {
      Slice: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke',
        Parameters: { FunctionName: functionArn, Payload: { step: 'Slice', ...run, 'cursor.$': '$.cursor' } },
        ResultSelector: { 'cursor.$': '$.Payload.cursor', 'finished.$': '$.Payload.finished' },
        ResultPath: '$.slice',
        TimeoutSeconds: MIGRATION_SLICE_TIMEOUT_SECONDS,
        Retry: [
          {
            ErrorEquals: [
              'Lambda.ServiceException',
              'Lambda.AWSLambdaException',
              'Lambda.SdkClientException',
              'Lambda.TooManyRequestsException',
              'Lambda.ClientExecutionTimeoutException',
            ],
            IntervalSeconds: 2,
            MaxAttempts: 3,
            BackoffRate: 2,
          },
          // The function killed at its timeout (Lambda.Unknown, Sandbox.Timedout) or the Task's own timeout:
          // the slice starts again from the migration's checkpoint.
          {
            ErrorEquals: ['States.Timeout', 'Sandbox.Timedout', 'Lambda.Unknown'],
            IntervalSeconds: 10,
            MaxAttempts: 2,
            BackoffRate: 2,
          },
        ],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' }],
        Next: 'IsFinished',
      },
      IsFinished: {
        Type: 'Choice',
        Choices: [{ Variable: '$.slice.finished', BooleanEquals: true, Next: 'Done' }],
        Default: 'NextSlice',
      },
      NextSlice: { Type: 'Pass', Parameters: { ...run, 'cursor.$': '$.slice.cursor' }, Next: 'Slice' },
      MarkFailed: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke',
        Parameters: {
          FunctionName: functionArn,
          Payload: { step: 'MarkFailed', ...run, 'cursor.$': '$.cursor', 'error.$': '$.error' },
        },
        ResultPath: null,
        Retry: [
          {
            ErrorEquals: [
              'Lambda.ServiceException',
              'Lambda.AWSLambdaException',
              'Lambda.SdkClientException',
              'Lambda.TooManyRequestsException',
            ],
            IntervalSeconds: 2,
            MaxAttempts: 3,
            BackoffRate: 2,
          },
        ],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'Failed' }],
        Next: 'Failed',
      },
      Done: { Type: 'Succeed' },
      Failed: {
        Type: 'Fail',
        Error: 'MigrationFailed',
        Cause: 'Migrazione dei dati non riuscita: il record del lavoro e il log della funzione dicono perché.',
      },
    },
  };
}
