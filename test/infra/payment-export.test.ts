import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { TASK_TIMEOUT_SECONDS } from '../../functions/flows/state-machine.ts';
import { EXPORT_SLICE_BUDGET } from '../../functions/payments/use-cases.ts';

/**
 * The MyPay export's state machine as AWS runs it (AWS Step Functions developer guide, "Handling errors":
 * a state machine's own TimeoutSeconds, and StopExecution, end the execution TIMED_OUT / ABORTED without
 * any Catch; "Step Functions events" in EventBridge: detail-type "Step Functions Execution Status Change").
 */
let portal: ScratchApp;
let api: Template;
beforeAll(() => {
  portal = scratchApp({ bundle: false, context: { mypayImportMaxWaitMinutes: '600' } });
  api = Template.fromStack(portal.api);
});
afterAll(() => portal.dispose());

const machineId = () =>
  Object.keys(api.findResources('AWS::StepFunctions::StateMachine')).find((id) => id.includes('PaymentExport'))!;
const taskId = () =>
  Object.keys(api.findResources('AWS::Lambda::Function')).find((id) => id.includes('PaymentExportFlowTask'))!;

describe('the MyPay export state machine', () => {
  it('sends every execution that failed, timed out or was aborted to the task function (no Catch sees those)', () => {
    api.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [{ Ref: machineId() }], status: ['FAILED', 'TIMED_OUT', 'ABORTED'] },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [taskId(), 'Arn'] },
          RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 8 }),
        }),
      ],
    });
    api.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [taskId(), 'Arn'] },
    });
  });

  it('waits for MyPay as long as the deployment says, and the execution outlasts that wait', () => {
    const task = api.findResources('AWS::Lambda::Function')[taskId()];
    expect(task.Properties.Environment.Variables.MYPAY_IMPORT_MAX_WAIT_MINUTES).toBe('600');
    const definition = JSON.stringify(
      api.findResources('AWS::StepFunctions::StateMachine')[machineId()].Properties.DefinitionString,
    );
    const timeout = Number(/\\"TimeoutSeconds\\":(\d+),\\"States/.exec(definition)?.[1]);
    expect(timeout).toBeGreaterThan(600 * 60);
  });

  it('calls Prepare again until the month is whole, each call a budget well inside the task function’s timeout', () => {
    const definition = JSON.stringify(
      api.findResources('AWS::StepFunctions::StateMachine')[machineId()].Properties.DefinitionString,
    );
    /** A fragment of the definition as it stands inside the template's string. */
    const inTemplate = (fragment: object) => JSON.stringify(JSON.stringify(fragment).slice(1, -1)).slice(1, -1);
    expect(definition).toContain(inTemplate({ Next: 'IsPrepared' }));
    expect(definition).toContain(
      inTemplate({
        IsPrepared: {
          Type: 'Choice',
          Choices: [{ Variable: '$.prepared.value.done', BooleanEquals: false, Next: 'Prepare' }],
          Default: 'HasRows',
        },
      }),
    );
    const task = api.findResources('AWS::Lambda::Function')[taskId()];
    expect(task.Properties.Timeout).toBe(TASK_TIMEOUT_SECONDS);
    // The budget stops starting chunks at 120 s: the month's planning before and the file after fit in the rest.
    expect(EXPORT_SLICE_BUDGET.ms).toBeLessThanOrEqual((TASK_TIMEOUT_SECONDS * 1000) / 2);
  });

  it('refuses a wait that is not a whole number of minutes within Step Functions’ year', () => {
    for (const bad of ['0', '1.5', 'due ore', String(181 * 24 * 60)]) {
      expect(() => scratchApp({ bundle: false, context: { mypayImportMaxWaitMinutes: bad } }), bad).toThrow(
        /mypayImportMaxWaitMinutes/,
      );
    }
  });
});

describe('the flow e-mail (background jobs)', () => {
  it('may read the SES account’s sending rate (GetAccount), and send only as the API functions may', () => {
    const jobs = Object.entries(api.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.includes('BackgroundJobsNoticeJobs'),
    )!;
    const roleId = jobs[1].Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(api.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const ses = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
    const actionsOf = (s: { Action: string | string[] }) => [s.Action].flat().filter((a) => a.startsWith('ses:'));
    expect(ses.flatMap(actionsOf).sort()).toEqual(['ses:GetAccount', 'ses:SendEmail']);
    // Sending stays on the sender's identity; GetAccount (no resource-level permission) grants no sending.
    expect(ses.find((s) => actionsOf(s).includes('ses:SendEmail'))!.Resource).not.toBe('*');
    expect(ses.find((s) => actionsOf(s).includes('ses:GetAccount'))!.Resource).toBe('*');
  });
});
