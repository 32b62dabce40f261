import { describe, expect, it } from 'vitest';
import { jobDefinition } from '../../functions/jobs/state-machine.ts';
import { makeJobs, makeJobWorker, type JobKind, type JobRun } from '../../functions/jobs/use-cases.ts';
import { actors, memoryJobs, sequentialIds, tickingClock } from '../support/in-memory.ts';

// aws-local-stepfunctions 3 needs Promise.withResolvers (Node 22+).
(Promise as unknown as { withResolvers?: unknown }).withResolvers ??= () => {
  let resolve, reject;
  const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};
const { StateMachine } = await import('aws-local-stepfunctions');

/** A kind counting to 5, 2 a slice; or, with `fails`, one whose slice throws an unexpected error. */
const counting = (failure: string, fails = false): JobKind => ({
  failure,
  async slice(_input, cursor) {
    if (fails) throw new TypeError('x is undefined');
    const to = Math.min(5, Number(cursor ?? 0) + 2);
    return { cursor: to < 5 ? String(to) : null, done: to, total: 5 };
  },
});

/**
 * The jobs' state machine with two job functions, each a worker over its own kinds only (as each bundle is),
 * run by aws-local-stepfunctions: which function each Task invoked, and the job records.
 */
function setup() {
  const jobs = memoryJobs();
  const clock = tickingClock();
  const functions = {
    Payments: makeJobWorker({ jobs, clock, kinds: { sync: counting('Sincronizzazione non riuscita.') } }),
    Isee: makeJobWorker({
      jobs,
      clock,
      kinds: { refresh: counting('Aggiornamento non riuscito.'), broken: counting('Scadenze non calcolate.', true) },
    }),
  };
  const arn = (name: string) => `arn:aws:lambda:eu-south-1:000000000000:function:${name}`;
  const definition = jobDefinition([
    { name: 'Payments', arn: arn('Payments'), kinds: ['sync'] },
    { name: 'Isee', arn: arn('Isee'), kinds: ['refresh', 'broken'] },
  ]);
  const invoked: string[] = [];
  const handlers = Object.fromEntries(
    (Object.entries(definition.States) as [string, { Type: string; Parameters?: { FunctionName: string } }][])
      .filter(([, state]) => state.Type === 'Task')
      .map(([stateName, state]) => {
        const name = state.Parameters!.FunctionName.split(':').at(-1) as keyof typeof functions;
        return [
          stateName,
          async ({
            Payload,
          }: {
            Payload: JobRun & { step: 'Slice' | 'MarkFailed'; error?: { Error?: string; Cause?: string } };
          }) => {
            invoked.push(`${name}:${Payload.step}`);
            try {
              return {
                StatusCode: 200,
                Payload:
                  (Payload.step === 'Slice'
                    ? await functions[name].slice(Payload)
                    : await functions[name].markFailed(Payload)) ?? null,
              };
            } catch (error) {
              const failure = new Error(JSON.stringify({ errorMessage: (error as Error).message }));
              failure.name = (error as Error).name;
              throw failure;
            }
          },
        ];
      }),
  );
  const machine = new StateMachine(definition as never);
  const api = makeJobs({ jobs, clock, ids: sequentialIds('job'), runner: { start: async () => undefined } });
  async function run(kind: string) {
    const job = (await api.start(kind, 'call-1', {}, actors.operator))!;
    await machine
      .run({ kind, key: 'call-1', jobId: job.id, cursor: null } as never, {
        overrides: { taskResourceLocalHandlers: handlers as never },
      })
      .result.catch(() => undefined);
    return (await api.status(kind, 'call-1')).job;
  }
  return { run, invoked };
}

describe('the jobs state machine over several job functions', { timeout: 30_000 }, () => {
  it('sends every slice of a run to the function of its kind, until the job is done', async () => {
    const t = setup();
    expect(await t.run('refresh')).toMatchObject({ state: 'SUCCEEDED', done: 5, total: 5 });
    expect(t.invoked).toEqual(['Isee:Slice', 'Isee:Slice', 'Isee:Slice']);
    const other = setup();
    expect(await other.run('sync')).toMatchObject({ state: 'SUCCEEDED', done: 5 });
    expect(other.invoked).toEqual(['Payments:Slice', 'Payments:Slice', 'Payments:Slice']);
  });

  it('marks a failed run through the same function, which knows its kind’s failure line', async () => {
    const t = setup();
    expect(await t.run('broken')).toMatchObject({ state: 'FAILED', error: 'Scadenze non calcolate.' });
    expect(t.invoked).toEqual(['Isee:Slice', 'Isee:MarkFailed']);
  });

  it('fails a kind no function runs, and marks its run failed', async () => {
    const t = setup();
    expect(await t.run('unknown')).toMatchObject({ state: 'FAILED', error: 'Operazione non riuscita.' });
    expect(t.invoked).toEqual(['Payments:Slice', 'Payments:MarkFailed']);
  });
});
