/**
 * The one background-job mechanism (functions/jobs), as an Amazon States Language definition: the same in
 * the cloud (CDK puts the job functions' ARNs in it, lib/background-jobs.ts) and locally (aws-local-stepfunctions
 * runs it with the same task handlers, lib/local/runtime.ts).
 *
 * Input: { kind, key, jobId, cursor: null }. Slice calls the job function of the run's kind, which does a
 * bounded piece of the job from `cursor` and answers the next cursor, or `finished`; the loop goes on until
 * then. Lambda's own transient errors are retried; anything else → MarkFailed (the job record says why) → Fail.
 */
export const JOB_STEPS = ['Slice', 'MarkFailed'] as const;
export type JobTaskStep = (typeof JOB_STEPS)[number];

const lambdaTransient = {
  ErrorEquals: [
    'Lambda.ServiceException',
    'Lambda.AWSLambdaException',
    'Lambda.SdkClientException',
    'Lambda.TooManyRequestsException',
  ],
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

/** A job function and the kinds it runs (functions/jobs/job-functions.ts): the state machine picks it by the run's kind. */
export interface JobFunctionTarget {
  name: string;
  arn: string;
  kinds: readonly string[];
}

/** One function's Slice and MarkFailed states: the same Retry, Catch and failure path for every function. */
function taskStates(jobFunction: string, slice: string, markFailed: string) {
  return {
    [slice]: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke',
      Parameters: { FunctionName: jobFunction, Payload: { step: 'Slice', ...run, 'cursor.$': '$.cursor' } },
      ResultSelector: { 'cursor.$': '$.Payload.cursor', 'finished.$': '$.Payload.finished' },
      ResultPath: '$.slice',
      TimeoutSeconds: JOB_SLICE_TIMEOUT_SECONDS,
      Retry: [lambdaTransient],
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: markFailed }],
      Next: 'IsFinished',
    },
    [markFailed]: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke',
      Parameters: {
        FunctionName: jobFunction,
        Payload: { step: 'MarkFailed', ...run, 'cursor.$': '$.cursor', 'error.$': '$.error' },
      },
      ResultPath: null,
      Retry: [lambdaTransient],
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'Failed' }],
      Next: 'Failed',
    },
  };
}

/**
 * One job function (a string: its ARN; the data migrations) or several, each running its own kinds: then a
 * Choice on `$.kind` (Route) sends each slice to its kind's function, Slice<name> and MarkFailed<name>. A kind
 * no function names goes to the first, which fails it as an unknown kind and marks the run failed.
 */
export function jobDefinition(target: string | readonly JobFunctionTarget[]) {
  const single = typeof target === 'string';
  const tasks = single
    ? taskStates(target, 'Slice', 'MarkFailed')
    : Object.assign({}, ...target.map((fn) => taskStates(fn.arn, `Slice${fn.name}`, `MarkFailed${fn.name}`)));
  const route = single
    ? {}
    : {
        Route: {
          Type: 'Choice',
          Choices: target.flatMap((fn) =>
            fn.kinds.map((kind) => ({ Variable: '$.kind', StringEquals: kind, Next: `Slice${fn.name}` })),
          ),
          Default: `Slice${target[0]!.name}`,
        },
      };
  const start = single ? 'Slice' : 'Route';
  return {
    Comment: 'Lavori in background a blocchi (ricalcolo delle posizioni debitorie, …)',
    StartAt: start,
    TimeoutSeconds: 7200,
    States: {
      ...route,
      ...tasks,
      IsFinished: {
        Type: 'Choice',
        Choices: [{ Variable: '$.slice.finished', BooleanEquals: true, Next: 'Done' }],
        Default: 'NextSlice',
      },
      NextSlice: { Type: 'Pass', Parameters: { ...run, 'cursor.$': '$.slice.cursor' }, Next: start },
      Done: { Type: 'Succeed' },
      Failed: { Type: 'Fail', Error: 'JobFailed', Cause: 'Il lavoro non è riuscito: il suo stato dice perché.' },
    },
  };
}
