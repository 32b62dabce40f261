/**
 * The ISEE reading, as an Amazon States Language definition: one definition for the cloud (CDK puts the
 * functions' ARNs in it) and for the local stack (aws-local-stepfunctions runs it with local handlers).
 *
 * Input: the EventBridge "Object Created" event of `isee/<id>/document` in the documents bucket.
 * HeadDocument (its type) → ReadAttestation (a PDF's own text layer, and Textract's synchronous
 * DetectDocumentText for images and scanned pages, the bytes in the request: no job, no copy of the
 * document in another region; then the parser) → SaveExtraction writes the result on the ISEE. Textract's
 * blocks stay inside ReadAttestation (a state's payload is capped at 256 KB). Any failure → MarkFailed
 * (extractionStatus FAILED with the reason). No ISEE item: retried for ~30 s (the API records the ISEE just
 * after storing its file), then nothing is written (the ISEE was deleted).
 */
export interface ExtractionFunctions {
  /** Text (Textract) → parser → the extraction. */
  read: string;
  /** The extraction, or the failure, onto the ISEE item. */
  write: string;
}

const catchAll = (next = 'MarkFailed') => [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: next }];
/**
 * Textract's answers that mean "later" (its per-second quota, a fault on its side), as the ReadAttestation
 * function throws them (the SDK's error names), once the SDK's own retries are spent.
 */
const textractBusy = {
  ErrorEquals: [
    'ThrottlingException',
    'ProvisionedThroughputExceededException',
    'LimitExceededException',
    'InternalServerError',
  ],
  IntervalSeconds: 10,
  MaxAttempts: 4,
  BackoffRate: 2,
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
          { Variable: '$.document.contentType', StringEquals: 'application/pdf', Next: 'ReadAttestation' },
          { Variable: '$.document.contentType', StringMatches: 'image/*', Next: 'ReadAttestation' },
        ],
        Default: 'Unsupported',
      },
      Unsupported: failWith('UnsupportedDocument', { 'Cause.$': '$.document.contentType' }),
      ReadAttestation: {
        ...invoke(functions.read, {
          'iseeId.$': '$.iseeId',
          'bucket.$': '$.bucket',
          'key.$': '$.key',
          'contentType.$': '$.document.contentType',
        }),
        ResultSelector: { 'extraction.$': '$.Payload' },
        ResultPath: '$.read',
        Retry: [lambdaTransient, textractBusy],
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
      IseeDeleted: {
        Type: 'Succeed',
        Comment: 'The ISEE was deleted while its document was being read: nothing to write.',
      },
      MarkFailed: {
        ...invoke(functions.write, { 'iseeId.$': '$.iseeId', status: 'FAILED', 'error.$': '$.error' }),
        ResultPath: null,
        Retry: [iseeNotCreatedYet, lambdaTransient],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'Failed' }],
        Next: 'Failed',
      },
      Failed: {
        Type: 'Fail',
        Error: 'IseeExtractionFailed',
        Cause: 'La lettura dell’attestazione non è riuscita: extractionStatus FAILED',
      },
    },
  };
}
