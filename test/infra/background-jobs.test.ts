import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../functions/routes.ts';
import type { PortalFunction } from '../../lib/portal-function.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';

let portal: ScratchApp;
let api: Template;

beforeAll(() => {
  portal = sharedPortal({ bundle: false });
  api = Template.fromStack(portal.api);
});
afterAll(() => portal.dispose());

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  portal.api.resolve((construct.node.defaultChild as CfnFunction).logicalId) as string;
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
const actions = (s: Statement) => [s.Action].flat();

/** The statements of the policies attached to a role (by its logical id). */
function statementsOfRole(roleId: string): Statement[] {
  return Object.values(api.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const roleOfFunction = (fn: PortalFunction) =>
  api.findResources('AWS::Lambda::Function')[logicalId(fn)].Properties.Role['Fn::GetAtt'][0] as string;

describe('background jobs (lib/background-jobs.ts)', () => {
  const machineId = () => logicalId(portal.api.backgroundJobs.stateMachine);

  const jobFunctions = () => Object.entries(portal.api.backgroundJobs.jobFunctions);

  it('is a state machine that sends each kind to its job function, loops over its slices until finished, and marks a failure', () => {
    const machine = api.findResources('AWS::StepFunctions::StateMachine')[machineId()].Properties;
    const parts = machine.DefinitionString['Fn::Join'][1] as unknown[];
    const definition = JSON.parse(
      parts
        .map((part) => (typeof part === 'string' ? part : `<${(part as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]}>`))
        .join(''),
    );
    const names = jobFunctions().map(([name]) => name);
    expect(names.sort()).toEqual(['EnrolmentJobs', 'IseeJobs', 'NoticeJobs', 'PaymentJobs']);
    expect(Object.keys(definition.States).sort()).toEqual(
      [
        'Done',
        'Failed',
        'IsFinished',
        'NextSlice',
        'Route',
        ...names.flatMap((name) => [`Slice${name}`, `MarkFailed${name}`]),
      ].sort(),
    );
    expect(definition.StartAt).toBe('Route');
    expect(definition.States.NextSlice.Next).toBe('Route');
    // Every kind a starter uses goes to one function, the one whose bundle carries it.
    const routes = Object.fromEntries(
      definition.States.Route.Choices.map((c: { StringEquals: string; Next: string }) => [c.StringEquals, c.Next]),
    );
    expect(routes).toEqual({
      'sync-positions': 'SlicePaymentJobs',
      'generate-positions': 'SlicePaymentJobs',
      'positions-csv': 'SlicePaymentJobs',
      reporting: 'SlicePaymentJobs',
      'reset-hours': 'SliceEnrolmentJobs',
      'enrolment-import': 'SliceEnrolmentJobs',
      'flow-email': 'SliceNoticeJobs',
      'isee-refresh-call': 'SliceIseeJobs',
      'isee-new-year': 'SliceIseeJobs',
      'isee-expiry': 'SliceIseeJobs',
    });
    for (const [name, fn] of jobFunctions()) {
      const slice = definition.States[`Slice${name}`];
      const markFailed = definition.States[`MarkFailed${name}`];
      expect(slice.Parameters.FunctionName).toBe(`<${logicalId(fn)}>`);
      expect(markFailed.Parameters.FunctionName).toBe(`<${logicalId(fn)}>`);
      // The same retries, timeout and failure path for every function.
      expect(slice.Retry).toEqual(definition.States.SlicePaymentJobs.Retry);
      expect(slice.TimeoutSeconds).toBe(300);
      expect(slice.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: `MarkFailed${name}` }]);
      expect(slice.Next).toBe('IsFinished');
      expect(markFailed.Retry).toEqual(slice.Retry);
      expect(markFailed.Next).toBe('Failed');
    }
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
    expect(machine.LoggingConfiguration.IncludeExecutionData).toBe(false);
  });

  it('lets the state machine invoke the job functions and nothing else', () => {
    const roleId = api.findResources('AWS::StepFunctions::StateMachine')[machineId()].Properties.RoleArn[
      'Fn::GetAtt'
    ][0];
    const invoke = statementsOfRole(roleId).filter((s) => actions(s).some((a) => a.startsWith('lambda:')));
    expect([...new Set(invoke.flatMap(actions))]).toEqual(['lambda:InvokeFunction']);
    const resources = JSON.stringify(invoke.map((s) => s.Resource));
    for (const [, fn] of jobFunctions()) expect(resources).toContain(logicalId(fn));
    expect(resources).not.toContain(logicalId(portal.api.paymentExport.taskFunction));
  });

  /** The AWS services a function's role may call, and its statements. */
  const grantsOf = (fn: PortalFunction) => {
    const statements = statementsOfRole(roleOfFunction(fn));
    return { statements, services: [...new Set(statements.flatMap(actions).map((a) => a.split(':')[0]))].sort() };
  };
  const s3On = (statements: Statement[], bucket: { node: { defaultChild?: unknown } }) =>
    statements
      .filter(
        (s) => actions(s).some((a) => a.startsWith('s3:')) && JSON.stringify(s.Resource).includes(logicalId(bucket)),
      )
      .flatMap(actions)
      .sort();
  const envOf = (fn: PortalFunction) =>
    api.findResources('AWS::Lambda::Function')[logicalId(fn)].Properties.Environment.Variables;

  it('gives each job function the table and only what its own kinds need', () => {
    const { PaymentJobs, EnrolmentJobs, NoticeJobs, IseeJobs } = portal.api.backgroundJobs.jobFunctions;
    for (const [, fn] of jobFunctions()) {
      const { statements } = grantsOf(fn);
      expect(statements.flatMap(actions).some((a) => a.startsWith('dynamodb:'))).toBe(true);
      expect(statements.flatMap(actions).some((a) => a.startsWith('states:'))).toBe(false);
      expect(api.findResources('AWS::Lambda::Function')[logicalId(fn)].Properties.Timeout).toBe(300);
    }
    // Payments: 'Verifica / genera CSV' leaves its file in the exports bucket; 'Rendicontazione' asks MyPay
    // (its endpoint, entity and password: the secret's fields, read at run time).
    const payments = grantsOf(PaymentJobs);
    expect(payments.services).toEqual(
      ['dynamodb', 'logs', 's3', 'secretsmanager', 'xray'].filter((s) => payments.services.includes(s)),
    );
    expect(s3On(payments.statements, portal.data.exports)).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(s3On(payments.statements, portal.data.documents)).toEqual([]);
    expect(envOf(PaymentJobs).MYPAY_SECRET_NAME).toBe('portale-servizi-sociali/mypay');
    expect(envOf(PaymentJobs)).not.toHaveProperty('MYPAY_PASSWORD');
    // Enrolments: an import removing a subscription deletes its files (documents bucket); no MyPay, no mail.
    const enrolments = grantsOf(EnrolmentJobs);
    expect(enrolments.services).toEqual(
      ['dynamodb', 'logs', 's3', 'secretsmanager', 'xray'].filter((s) => enrolments.services.includes(s)),
    );
    expect(s3On(enrolments.statements, portal.data.documents)).toEqual([
      's3:DeleteObject',
      's3:GetObject',
      's3:PutObject',
    ]);
    expect(s3On(enrolments.statements, portal.data.exports)).toEqual([]);
    expect(envOf(EnrolmentJobs).MYPAY_SECRET_NAME).toBeUndefined();
    // The flow e-mail reads MyPay's PDFs (exports, read only), sends, and reads the account's sending rate.
    const notices = grantsOf(NoticeJobs);
    expect(notices.services).toEqual(
      ['dynamodb', 'logs', 's3', 'secretsmanager', 'ses', 'xray'].filter((s) => notices.services.includes(s)),
    );
    expect(s3On(notices.statements, portal.data.exports)).toEqual(['s3:GetObject']);
    expect(
      notices.statements
        .flatMap(actions)
        .filter((a) => a.startsWith('ses:'))
        .sort(),
    ).toEqual(['ses:GetAccount', 'ses:SendEmail']);
    // The ISEE jobs ask INPS through PDND (kms:Sign on the PDND client's key) and send the reminders.
    const isee = grantsOf(IseeJobs);
    expect(isee.services).toEqual(
      ['dynamodb', 'kms', 'logs', 's3', 'secretsmanager', 'ses', 'xray'].filter((s) => isee.services.includes(s)),
    );
    expect(isee.statements.filter((s) => actions(s).some((a) => a.startsWith('kms:'))).flatMap(actions)).toEqual([
      'kms:Sign',
    ]);
    expect(isee.statements.flatMap(actions).filter((a) => a.startsWith('ses:'))).toEqual(['ses:SendEmail']);
    expect(envOf(IseeJobs).PORTAL_URL).toBeDefined();
    // Only the ISEE jobs sign for PDND.
    for (const fn of [PaymentJobs, EnrolmentJobs, NoticeJobs]) expect(grantsOf(fn).services).not.toContain('kms');
  });

  it('lets only the functions with background work start it (StartExecution on this machine), and tells them the ARN', () => {
    const starters = resources.filter((resource) =>
      statementsOfRole(roleOfFunction(portal.api.functions[resource])).some(
        (s) => actions(s).includes('states:StartExecution') && JSON.stringify(s.Resource).includes(machineId()),
      ),
    );
    expect(starters.sort()).toEqual(['enrolment-csv', 'enrolments', 'isee', 'notices', 'payments', 'reporting']);
    for (const starter of starters) {
      const statements = statementsOfRole(roleOfFunction(portal.api.functions[starter]));
      expect(statements.filter((s) => actions(s).some((a) => a.startsWith('states:'))).flatMap(actions)).toEqual([
        'states:StartExecution',
      ]);
      const env =
        api.findResources('AWS::Lambda::Function')[logicalId(portal.api.functions[starter])].Properties.Environment
          .Variables;
      expect(env.JOBS_STATE_MACHINE_ARN).toEqual({ Ref: machineId() });
    }
  });

  it('runs the ISEE schedules in Europe/Rome (daily from the configured December day, and 2–7 January) and the reporting ones (every morning, and every five minutes the follow-ups of checkouts), through one small function', () => {
    const schedules = Object.values(api.findResources('AWS::Scheduler::Schedule')).map((r) => r.Properties);
    const scheduled = logicalId(portal.api.backgroundJobs.scheduledJobs);
    expect(
      schedules
        .map((s) => [s.ScheduleExpression, s.ScheduleExpressionTimezone, JSON.parse(s.Target.Input).kind])
        .sort(),
    ).toEqual(
      [
        ['cron(0 8 1-31 12 ? *)', 'Europe/Rome', 'isee-expiry'],
        ['cron(0 7 2-7 1 ? *)', 'Europe/Rome', 'isee-new-year'],
        ['cron(0 6 * * ? *)', 'Europe/Rome', 'reporting-daily'],
        ['rate(5 minutes)', 'Europe/Rome', 'reporting-follow-ups'],
      ].sort(),
    );
    for (const schedule of schedules) expect(JSON.stringify(schedule.Target.Arn)).toContain(scheduled);
    // The function the schedules invoke starts jobs on the table's lock and nothing else: no INPS, no KMS, no MyPay.
    const statements = statementsOfRole(roleOfFunction(portal.api.backgroundJobs.scheduledJobs));
    const services = new Set(statements.flatMap(actions).map((a) => a.split(':')[0]));
    expect([...services].sort()).toEqual(
      ['dynamodb', 'logs', 'secretsmanager', 'states', 'xray'].filter((s) => services.has(s)).sort(),
    );
    // Secrets Manager: the list cursors' key only.
    expect(statements.filter((s) => actions(s).some((a) => a.startsWith('secretsmanager:'))).flatMap(actions)).toEqual([
      'secretsmanager:GetSecretValue',
    ]);
    expect(statements.filter((s) => actions(s).some((a) => a.startsWith('states:'))).flatMap(actions)).toEqual([
      'states:StartExecution',
    ]);
  });

  it('sends every execution that timed out (its two-hour limit), was aborted or failed to the scheduled jobs’ function, which marks its run failed (no Catch sees those)', () => {
    const scheduled = logicalId(portal.api.backgroundJobs.scheduledJobs);
    api.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [{ Ref: machineId() }], status: ['FAILED', 'TIMED_OUT', 'ABORTED'] },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [scheduled, 'Arn'] },
          RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 8 }),
        }),
      ],
    });
    api.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [scheduled, 'Arn'] },
    });
  });

  it('takes the first reminder day from context', () => {
    const other = scratchApp({ bundle: false, context: { iseeReminderFrom: '12-10' } });
    try {
      const expressions = Object.values(Template.fromStack(other.api).findResources('AWS::Scheduler::Schedule')).map(
        (r) => r.Properties.ScheduleExpression,
      );
      expect(expressions).toContain('cron(0 8 10-31 12 ? *)');
    } finally {
      other.dispose();
    }
    expect(() => scratchApp({ bundle: false, context: { iseeReminderFrom: '11-30' } })).toThrow(/iseeReminderFrom/);
  });
});
