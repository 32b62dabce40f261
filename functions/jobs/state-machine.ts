/**
 * The one background-job mechanism (functions/jobs), as an Amazon States Language definition: the same in
 * the cloud (CDK puts the job function's ARN in it, lib/background-jobs.ts) and locally (aws-local-stepfunctions
 * runs it with the same task handler, lib/local/runtime.ts).
 *
 * Input: { kind, key, jobId, cursor: null }. Slice calls the job function, which does a bounded piece of the
 * job from `cursor` and answers the next cursor, or `finished`; the loop goes on until then. Lambda's own
 * transient errors are retried; anything else → MarkFailed (the job record says why) → Fail.
 */
export const JOB_STEPS = ['Slice', 'MarkFailed'] as const;
export type JobTaskStep = (typeof JOB_STEPS)[number];

const lambdaTransient = {
  ErrorEquals: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException'],
  IntervalSeconds: 2,
  MaxAttempts: 3,
  BackoffRate: 2,
};

/**
 * A slice's Task timeout, the job function's own (lib/background-jobs.ts). Without it a Task state times out
 * after the States Language's default of 60 s (aws-local-stepfunctions applies it): a call's 'Aggiorna ISEE da
 * INPS' slice (ISEE_REFRESH_SLICE_MS, 120 s) failed on the local stack after its first minute (bench:isee-inps).
 */
export const JOB_SLICE_TIMEOUT_SECONDS = 300;

const run = { 'kind.$': '$.kind', 'key.$': '$.key', 'jobId.$': '$.jobId' };

export function jobDefinition(jobFunction: string) {
  return {
    Comment: 'Lavori in background a blocchi (ricalcolo delle posizioni debitorie, …)',
    StartAt: 'Slice',
    TimeoutSeconds: 7200,
    States: {
      Slice: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke',
        Parameters: { FunctionName: jobFunction, Payload: { step: 'Slice', ...run, 'cursor.$': '$.cursor' } },
        ResultSelector: { 'cursor.$': '$.Payload.cursor', 'finished.$': '$.Payload.finished' },
        ResultPath: '$.slice',
        TimeoutSeconds: JOB_SLICE_TIMEOUT_SECONDS,
        Retry: [lambdaTransient],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' }],
        Next: 'IsFinished',
      },
      IsFinished: {
        Type: 'Choice',
        Choices: [{ Variable: '$.slice.finished', BooleanEquals: true, Next: 'Done' }],
        Default: 'NextSlice',
      },
      NextSlice: { Type: 'Pass', Parameters: { ...run, 'cursor.$': '$.slice.cursor' }, Next: 'Slice' },
      Done: { Type: 'Succeed' },
      MarkFailed: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke',
        Parameters: { FunctionName: jobFunction, Payload: { step: 'MarkFailed', ...run, 'cursor.$': '$.cursor', 'error.$': '$.error' } },
        ResultPath: null,
        Retry: [lambdaTransient],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'Failed' }],
        Next: 'Failed',
      },
      Failed: { Type: 'Fail', Error: 'JobFailed', Cause: 'Il lavoro non è riuscito: il suo stato dice perché.' },
    },
  };
}
