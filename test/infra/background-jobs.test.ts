import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../functions/routes.ts';
import type { PortalFunction } from '../../lib/portal-function.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';

let portal: ScratchApp;
let api: Template;

beforeAll(() => {
  portal = scratchApp({ bundle: false });
  api = Template.fromStack(portal.api);
});
afterAll(() => portal.dispose());

const logicalId = (construct: { node: { defaultChild?: unknown } }) => portal.api.resolve((construct.node.defaultChild as CfnFunction).logicalId) as string;
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
const actions = (s: Statement) => [s.Action].flat();

/** The statements of the policies attached to a role (by its logical id). */
function statementsOfRole(roleId: string): Statement[] {
  return Object.values(api.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const roleOfFunction = (fn: PortalFunction) => api.findResources('AWS::Lambda::Function')[logicalId(fn)].Properties.Role['Fn::GetAtt'][0] as string;

describe('background jobs (lib/background-jobs.ts)', () => {
  const machineId = () => logicalId(portal.api.backgroundJobs.stateMachine);

  it('is a state machine that loops over slices of the job function until finished, and marks a failure', () => {
    const machine = api.findResources('AWS::StepFunctions::StateMachine')[machineId()].Properties;
    const jobFunction = logicalId(portal.api.backgroundJobs.jobFunction);
    const parts = machine.DefinitionString['Fn::Join'][1] as unknown[];
    const definition = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : `<${(part as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]}>`)).join(''));
    expect(Object.keys(definition.States).sort()).toEqual(['Done', 'Failed', 'IsFinished', 'MarkFailed', 'NextSlice', 'Slice']);
    expect(definition.States.Slice.Parameters.FunctionName).toBe(`<${jobFunction}>`);
    expect(definition.States.MarkFailed.Parameters.FunctionName).toBe(`<${jobFunction}>`);
    expect(definition.States.Slice.Catch[0].Next).toBe('MarkFailed');
    expect(definition.States.NextSlice.Next).toBe('Slice');
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
    expect(machine.LoggingConfiguration.IncludeExecutionData).toBe(false);
  });

  it('lets the state machine invoke the job function and nothing else', () => {
    const roleId = api.findResources('AWS::StepFunctions::StateMachine')[machineId()].Properties.RoleArn['Fn::GetAtt'][0];
    const invoke = statementsOfRole(roleId).filter((s) => actions(s).some((a) => a.startsWith('lambda:')));
    expect(invoke.flatMap(actions)).toEqual(['lambda:InvokeFunction']);
    expect(JSON.stringify(invoke[0]!.Resource)).toContain(logicalId(portal.api.backgroundJobs.jobFunction));
    expect(JSON.stringify(invoke[0]!.Resource)).not.toContain(logicalId(portal.api.paymentExport.taskFunction));
  });

  it('gives the job function the table, the documents bucket, the exports bucket, SES sending, MyPay’s settings and signing with the PDND key, nothing else', () => {
    const statements = statementsOfRole(roleOfFunction(portal.api.backgroundJobs.jobFunction));
    const services = new Set(statements.flatMap(actions).map((a) => a.split(':')[0]));
    expect([...services].sort()).toEqual(['dynamodb', 'kms', 'logs', 's3', 'ses', 'xray'].filter((s) => services.has(s)).sort());
    // The ISEE jobs ask INPS through PDND: kms:Sign on the PDND client's key, nothing more.
    expect(statements.filter((s) => actions(s).some((a) => a.startsWith('kms:'))).flatMap(actions)).toEqual(['kms:Sign']);
    expect(services.has('dynamodb')).toBe(true);
    // An enrolment import removing a subscription deletes its files (documents bucket); the flow e-mail reads
    // MyPay's PDFs and 'Verifica / genera CSV' leaves its file (exports bucket).
    const s3 = statements.filter((s) => actions(s).some((a) => a.startsWith('s3:')));
    expect(JSON.stringify(s3.map((s) => s.Resource))).toContain(logicalId(portal.data.documents));
    const onExports = s3.filter((s) => JSON.stringify(s.Resource).includes(logicalId(portal.data.exports)));
    expect(onExports.flatMap(actions).sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    // 'Rendicontazione' asks MyPay: its endpoint, entity and password as Secrets Manager dynamic references.
    const env = api.findResources('AWS::Lambda::Function')[logicalId(portal.api.backgroundJobs.jobFunction)].Properties.Environment.Variables;
    expect(String(env.MYPAY_PASSWORD)).toMatch(/^\{\{resolve:secretsmanager:/);
    // Sending, and reading the account's sending rate the flow e-mail keeps to (GetAccount).
    expect(statements.flatMap(actions).filter((a) => a.startsWith('ses:')).sort()).toEqual(['ses:GetAccount', 'ses:SendEmail']);
    expect(statements.flatMap(actions).some((a) => a.startsWith('states:'))).toBe(false);
    expect(api.findResources('AWS::Lambda::Function')[logicalId(portal.api.backgroundJobs.jobFunction)].Properties.Timeout).toBe(300);
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
      expect(statements.filter((s) => actions(s).some((a) => a.startsWith('states:'))).flatMap(actions)).toEqual(['states:StartExecution']);
      const env = api.findResources('AWS::Lambda::Function')[logicalId(portal.api.functions[starter])].Properties.Environment.Variables;
      expect(env.JOBS_STATE_MACHINE_ARN).toEqual({ Ref: machineId() });
    }
  });

  it('runs the ISEE schedules in Europe/Rome: daily from the configured December day, and 2–7 January, through one small function', () => {
    const schedules = Object.values(api.findResources('AWS::Scheduler::Schedule')).map((r) => r.Properties);
    const scheduled = logicalId(portal.api.backgroundJobs.scheduledJobs);
    expect(schedules.map((s) => [s.ScheduleExpression, s.ScheduleExpressionTimezone, JSON.parse(s.Target.Input).kind]).sort()).toEqual(
      [
        ['cron(0 8 1-31 12 ? *)', 'Europe/Rome', 'isee-expiry'],
        ['cron(0 7 2-7 1 ? *)', 'Europe/Rome', 'isee-new-year'],
      ].sort(),
    );
    for (const schedule of schedules) expect(JSON.stringify(schedule.Target.Arn)).toContain(scheduled);
    // The function the schedules invoke starts jobs on the table's lock and nothing else: no INPS, no KMS.
    const statements = statementsOfRole(roleOfFunction(portal.api.backgroundJobs.scheduledJobs));
    const services = new Set(statements.flatMap(actions).map((a) => a.split(':')[0]));
    expect([...services].sort()).toEqual(['dynamodb', 'logs', 'states', 'xray'].filter((s) => services.has(s)).sort());
    expect(statements.filter((s) => actions(s).some((a) => a.startsWith('states:'))).flatMap(actions)).toEqual(['states:StartExecution']);
  });

  it('takes the first reminder day from context', () => {
    const other = scratchApp({ bundle: false, context: { iseeReminderFrom: '12-10' } });
    try {
      const expressions = Object.values(Template.fromStack(other.api).findResources('AWS::Scheduler::Schedule')).map((r) => r.Properties.ScheduleExpression);
      expect(expressions).toContain('cron(0 8 10-31 12 ? *)');
    } finally {
      other.dispose();
    }
    expect(() => scratchApp({ bundle: false, context: { iseeReminderFrom: '11-30' } })).toThrow(/iseeReminderFrom/);
  });
});
