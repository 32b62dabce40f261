import { DescribeExecutionCommand, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it } from 'vitest';
import { localFunctionArn, localStateMachineArn, startStepFunctions } from '../../lib/local/step-functions.ts';
import { freePort } from '../support/ports.ts';

/**
 * The local Step Functions ends executions as AWS does (Step Functions developer guide: a state machine's
 * TimeoutSeconds ends it TIMED_OUT, StopExecution ABORTED, neither through a Catch) and reports them as the
 * "Step Functions Execution Status Change" event the EventBridge rule delivers in the cloud.
 */
const machine = (timeoutSeconds?: number) => ({
  StartAt: 'Work',
  ...(timeoutSeconds ? { TimeoutSeconds: timeoutSeconds } : {}),
  States: {
    Work: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke',
      Parameters: { FunctionName: localFunctionArn('Slow'), 'Payload.$': '$' },
      Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Caught' }],
      End: true,
    },
    Caught: { Type: 'Pass', End: true },
  },
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function start(timeoutSeconds?: number) {
  const ended: unknown[] = [];
  let release!: () => void;
  const slow = () => new Promise<unknown>((resolve) => (release = () => resolve({ done: true })));
  const sfn = await startStepFunctions(await freePort(), [
    {
      name: 'M',
      definition: machine(timeoutSeconds),
      functions: { Slow: slow },
      onExecutionEnd: async (event) => void ended.push(event),
    },
  ]);
  close = () => sfn.close();
  const client = new SFNClient({
    endpoint: sfn.endpoint,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  const { executionArn } = await client.send(
    new StartExecutionCommand({
      stateMachineArn: localStateMachineArn('M'),
      name: 'flow1-1',
      input: JSON.stringify({ flowId: 'flow1' }),
    }),
  );
  return { sfn, client, executionArn: executionArn!, ended, release: () => release() };
}

describe('the local Step Functions', () => {
  it('invokes nothing more for a stopped execution: a task failing after StopExecution is not retried (as in AWS)', async () => {
    let calls = 0;
    let fail!: () => void;
    const flaky = () =>
      new Promise<unknown>(
        (_, reject) => ((calls += 1), (fail = () => reject(Object.assign(new Error('down'), { name: 'Down' })))),
      );
    const definition = {
      StartAt: 'Work',
      States: {
        Work: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: localFunctionArn('Flaky'), 'Payload.$': '$' },
          Retry: [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 1, MaxAttempts: 5 }],
          End: true,
        },
      },
    };
    const sfn = await startStepFunctions(await freePort(), [
      { name: 'R', definition, functions: { Flaky: flaky }, retryIntervalOverrides: { Work: 0 } },
    ]);
    close = () => sfn.close();
    const client = new SFNClient({
      endpoint: sfn.endpoint,
      region: 'eu-south-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const { executionArn } = await client.send(
      new StartExecutionCommand({ stateMachineArn: localStateMachineArn('R'), input: '{}' }),
    );
    await client.send(new StopExecutionCommand({ executionArn }));
    fail();
    await sfn.settle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(1);
  });

  it('ends an execution past its TimeoutSeconds TIMED_OUT, not through the Catch, and reports it as EventBridge would', async () => {
    const { sfn, client, executionArn, ended } = await start(1);
    await sfn.settle();
    expect((await client.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('TIMED_OUT');
    expect(ended).toEqual([
      expect.objectContaining({
        source: 'aws.states',
        'detail-type': 'Step Functions Execution Status Change',
        detail: expect.objectContaining({
          executionArn,
          status: 'TIMED_OUT',
          input: JSON.stringify({ flowId: 'flow1' }),
        }),
      }),
    ]);
  });

  it('stops an execution on StopExecution (ABORTED) and reports it; one that succeeds is not reported', async () => {
    const stopped = await start();
    await stopped.client.send(new StopExecutionCommand({ executionArn: stopped.executionArn }));
    await stopped.sfn.settle();
    expect(
      (await stopped.client.send(new DescribeExecutionCommand({ executionArn: stopped.executionArn }))).status,
    ).toBe('ABORTED');
    expect(stopped.ended).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ status: 'ABORTED' }) }),
    ]);
    await close!();

    const finished = await start();
    finished.release();
    await finished.sfn.settle();
    expect(
      (await finished.client.send(new DescribeExecutionCommand({ executionArn: finished.executionArn }))).status,
    ).toBe('SUCCEEDED');
    expect(finished.ended).toEqual([]);
  });
});
