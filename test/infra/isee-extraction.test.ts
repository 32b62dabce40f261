import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalFunction } from '../../lib/portal-function.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';

let portal: ScratchApp;
let extraction: Template;

beforeAll(() => {
  portal = sharedPortal({ bundle: false });
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
    const [documentsId] = Object.entries(data.findResources('AWS::S3::Bucket')).find(
      ([, b]) => b.Properties.LoggingConfiguration?.LogFilePrefix === 'documents/',
    )!;
    expect(data.findResources('AWS::S3::Bucket')[documentsId].Properties.NotificationConfiguration).toEqual({
      EventBridgeConfiguration: { EventBridgeEnabled: true },
    });
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

  it('reads PDFs and images in one step, with no asynchronous Textract job (it reads only from a bucket in its own region)', () => {
    const { States, StartAt } = definition();
    expect(StartAt).toBe('Describe');
    expect(States.ByType.Choices).toEqual([
      expect.objectContaining({ StringEquals: 'application/pdf', Next: 'ReadAttestation' }),
      expect.objectContaining({ StringMatches: 'image/*', Next: 'ReadAttestation' }),
    ]);
    expect(States.ReadAttestation.Next).toBe('SaveExtraction');
    // No state calls Textract (or anything) itself: only the functions, and S3 in the stack's region.
    const resources = Object.values<any>(States).flatMap((state) => (state.Resource ? [state.Resource] : []));
    expect([...new Set(resources)].sort()).toEqual([
      'arn:aws:states:::aws-sdk:s3:headObject',
      'arn:aws:states:::lambda:invoke',
    ]);
    expect(JSON.stringify(States)).not.toMatch(/textract/i);
    // Textract's quota answers, as the function throws them, are waited out.
    expect(States.ReadAttestation.Retry.flatMap((r: any) => r.ErrorEquals)).toContain('ThrottlingException');
  });

  it('calls Textract in the region the deployment sets (Milan has none), never the stack’s own', () => {
    const read = portal.iseeExtraction.readFunction;
    const variables = portal.extraction.resolve((read.node.defaultChild as CfnFunction).environment).variables;
    expect(portal.extraction.region).toBe('eu-south-1');
    expect(variables.TEXTRACT_REGION).toBe('eu-central-1');

    const elsewhere = scratchApp({ bundle: false, context: { textractRegion: 'eu-west-3' } });
    try {
      expect(
        elsewhere.extraction.resolve(
          (elsewhere.iseeExtraction.readFunction.node.defaultChild as CfnFunction).environment,
        ).variables.TEXTRACT_REGION,
      ).toBe('eu-west-3');
    } finally {
      elsewhere.dispose();
    }
  });

  it('refuses at synth a textractRegion without Textract (botocore endpoints.json)', () => {
    for (const region of ['eu-south-1', 'eu-north-1', 'moon-1']) {
      expect(() => scratchApp({ bundle: false, context: { textractRegion: region } }), region).toThrow(
        `textractRegion ${region} has no Amazon Textract endpoint`,
      );
    }
  });

  it('marks the ISEE FAILED whenever a step fails', () => {
    const { States } = definition();
    for (const [name, state] of Object.entries<any>(States)) {
      if (state.Type !== 'Task' || name === 'MarkFailed') continue;
      expect(state.Catch?.at(-1), name).toEqual({
        ErrorEquals: ['States.ALL'],
        ResultPath: '$.error',
        Next: 'MarkFailed',
      });
    }
    expect(States.MarkFailed.Parameters.Payload.status).toBe('FAILED');
  });

  it('lets the reading function read documents and detect text synchronously, and write nothing', () => {
    const read = portal.iseeExtraction.readFunction;
    expect(
      actionsOf(read)
        .filter((a) => !/^(logs|xray):/.test(a))
        .sort(),
    ).toEqual(['s3:GetObject', 'textract:DetectDocumentText']);
    const s3 = statementsOf(read).find((s) => s.Action === 's3:GetObject')!;
    expect(JSON.stringify(s3.Resource)).toContain('/isee/*');
    expect((read.node.defaultChild as CfnFunction).timeout).toBe(120);
    expect((read.node.defaultChild as CfnFunction).memorySize).toBe(1024);
  });

  it('leaves the state machine no Textract permission: only reading the documents’ type, invoking its two functions, logging and tracing', () => {
    const policies = Object.values(extraction.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.Roles).includes('StateMachineRole'),
    );
    const actions = policies
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .flatMap((s: Statement) => [s.Action].flat());
    expect([...new Set(actions)].filter((a) => !/^(xray|logs):/.test(a)).sort()).toEqual([
      'lambda:InvokeFunction',
      's3:GetObject',
    ]);
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
