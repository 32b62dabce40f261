import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Closable } from './stores.ts';

/** A Lambda handler as Step Functions invokes it: the task's Payload in, the function's result out. */
export type TaskFunction = (payload: any) => Promise<unknown>;

export interface LocalStateMachine {
  name: string;
  definition: object;
  /** The functions its Task states invoke, by function name (the last part of the ARN in the definition). */
  functions: Record<string, TaskFunction>;
  /** Wait states shortened on this machine (milliseconds), e.g. a poll interval. */
  waitTimeOverrides?: Record<string, number>;
  /** Pauses between retries shortened on this machine (milliseconds, per state). */
  retryIntervalOverrides?: Record<string, number>;
  /**
   * Where an execution that ends FAILED, TIMED_OUT or ABORTED is reported, as the "Step Functions Execution
   * Status Change" event an EventBridge rule delivers in the cloud (lib/payment-export.ts).
   */
  onExecutionEnd?: TaskFunction;
  /**
   * Each function's deployed timeout in seconds (its CDK `timeout`): an invocation still running then is cut, as
   * Lambda cuts it, and its task fails with `Lambda.Unknown` ("Task timed out after …"), the error Step Functions
   * reports for a function timeout (Step Functions guide, "Handle Lambda service exceptions"). Lowered at run time
   * through FUNCTION_TIMEOUT_PATH.
   */
  timeoutSeconds?: Record<string, number>;
}

/**
 * The switch: `POST <endpoint>/__local/function-timeout` with `{ "function": "FlowTask", "seconds": n }` cuts that
 * function's invocations after n seconds instead of its deployed timeout (no `seconds`: the deployed one again).
 * Unlike Lambda, this machine cannot freeze the cut invocation: its code runs on, and what it writes after the
 * cut still lands (a test of the cut makes the invocation wait on a partner that does not answer).
 */
export const FUNCTION_TIMEOUT_PATH = '/__local/function-timeout';

/** Lambda's answer to an invocation cut at its timeout, as the task sees it. */
export const functionTimedOut = (seconds: number) =>
  Object.assign(new Error(`Task timed out after ${seconds.toFixed(2)} seconds`), { name: 'Lambda.Unknown' });

/** Step Functions' "Execution Status Change" event, as EventBridge delivers it (the fields the portal reads). */
export const executionStatusChange = (execution: {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: string;
  input: string;
}) => ({
  version: '0',
  source: 'aws.states',
  'detail-type': 'Step Functions Execution Status Change',
  detail: {
    executionArn: execution.executionArn,
    stateMachineArn: execution.stateMachineArn,
    name: execution.name,
    status: execution.status,
    input: execution.input,
  },
});

export const localStateMachineArn = (name: string) => `arn:aws:states:eu-south-1:000000000000:stateMachine:${name}`;
export const localFunctionArn = (name: string) => `arn:aws:lambda:eu-south-1:000000000000:function:${name}`;

interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';
  /** StopExecution was asked for. */
  stopping?: boolean;
  startDate: number;
  stopDate?: number;
  input: string;
  output?: string;
  error?: string;
  cause?: string;
}

/**
 * Step Functions on this machine: an HTTP endpoint speaking the service's JSON protocol (StartExecution,
 * DescribeExecution, StopExecution), so the functions use the real @aws-sdk/client-sfn with SFN_ENDPOINT;
 * each execution runs the very same definition in aws-local-stepfunctions, its Lambda tasks calling the same
 * handlers. As in the cloud, the definition's TimeoutSeconds ends an execution TIMED_OUT and StopExecution
 * ABORTED, neither through a Catch; an execution ending so (or FAILED) is reported to the machine's
 * onExecutionEnd, as the EventBridge rule does in the cloud.
 */
