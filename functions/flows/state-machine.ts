import { DEFAULT_IMPORT_MAX_WAIT_MINUTES, IMPORT_POLL_SECONDS } from '../domain/flows.ts';

/**
 * The export of a month's debt positions to MyPay, as an Amazon States Language definition: one definition
 * for the cloud (CDK puts the task function's ARN in it) and for the local stack (aws-local-stepfunctions
 * runs it with the same task handler).
 *
 * Input: { flowId }. Every step is one call of the task function (functions/entry/flow-task.ts) with the
 * step's name, and every step is idempotent on the flow item: a restart ('Rielabora') runs the same
 * definition again and each step skips what is already done, so no file is sent twice and no position is
 * written twice.
 *
 * Prepare generates the month a budget at a time (the step called again until it answers done), then prepares
 * what goes to the platform. On GPD (issue 37) Prepare saves the month's IUVs on the positions and lists them, and Send hands them over in
 * slices, writing GPD's answers back itself: the flow is complete after Send. On MyPay:
 * Prepare (CSV → ZIP + MD5 in the exports bucket) → Send (one-use request token, upload) → wait and poll
 * the import state (CheckImport says how long to wait next, and whether to wait more) → Collect (IUV,
 * SCARTI and AVVISI files into the exports bucket; IUV and NAV, or the rejection, onto each position; in
 * slices, the step called again until it answers done). The platform's 5xx and timeouts (MyPayUnavailable, GpdUnavailable) are
 * retried with backoff; anything else → MarkFailed (MyPay's failure, the portal's IMPORT_ERROR_SL, or the
 * flow suspended when MyPay still works on the import after the deployment's wait).
 *
 * The execution's own timeout (TimeoutSeconds) and an abort bypass every Catch: the EventBridge rule on
 * the machine's "Execution Status Change" (lib/payment-export.ts; lib/local/step-functions.ts here) sends
 * them to the task function (step ExecutionEnded), which fails the flow as MarkFailed would.
 */
export const FLOW_STEPS = ['Prepare', 'MarkIsees', 'Send', 'CheckImport', 'Collect', 'MarkFailed'] as const;

/** The time the work around the wait may take (Prepare, the upload, Collect of a large month, retries). */
const WORK_SECONDS = 2 * 60 * 60;
/** The execution's timeout: the longest wait for MyPay plus the work around it. */
export const executionTimeoutSeconds = (importMaxWaitMinutes: number) => importMaxWaitMinutes * 60 + WORK_SECONDS;
export type FlowTaskStep = (typeof FLOW_STEPS)[number];

/**
 * How long one step may run: the task function's own timeout (lib/payment-export.ts). Without it a Task
 * state times out after the States Language's default of 60 s (aws-local-stepfunctions applies it), which
 * cut the Prepare of a 10,000-position month short on the local stack (States.Timeout).
 */
export const TASK_TIMEOUT_SECONDS = 300;

const platformUnavailable = {
  ErrorEquals: ['MyPayUnavailable', 'GpdUnavailable'],
  IntervalSeconds: 5,
  MaxAttempts: 6,
  BackoffRate: 2,
  MaxDelaySeconds: 120,
};
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
const catchAll = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' }];

const task = (taskFunction: string, step: FlowTaskStep, extra: Record<string, unknown> = {}) => ({
  Type: 'Task',
  Resource: 'arn:aws:states:::lambda:invoke',
  Parameters: { FunctionName: taskFunction, Payload: { step, 'flowId.$': '$.flowId', ...extra } },
  ResultSelector: { 'value.$': '$.Payload' },
  TimeoutSeconds: TASK_TIMEOUT_SECONDS,
  Retry: [platformUnavailable, lambdaTransient],
});

