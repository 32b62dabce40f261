import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { iseeDocumentKey } from '../functions/domain/isee-extraction.ts';
import { extractionDefinition } from '../functions/isee-extraction/state-machine.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { pdfjsLayer } from './pdfjs-layer.ts';
import { PortalFunction } from './portal-function.ts';

export interface IseeExtractionProps {
  table: ITable;
  /** Must send its events to EventBridge (the data stack enables it). */
  documents: IBucket;
  /** Where Textract reads photographed pages (context textractRegion: Milan has no Textract). */
  textractRegion: string;
}

/** `isee/`: where the ISEE API stores each ISEE's document (`isee/<id>/document`). */
export const ISEE_PREFIX = iseeDocumentKey('').split('/')[0] + '/';

/**
 * The automatic reading of ISEE attestations: an S3 "Object Created" event under `isee/` starts a state
 * machine (functions/isee-extraction/state-machine.ts) that runs two small functions: ReadAttestation (the
 * document from the bucket; a PDF's own text layer, and Textract's synchronous DetectDocumentText in
 * `textractRegion` for images and scanned pages, the bytes in the request; then the parser) and
 * WriteExtraction (the result, or FAILED, onto the ISEE item). Each holds only what its step needs; the
 * state machine itself calls no Textract and no other region.
 */
export class IseeExtraction extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly readFunction: PortalFunction;
  readonly writeFunction: PortalFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: IseeExtractionProps) {
    super(scope, id);
    const iseeDocuments = props.documents.arnForObjects(`${ISEE_PREFIX}*`);
    const textractReason =
      'textract:DetectDocumentText supports no resource-level permissions: AWS documents its resource as "*" (Service Authorization Reference, Amazon Textract).';

    this.readFunction = new PortalFunction(this, 'ReadAttestation', {
      entry: 'functions/entry/read-attestation.ts',
      serviceName: 'isee-extraction-read',
      description: `ISEE: reads the attestation (PDF text layer; Textract in ${props.textractRegion} for pictures) and parses it`,
      // Up to 8 scanned pages, one synchronous Textract call each, with the SDK's retries on its quota.
      timeout: Duration.minutes(2),
      // pdfjs and a 10 MB picture in memory; more memory is also more CPU for pdfjs.
      memorySize: 1024,
      environment: { TEXTRACT_REGION: props.textractRegion },
      ownLayer: { layer: pdfjsLayer(this), packages: ['pdfjs-dist'] },
    });
    // The text of pictures only: no asynchronous job (it would need a bucket in Textract's region).
    this.readFunction.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['textract:DetectDocumentText'], resources: ['*'] }),
    );
    // The document itself, read from the bucket in the stack's region and sent in the request.
    this.readFunction.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [iseeDocuments] }),
    );

    this.writeFunction = new PortalFunction(this, 'WriteExtraction', {
      entry: 'functions/entry/write-extraction.ts',
      serviceName: 'isee-extraction-write',
      description: 'ISEE: writes the reading (or its failure) onto the ISEE item',
    });
    // One conditional UpdateItem on the ISEE item: no read, no other write.
    this.writeFunction.addEnvironment('TABLE_NAME', props.table.tableName);
    this.writeFunction.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [props.table.tableArn] }),
    );

    const logGroup = new logs.LogGroup(this, 'StateMachineLogs', { retention: logs.RetentionDays.SIX_MONTHS });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      definitionBody: sfn.DefinitionBody.fromString(
        Stack.of(this).toJsonString(
          extractionDefinition({ read: this.readFunction.functionArn, write: this.writeFunction.functionArn }),
        ),
      ),
      tracingEnabled: true,
      // Execution data would put fiscal codes and ISEE values in the logs: states and errors only.
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    this.readFunction.grantInvoke(this.stateMachine);
    this.writeFunction.grantInvoke(this.stateMachine);
    // HeadObject (the document's type) needs s3:GetObject.
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [iseeDocuments] }),
    );

    this.rule = new events.Rule(this, 'DocumentStored', {
      description: 'An ISEE document stored in the documents bucket starts its reading',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: { bucket: { name: [props.documents.bucketName] }, object: { key: [{ prefix: ISEE_PREFIX }] } },
      },
      targets: [new targets.SfnStateMachine(this.stateMachine, { retryAttempts: 3, maxEventAge: Duration.hours(2) })],
    });

    acknowledge(this.readFunction.role!, { 'AwsSolutions-IAM5[Resource::*]': textractReason });
    acknowledgeWildcardResource(
      this.readFunction.role!,
      iseeDocuments,
      'ReadAttestation reads the ISEE documents only (isee/<id>/document): the ISEE id is known at run time, so the grant covers that prefix.',
    );
    acknowledge(this.stateMachine.role, {
      'AwsSolutions-IAM5[Resource::*]':
        'X-Ray tracing of the state machine (tracingEnabled): the xray actions CDK grants support no resource-level permission, so their resource is "*".',
    });
    acknowledgeWildcardResource(
      this.stateMachine.role,
      iseeDocuments,
      'The state machine reads the type of the ISEE document: objects under isee/ only, ids known at run time.',
    );
    for (const fn of [this.readFunction, this.writeFunction]) {
      acknowledgeWildcardResource(
        this.stateMachine.role,
        `${fn.functionArn}:*`,
        'grantInvoke allows the function and its versions/aliases (ARN:*); the state machine invokes this one function and nothing else.',
      );
    }
  }
}