export async function startStepFunctions(
  port: number,
  machines: LocalStateMachine[],
): Promise<Closable & { endpoint: string; settle(): Promise<void> }> {
  // aws-local-stepfunctions 3 uses Promise.withResolvers, which Node 20 lacks: define it before loading it.
  (Promise as unknown as { withResolvers?: unknown }).withResolvers ??= function withResolvers<T>() {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
  const { StateMachine } = await import('aws-local-stepfunctions');
  const byArn = new Map(
    machines.map((machine) => [
      localStateMachineArn(machine.name),
      { machine, runner: new StateMachine(machine.definition as never) },
    ]),
  );
  const executions = new Map<string, Execution>();
  /** Functions whose invocations are cut sooner than their deployed timeout (FUNCTION_TIMEOUT_PATH). */
  const timeoutOverrides = new Map<string, number>();
  const running = new Map<Promise<unknown>, () => void>();
  const stops = new Map<string, () => void>();

  const taskHandlers = (machine: LocalStateMachine, execution: Execution) => {
    const handlers: Record<string, (input: any) => Promise<any>> = {};
    for (const [stateName, state] of Object.entries((machine.definition as { States: Record<string, any> }).States)) {
      const functionName = String(state.Parameters?.FunctionName ?? '')
        .split(':')
        .at(-1);
      if (state.Type !== 'Task' || !functionName) continue;
      const fn = machine.functions[functionName];
      if (!fn) throw new Error(`Local Step Functions: no function ${functionName} for ${machine.name}.${stateName}`);
      // lambda:invoke answers { StatusCode, Payload }; a thrown error keeps its name (Lambda's errorType).
      // An execution that was stopped or timed out invokes nothing more (aws-local-stepfunctions would still
      // retry a task that failed after the abort; Step Functions does not).
      handlers[stateName] = async (input) => {
        if (execution.stopping || execution.status !== 'RUNNING')
          throw Object.assign(new Error('Execution stopped'), { name: 'States.Runtime' });
        const seconds = timeoutOverrides.get(functionName) ?? machine.timeoutSeconds?.[functionName];
        const invocation = Promise.resolve(fn(input.Payload));
        if (!seconds) return { StatusCode: 200, Payload: (await invocation) ?? null };
        let timer: NodeJS.Timeout | undefined;
        const cut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(functionTimedOut(seconds)), seconds * 1000);
        });
        // The cut invocation runs on unobserved: its own later failure must not crash the stack.
        invocation.catch(() => undefined);
        try {
          return { StatusCode: 200, Payload: (await Promise.race([invocation, cut])) ?? null };
        } finally {
          clearTimeout(timer);
        }
      };
    }
    return handlers;
  };

  function startExecution(body: { stateMachineArn?: string; input?: string; name?: string }) {
    const found = body.stateMachineArn ? byArn.get(body.stateMachineArn) : undefined;
    if (!found)
      return {
        status: 400,
        body: { __type: 'StateMachineDoesNotExist', message: `State machine does not exist: ${body.stateMachineArn}` },
      };
    const name = body.name ?? randomUUID();
    const executionArn = `${body.stateMachineArn!.replace(':stateMachine:', ':execution:')}:${name}`;
    if (executions.has(executionArn))
      return {
        status: 400,
        body: { __type: 'ExecutionAlreadyExists', message: `Execution already exists: ${executionArn}` },
      };
    const execution: Execution = {
      executionArn,
      stateMachineArn: body.stateMachineArn!,
      name,
      status: 'RUNNING',
      startDate: Date.now(),
      input: body.input ?? '{}',
    };
    executions.set(executionArn, execution);
    const { result, abort } = found.runner.run(JSON.parse(execution.input), {
      overrides: {
        taskResourceLocalHandlers: taskHandlers(found.machine, execution),
        waitTimeOverrides: found.machine.waitTimeOverrides,
        retryIntervalOverrides: found.machine.retryIntervalOverrides,
      },
      noThrowOnAbort: true,
    });
    const done = result
      .then((output: unknown) =>
        Object.assign(
          execution,
          execution.stopping ? { status: 'ABORTED' } : { status: 'SUCCEEDED', output: JSON.stringify(output ?? null) },
        ),
      )
      .catch((error: Error & { cause?: unknown }) =>
        Object.assign(
          execution,
          error.name === 'ExecutionTimeoutError'
            ? { status: 'TIMED_OUT', error: 'States.Timeout' }
            : { status: 'FAILED', error: error.name, cause: error.message },
        ),
      )
      .then(async () => {
        execution.stopDate = Date.now();
        if (execution.status !== 'SUCCEEDED')
          await found.machine.onExecutionEnd?.(executionStatusChange(execution)).catch(() => undefined);
      })
      .finally(() => running.delete(done));
    running.set(done, abort);
    stops.set(executionArn, () => {
      execution.stopping = true;
      abort();
    });
    return { status: 200, body: { executionArn, startDate: execution.startDate / 1000 } };
  }

  function stopExecution(body: { executionArn?: string }) {
    const execution = body.executionArn ? executions.get(body.executionArn) : undefined;
    if (!execution)
      return {
        status: 400,
        body: { __type: 'ExecutionDoesNotExist', message: `Execution does not exist: ${body.executionArn}` },
      };
    if (execution.status === 'RUNNING') stops.get(execution.executionArn)?.();
    return { status: 200, body: { stopDate: Date.now() / 1000 } };
  }

  function describeExecution(body: { executionArn?: string }) {
    const execution = body.executionArn ? executions.get(body.executionArn) : undefined;
    if (!execution)
      return {
        status: 400,
        body: { __type: 'ExecutionDoesNotExist', message: `Execution does not exist: ${body.executionArn}` },
      };
    return {
      status: 200,
      body: {
        ...execution,
        startDate: execution.startDate / 1000,
        stopDate: execution.stopDate && execution.stopDate / 1000,
      },
    };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === FUNCTION_TIMEOUT_PATH) {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
            function?: string;
            seconds?: number;
          };
          if (!body.function) throw new Error('function: the name of a task function, e.g. FlowTask');
          if (body.seconds === undefined || body.seconds === null) timeoutOverrides.delete(body.function);
          else if (!(Number(body.seconds) > 0)) throw new Error('seconds: a number above 0');
          else timeoutOverrides.set(body.function, Number(body.seconds));
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(Object.fromEntries(timeoutOverrides)));
        } catch (error) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: (error as Error).message }));
        }
      }
      const target = String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .at(-1);
      let answer: { status: number; body: unknown };
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        answer =
          target === 'StartExecution'
            ? startExecution(body)
            : target === 'DescribeExecution'
              ? describeExecution(body)
              : target === 'StopExecution'
                ? stopExecution(body)
                : {
                    status: 400,
                    body: { __type: 'UnknownOperationException', message: `Unsupported operation ${target}` },
                  };
      } catch (error) {
        answer = { status: 400, body: { __type: 'SerializationException', message: (error as Error).message } };
      }
      res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;

  return {
    endpoint,
    /** Waits for every execution running now (tests). */
    async settle() {
      while (running.size) await Promise.allSettled([...running.keys()]);
    },
    async close() {
      for (const abort of running.values()) abort();
      await Promise.allSettled([...running.keys()]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
