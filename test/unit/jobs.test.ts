import { describe, expect, it } from 'vitest';
import { JOB_STALE_AFTER_MS, jobFailureText } from '../../functions/domain/jobs.ts';
import { jobDefinition } from '../../functions/jobs/state-machine.ts';
import { makeJobs, makeJobWorker, type JobKind, type JobRun } from '../../functions/jobs/use-cases.ts';
import { actors, memoryJobs, sequentialIds } from '../support/in-memory.ts';

function setup(options: { failStart?: boolean } = {}) {
  let time = Date.parse('2026-03-10T09:00:00.000Z');
  const clock = { now: () => new Date(time), advance: (ms: number) => (time += ms) };
  const jobs = memoryJobs();
  const started: JobRun[] = [];
  const runner = {
    async start(run: JobRun) {
      if (options.failStart) throw new Error('Step Functions non raggiungibile');
      started.push(run);
    },
  };
  /** A kind that counts to `input.n`, 3 units per slice. */
  const sliced: Array<string | null> = [];
  const counting: JobKind = {
    failure: 'Conteggio non riuscito.',
    async slice(input, cursor) {
      sliced.push(cursor);
      const n = Number(input.n);
      const from = cursor === null ? 0 : Number(cursor);
      const to = Math.min(n, from + 3);
      return { cursor: to < n ? String(to) : null, done: to, total: n };
    },
  };
  const api = makeJobs({ jobs, runner, clock, ids: sequentialIds('job') });
  const worker = makeJobWorker({ jobs, kinds: { counting }, clock });
  /** What the state machine does: slices until finished. */
  async function runToEnd(run: JobRun) {
    let cursor = run.cursor;
    for (let i = 0; i < 100; i++) {
      const result = await worker.slice({ ...run, cursor });
      if (result.finished) return i + 1;
      cursor = result.cursor;
    }
    throw new Error('never finished');
  }
  return { clock, jobs, started, api, worker, sliced, runToEnd };
}

describe('background jobs: the lock per key', () => {
  it('starts one run per key: a second start while it runs gets nothing and starts nothing', async () => {
    const t = setup();
    const first = await t.api.start('counting', 'call-1', { n: 7 }, actors.operator);
    expect(first).toMatchObject({ kind: 'counting', key: 'call-1', state: 'RUNNING', done: 0, total: null });
    expect(await t.api.start('counting', 'call-1', { n: 7 }, actors.operator)).toBeNull();
    expect(t.started).toEqual([{ kind: 'counting', key: 'call-1', jobId: first!.id, cursor: null }]);
    // Another key is another lock.
    expect(await t.api.start('counting', 'call-2', { n: 1 }, actors.operator)).not.toBeNull();
    expect(await t.api.status('counting', 'call-1')).toMatchObject({ running: true, job: { id: first!.id } });
  });

  it('starts again once the run ended, and takes over a run that stopped moving', async () => {
    const t = setup();
    const first = (await t.api.start('counting', 'call-1', { n: 2 }, actors.operator))!;
    await t.runToEnd(t.started[0]!);
    expect(await t.api.status('counting', 'call-1')).toMatchObject({
      running: false,
      job: { state: 'SUCCEEDED', done: 2, total: 2 },
    });
    const second = (await t.api.start('counting', 'call-1', { n: 2 }, actors.operator))!;
    expect(second.id).not.toBe(first.id);

    t.clock.advance(JOB_STALE_AFTER_MS - 1000);
    expect(await t.api.start('counting', 'call-1', { n: 2 }, actors.operator)).toBeNull();
    t.clock.advance(2000);
    expect((await t.api.status('counting', 'call-1')).running).toBe(false);
    const third = (await t.api.start('counting', 'call-1', { n: 2 }, actors.operator))!;
    // The dead run's execution, if it ever moves again, writes nothing and stops.
    expect(await t.worker.slice({ kind: 'counting', key: 'call-1', jobId: second.id, cursor: null })).toEqual({
      cursor: null,
      finished: true,
    });
    expect((await t.api.status('counting', 'call-1')).job).toMatchObject({ id: third.id, state: 'RUNNING', done: 0 });
  });

  it('frees the key when the state machine cannot be started, and says so', async () => {
    const t = setup({ failStart: true });
    await expect(t.api.start('counting', 'call-1', { n: 2 }, actors.operator)).rejects.toThrow(
      'Step Functions non raggiungibile',
    );
    expect(await t.api.status('counting', 'call-1')).toMatchObject({
      running: false,
      job: { state: 'FAILED', error: 'Avvio non riuscito: riprova.' },
    });
  });
});

describe('background jobs: slices', () => {
  it('lets a slice run its whole time budget: the ISEE refresh’s 2-minute slice is not cut at the States Language’s default Task timeout of 60 s', () => {
    const slice = jobDefinition('arn:aws:lambda:eu-south-1:000000000000:function:jobs').States.Slice as {
      TimeoutSeconds?: number;
    };
    // ISEE_REFRESH_SLICE_MS defaults to 120 s (functions/entry/wired-isee.ts), plus the page in hand when it runs out.
    expect(slice.TimeoutSeconds ?? 60).toBeGreaterThan(150);
  });

  it('runs bounded slices from the cursor until none is left, recording progress on the job', async () => {
    const t = setup();
    const job = (await t.api.start('counting', 'call-1', { n: 7 }, actors.operator))!;
    const run = t.started[0]!;
    const first = await t.worker.slice(run);
    expect(first).toEqual({ cursor: '3', finished: false });
    expect((await t.api.status('counting', 'call-1')).job).toMatchObject({
      state: 'RUNNING',
      done: 3,
      total: 7,
      cursor: '3',
    });
    await t.runToEnd({ ...run, cursor: first.cursor });
    expect(t.sliced).toEqual([null, '3', '6']);
    const { job: ended, running } = await t.api.status('counting', 'call-1');
    expect(running).toBe(false);
    expect(ended).toMatchObject({ id: job.id, state: 'SUCCEEDED', done: 7, total: 7, cursor: null, error: null });
    expect(ended!.endedAt).not.toBeNull();
  });

  it('marks a failed run with the domain error’s own message, or the kind’s generic one', async () => {
    const t = setup();
    const job = (await t.api.start('counting', 'call-1', { n: 7 }, actors.operator))!;
    await t.worker.markFailed({
      kind: 'counting',
      key: 'call-1',
      jobId: job.id,
      cursor: null,
      error: { Error: 'ConflictError', Cause: JSON.stringify({ errorMessage: 'È in corso un invio a MyPay.' }) },
    });
    expect(await t.api.status('counting', 'call-1')).toMatchObject({
      running: false,
      job: { state: 'FAILED', error: 'È in corso un invio a MyPay.' },
    });
    expect(jobFailureText({ Error: 'TypeError', Cause: 'x is undefined' }, 'Conteggio non riuscito.')).toBe(
      'Conteggio non riuscito.',
    );
    expect(jobFailureText({ Error: 'ValidationError', Cause: 'Dati non validi.' }, 'generico')).toBe(
      'Dati non validi.',
    );
    expect(jobFailureText(null, 'generico')).toBe('generico');
  });
});