export function exportDefinition(taskFunction: string, importMaxWaitMinutes: number = DEFAULT_IMPORT_MAX_WAIT_MINUTES) {
  return {
    Comment: 'Invio delle posizioni debitorie di un mese a MyPay e aggiornamento degli IUV',
    StartAt: 'Prepare',
    TimeoutSeconds: executionTimeoutSeconds(importMaxWaitMinutes),
    States: {
      Prepare: {
        ...task(taskFunction, 'Prepare'),
        ResultPath: '$.prepared',
        Catch: catchAll,
        Next: 'IsPrepared',
      },
      // The month generated a budget a call (EXPORT_SLICE_BUDGET, functions/payments): again until done.
      IsPrepared: {
        Type: 'Choice',
        Choices: [{ Variable: '$.prepared.value.done', BooleanEquals: false, Next: 'Prepare' }],
        Default: 'HasRows',
      },
      HasRows: {
        Type: 'Choice',
        Choices: [{ Variable: '$.prepared.value.rows', NumericGreaterThan: 0, Next: 'MarkIsees' }],
        Default: 'NothingToSend',
      },
      NothingToSend: { Type: 'Succeed', Comment: 'No position to send for that month: the flow says so.' },
      // The ISEEs of the month's fees marked as used, a slice a call (ISEE_SLICE): again until done.
      MarkIsees: {
        ...task(taskFunction, 'MarkIsees'),
        ResultPath: '$.marked',
        Catch: catchAll,
        Next: 'AreIseesMarked',
      },
      AreIseesMarked: {
        Type: 'Choice',
        Choices: [{ Variable: '$.marked.value.done', BooleanEquals: false, Next: 'MarkIsees' }],
        Default: 'Send',
      },
      Send: {
        ...task(taskFunction, 'Send'),
        ResultPath: '$.sent',
        Catch: catchAll,
        Next: 'IsSent',
      },
      // GPD takes the positions in slices (SEND_SLICE) and answers at once: Send again until done, and then the
      // flow is complete (no import to wait for, no files to collect). MyPay's upload is one call, then the wait;
      // after a PAA_IMPORT_ERROR, 'Rielabora' first settles the rows MyPay holds, in slices too (export-steps.ts).
      IsSent: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.sent.value.done', BooleanEquals: false, Next: 'Send' },
          { Variable: '$.sent.value.completed', BooleanEquals: true, Next: 'Collected' },
        ],
        Default: 'InitPolls',
      },
      InitPolls: {
        Type: 'Pass',
        Result: { value: { waitSeconds: IMPORT_POLL_SECONDS } },
        ResultPath: '$.import',
        Next: 'WaitForImport',
      },
      WaitForImport: { Type: 'Wait', SecondsPath: '$.import.value.waitSeconds', Next: 'CheckImport' },
      CheckImport: {
        ...task(taskFunction, 'CheckImport'),
        ResultPath: '$.import',
        Catch: catchAll,
        Next: 'IsImportDone',
      },
      IsImportDone: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.import.value.stato', StringEquals: 'IMPORT_ESEGUITO', Next: 'Collect' },
          { Variable: '$.import.value.waitMore', BooleanEquals: true, Next: 'WaitForImport' },
        ],
        Default: 'ImportNotDone',
      },
      ImportNotDone: {
        Type: 'Pass',
        Parameters: { Error: 'ImportNotDone', 'Cause.$': '$.import.value.stato' },
        ResultPath: '$.error',
        Next: 'MarkFailed',
      },
      Collect: {
        ...task(taskFunction, 'Collect'),
        ResultPath: '$.collected',
        Catch: catchAll,
        Next: 'IsCollected',
      },
      // Collect writes the results back a slice at a time (COLLECT_SLICE rows a call): again until done.
      IsCollected: {
        Type: 'Choice',
        Choices: [{ Variable: '$.collected.value.done', BooleanEquals: false, Next: 'Collect' }],
        Default: 'Collected',
      },
      Collected: { Type: 'Succeed' },
      MarkFailed: {
        ...task(taskFunction, 'MarkFailed', { 'error.$': '$.error' }),
        ResultPath: '$.marked',
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'Failed' }],
        Next: 'IsSuspended',
      },
      // MyPay still holds the import after the wait (an entity with GPD holds it up to 48 hours): the flow is
      // suspended ('SOSPESO', waiting for 'Rielabora'), which is not a failure of the execution.
      IsSuspended: {
        Type: 'Choice',
        Choices: [{ Variable: '$.marked.value.suspended', BooleanEquals: true, Next: 'Suspended' }],
        Default: 'Failed',
      },
      Suspended: {
        Type: 'Succeed',
        Comment: 'Il flusso è sospeso in attesa dell’esito di MyPay: si riprende con Rielabora.',
      },
      Failed: {
        Type: 'Fail',
        Error: 'FlowFailed',
        Cause: 'L’invio a MyPay non è riuscito: il flusso è segnato in errore e si può rielaborare.',
      },
    },
  };
}
