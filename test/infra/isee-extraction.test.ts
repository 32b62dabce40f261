import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalFunction } from '../../lib/portal-function.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';

let portal: ScratchApp;
let extraction: Template;

beforeAll(() => {
  portal = scratchApp({ bundle: false });
  extraction = Template.fromStack(portal.extraction);
});
afterAll(() => portal.dispose());

type Statement = { Action: string | string[]; Resource: unknown };
const resolve = (value: unknown) => JSON.stringify(portal.extraction.resolve(value));

function statementsOf(fn: PortalFunction): Statement[] {
  const roleId = portal.extraction.resolve((fn.node.defaultChild as CfnFunction).role)['Fn::GetAtt'][0];
  return Object.values(extraction.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const actionsOf = (fn: PortalFunction) => statementsOf(fn).flatMap((s) => [s.Action].flat());

/** The state machine's ASL, with the functions' ARNs (CloudFormation references) left as placeholders. */
function definition() {
  const [machine] = Object.values(extraction.findResources('AWS::StepFunctions::StateMachine'));
  const parts = machine.Properties.DefinitionString['Fn::Join'][1] as unknown[];
  return JSON.parse(parts.map((p) => (typeof p === 'string' ? p : 'arn:ref')).join(''));
}

describe('ISEE reading in the cloud', () => {
  it('starts when a file is stored under isee/ in the documents bucket, through EventBridge', () => {
    const data = Template.fromStack(portal.data);
    const [documentsId] = Object.entries(data.findResources('AWS::S3::Bucket')).find(([, b]) => b.Properties.LoggingConfiguration?.LogFilePrefix === 'documents/')!;
    expect(data.findResources('AWS::S3::Bucket')[documentsId].Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    // The flag is set on the bucket itself: no notifications custom resource and its Lambda.
    expect(data.findResources('Custom::S3BucketNotifications')).toEqual({});

    const [rule] = Object.values(extraction.findResources('AWS::Events::Rule'));
    const pattern = rule.Properties.EventPattern;
    expect(pattern.source).toEqual(['aws.s3']);
    expect(pattern['detail-type']).toEqual(['Object Created']);
    expect(pattern.detail.object.key).toEqual([{ prefix: 'isee/' }]);
    expect(JSON.stringify(pattern.detail.bucket.name)).toContain(documentsId);
    expect(resolve(rule.Properties.Targets[0].Arn)).toBe(resolve(portal.iseeExtraction.stateMachine.stateMachineArn));
  });

  it('runs Textract asynchronously for PDFs, polling until the job ends, and synchronously for images', () => {
    const { States, StartAt } = definition();
    expect(StartAt).toBe('Describe');
    expect(States.StartTextDetection.Resource).toBe('arn:aws:states:::aws-sdk:textract:startDocumentTextDetection');
    expect(States.StartTextDetection.Next).toBe('WaitForText');
    expect(States.WaitForText).toMatchObject({ Type: 'Wait', Next: 'CheckTextDetection' });
    expect(States.CheckTextDetection.Resource).toBe('arn:aws:states:::aws-sdk:textract:getDocumentTextDetection');
    const ready = States[States[States.CheckTextDetection.Next].Next];
    expect(ready.Type).toBe('Choice');
    expect(JSON.stringify(ready.Choices)).toContain('"Next":"WaitForText"');
    expect(ready.Choices[0]).toMatchObject({ StringEquals: 'SUCCEEDED', Next: 'ReadAttestation' });
    expect(States.ByType.Choices).toEqual([
      expect.objectContaining({ StringEquals: 'application/pdf', Next: 'StartTextDetection' }),
      expect.objectContaining({ StringMatches: 'image/*', Next: 'ReadAttestation' }),
    ]);
    expect(States.ReadAttestation.Next).toBe('SaveExtraction');
  });

  it('marks the ISEE FAILED whenever a step fails', () => {
    const { States } = definition();
    for (const [name, state] of Object.entries<any>(States)) {
      if (state.Type !== 'Task' || name === 'MarkFailed') continue;
      expect(state.Catch?.at(-1), name).toEqual({ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' });
    }
    expect(States.MarkFailed.Parameters.Payload.status).toBe('FAILED');
    expect(States.TextDetectionFailed.Next).toBe('MarkFailed');
  });

  it('lets the reading function read documents and call Textract, and write nothing', () => {
    const read = portal.iseeExtraction.readFunction;
    expect(actionsOf(read).filter((a) => !/^(logs|xray):/.test(a)).sort()).toEqual(['s3:GetObject', 'textract:DetectDocumentText', 'textract:GetDocumentTextDetection']);
    const s3 = statementsOf(read).find((s) => s.Action === 's3:GetObject')!;
    expect(JSON.stringify(s3.Resource)).toContain('/isee/*');
    expect((read.node.defaultChild as CfnFunction).timeout).toBe(60);
  });

  it('lets the writing function update items of the table and nothing else', () => {
    const write = portal.iseeExtraction.writeFunction;
    expect(actionsOf(write).filter((a) => !/^(logs|xray):/.test(a))).toEqual(['dynamodb:UpdateItem']);
    const update = statementsOf(write).find((s) => s.Action === 'dynamodb:UpdateItem')!;
    expect(resolve(update.Resource)).toBe(resolve(portal.data.table.tableArn));
  });

  it('logs states and errors without the execution data (fiscal codes, ISEE values), traced', () => {
    extraction.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: { IncludeExecutionData: false, Level: 'ALL' },
      TracingConfiguration: { Enabled: true },
    });
  });

  it('passes cdk-nag AwsSolutions with every acknowledgement on its own resource', () => {
    portal.app.synth();
    const violations = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(portal.extraction).violations;
    expect(violations.map((v) => v.ruleName)).toEqual([]);
    expect(Stack.of(portal.iseeExtraction)).toBe(portal.extraction);
  });
});
