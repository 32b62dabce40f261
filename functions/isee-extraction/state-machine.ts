/**
 * The ISEE reading, as an Amazon States Language definition: one definition for the cloud (CDK puts the
 * functions' ARNs in it) and for the local stack (aws-local-stepfunctions runs it with local handlers).
 *
 * Input: the EventBridge "Object Created" event of `isee/<id>/document` in the documents bucket.
 * PDF → StartDocumentTextDetection (asynchronous, multi-page) → wait and poll → ReadAttestation;
 * image → ReadAttestation (synchronous DetectDocumentText). ReadAttestation fetches the text (every
 * result page) and parses it, so Textract's blocks stay out of the state (its payload is capped at
 * 256 KB); SaveExtraction writes the result on the ISEE. Any failure → MarkFailed (extractionStatus
 * FAILED). No ISEE item: retried for ~30 s (the API records the ISEE just after storing its file), then
 * nothing is written (the ISEE was deleted).
 */
export interface ExtractionFunctions {
  /** Text (Textract) → parser → the extraction. */
  read: string;
  /** The extraction, or the failure, onto the ISEE item. */
  write: string;
}

/** Seconds between two polls of the Textract job, and how many polls before giving up (~10 minutes). */
export const POLL_SECONDS = 5;
export const MAX_POLLS = 120;

const catchAll = (next = 'MarkFailed') => [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: next }];
const throttling = {
  ErrorEquals: ['Textract.ThrottlingException', 'Textract.ProvisionedThroughputExceededException', 'Textract.LimitExceededException'],
  IntervalSeconds: 5,
  MaxAttempts: 5,
  BackoffRate: 2,
};
const lambdaTransient = {
  ErrorEquals: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException'],
  IntervalSeconds: 2,
  MaxAttempts: 3,
  BackoffRate: 2,
};
const iseeNotCreatedYet = { ErrorEquals: ['IseeNotFound'], IntervalSeconds: 2, MaxAttempts: 4, BackoffRate: 2 };
const invoke = (functionName: string, payload: Record<string, unknown>) => ({
  Type: 'Task',
  Resource: 'arn:aws:states:::lambda:invoke',
  Parameters: { FunctionName: functionName, Payload: payload },
});
const failWith = (error: string, cause: Record<string, string>) => ({
  Type: 'Pass',
  Parameters: { Error: error, ...cause },
  ResultPath: '$.error',
  Next: 'MarkFailed',
});

export function extractionDefinition(functions: ExtractionFunctions) {
  return {
    Comment: 'Lettura automatica dell’attestazione ISEE caricata',
    StartAt: 'Describe',
    TimeoutSeconds: 1800,
    States: {
      Describe: {
        Type: 'Pass',
        Parameters: {
          'bucket.$': '$.detail.bucket.name',
          'key.$': '$.detail.object.key',
          'iseeId.$': "States.ArrayGetItem(States.StringSplit($.detail.object.key, '/'), 1)",
          job: null,
          pollCount: { value: 0 },
        },
        Next: 'HeadDocument',
      },
      HeadDocument: {
        Type: 'Task',
        Resource: 'arn:aws:states:::aws-sdk:s3:headObject',
        Parameters: { 'Bucket.$': '$.bucket', 'Key.$': '$.key' },
        ResultSelector: { 'contentType.$': '$.ContentType' },
        ResultPath: '$.document',
        Catch: catchAll(),
        Next: 'ByType',
      },
      ByType: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.document.contentType', StringEquals: 'application/pdf', Next: 'StartTextDetection' },
          { Variable: '$.document.contentType', StringMatches: 'image/*', Next: 'ReadAttestation' },
        ],
        Default: 'Unsupported',
      },
      Unsupported: failWith('UnsupportedDocument', { 'Cause.$': '$.document.contentType' }),
      StartTextDetection: {
        Type: 'Task',
        Resource: 'arn:aws:states:::aws-sdk:textract:startDocumentTextDetection',
        Parameters: { DocumentLocation: { S3Object: { 'Bucket.$': '$.bucket', 'Name.$': '$.key' } } },
        ResultSelector: { 'jobId.$': '$.JobId' },
        ResultPath: '$.job',
        Retry: [throttling],
        Catch: catchAll(),
        Next: 'WaitForText',
      },
      WaitForText: { Type: 'Wait', Seconds: POLL_SECONDS, Next: 'CheckTextDetection' },
      CheckTextDetection: {
        Type: 'Task',
        Resource: 'arn:aws:states:::aws-sdk:textract:getDocumentTextDetection',
        // One block is enough to learn the status; ReadAttestation reads every page of the result.
        Parameters: { 'JobId.$': '$.job.jobId', MaxResults: 1 },
        ResultSelector: { 'status.$': '$.JobStatus' },
        ResultPath: '$.detection',
        Retry: [throttling],
        Catch: catchAll(),
        Next: 'CountPoll',
      },
      CountPoll: {
        Type: 'Pass',
        Parameters: { 'value.$': 'States.MathAdd($.pollCount.value, 1)' },
        ResultPath: '$.pollCount',
        Next: 'IsTextReady',
      },
      IsTextReady: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.detection.status', StringEquals: 'SUCCEEDED', Next: 'ReadAttestation' },
          {
            And: [
              { Variable: '$.detection.status', StringEquals: 'IN_PROGRESS' },
              { Variable: '$.pollCount.value', NumericLessThan: MAX_POLLS },
            ],
            Next: 'WaitForText',
          },
        ],
        Default: 'TextDetectionFailed',
      },
      TextDetectionFailed: failWith('TextDetectionFailed', { 'Cause.$': '$.detection.status' }),
      ReadAttestation: {
        ...invoke(functions.read, { 'iseeId.$': '$.iseeId', 'bucket.$': '$.bucket', 'key.$': '$.key', 'contentType.$': '$.document.contentType', 'job.$': '$.job' }),
        ResultSelector: { 'extraction.$': '$.Payload' },
        ResultPath: '$.read',
        Retry: [lambdaTransient],
        Catch: catchAll(),
        Next: 'SaveExtraction',
      },
      SaveExtraction: {
        ...invoke(functions.write, { 'iseeId.$': '$.iseeId', status: 'DONE', 'extraction.$': '$.read.extraction' }),
        ResultPath: null,
        Retry: [iseeNotCreatedYet, lambdaTransient],
        Catch: [{ ErrorEquals: ['IseeNotFound'], ResultPath: null, Next: 'IseeDeleted' }, ...catchAll()],
        End: true,
      },
      IseeDeleted: { Type: 'Succeed', Comment: 'The ISEE was deleted while its document was being read: nothing to write.' },
      MarkFailed: {
        ...invoke(functions.write, { 'iseeId.$': '$.iseeId', status: 'FAILED', 'error.$': '$.error' }),
        ResultPath: null,
        Retry: [iseeNotCreatedYet, lambdaTransient],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'Failed' }],
        Next: 'Failed',
      },
      Failed: { Type: 'Fail', Error: 'IseeExtractionFailed', Cause: 'La lettura dell’attestazione non è riuscita: extractionStatus FAILED' },
    },
  };
}
