import { beforeAll, describe, expect, it } from 'vitest';
import { SYNC_JOB } from '../../functions/domain/jobs.ts';
import { as } from '../support/api.ts';
import { localTable } from '../support/dynamo.ts';
import { billedMonth } from '../support/months.ts';
import { callWithSubscribers, operatorWithMyPay, storedPositions } from '../support/positions.ts';
import { operatorActor as actor } from '../support/events.ts';

/**
 * 'Sincronizza' of a month bigger than one slice (issue 37: at 10,000 subscribers a new month's creates ran past the
 * job function's 300 s and the run failed). The job function's own code (the real repositories, the jobs' record
 * and its cursor, on the local stack's DynamoDB) with a budget of two positions a slice, driven slice by slice as the
 * state machine drives it; one slice's answer is lost after its writes, and the slice runs again from the cursor the
 * record kept. The positions are new (nothing sent yet), so nothing here depends on the platform.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let modules: {
  wired: typeof import('../../functions/entry/wired-payments.ts');
  jobs: typeof import('../../functions/jobs/use-cases.ts');
  jobRepository: typeof import('../../functions/jobs/repository.ts');
  clock: typeof import('../../functions/adapters/ports/clock.ts');
};

beforeAll(async () => {
  operator = await operatorWithMyPay();
  modules = {
    wired: await import('../../functions/entry/wired-payments.ts'),
    jobs: await import('../../functions/jobs/use-cases.ts'),
    jobRepository: await import('../../functions/jobs/repository.ts'),
    clock: await import('../../functions/adapters/ports/clock.ts'),
  };
});

describe('Sincronizza in slices', () => {
  it('a month of five new positions, two a slice, goes on from the kept cursor to the end: each position once, one audit entry each', async () => {
    const people = ['Rossi', 'Bianchi', 'Verdi', 'Neri', 'Gialli'];
    const call = await callWithSubscribers(operator, people);
    const month = billedMonth().key;

    const payments = modules.wired.paymentUseCases({ sliceBudget: { chunk: 2, ms: 0 } });
    let slices = 0;
    let loseAnswerOf: number | null = 3;
    const worker = modules.jobs.makeJobWorker({
      jobs: modules.jobRepository,
      clock: modules.clock.systemClock,
      kinds: {
        [SYNC_JOB]: {
          failure: 'Il ricalcolo delle posizioni debitorie non è riuscito.',
          async slice(input, cursor, sliceActor) {
            slices += 1;
            const result = await payments.syncSlice(input, cursor, sliceActor);
            // The third slice's writes land, its answer does not (Lambda throttled the answer): the state machine runs
            // the slice again with the cursor the record kept.
            if (slices === loseAnswerOf) {
              loseAnswerOf = null;
              throw Object.assign(new Error('Rate exceeded'), { name: 'Lambda.TooManyRequestsException' });
            }
            return result;
          },
        },
      },
    });
    // Started as the API starts it (the job's record), its slices run here instead of on the stack's state machine.
    const started = await modules.jobs
      .makeJobs({
        jobs: modules.jobRepository,
        runner: { start: async () => undefined },
        clock: modules.clock.systemClock,
        ids: () => `sync-slices-${call.id}`,
      })
      .start(SYNC_JOB, call.id, { callId: call.id }, actor);
    expect(started).not.toBeNull();

    const written: number[] = [];
    let run = { kind: SYNC_JOB, key: call.id, jobId: started!.id, cursor: null as string | null };
    for (let step = 0; step < 20; step++) {
      let answer: { cursor: string | null; finished: boolean };
      try {
        answer = await worker.slice(run);
      } catch {
        // Retried with the same input, as the state machine's Retry does.
        written.push((await storedPositions(call.id, month)).length);
        continue;
      }
      written.push((await storedPositions(call.id, month)).length);
      if (answer.finished) break;
      run = { ...run, cursor: answer.cursor };
    }

    // The months' slice, then two positions a slice; the third slice ran twice (4 after its lost answer), and its
    // second run planned the month again and wrote only the one still missing.
    expect(written).toEqual([0, 2, 4, 5]);
    expect(slices).toBe(4);
    const stored = await storedPositions(call.id, month);
    expect(stored.map((p) => p.cognome).sort()).toEqual([...people].sort());
    expect(stored.every((p) => p.version === 1 && p.importoDovuto === stored[0]!.importoDovuto && !p.annullato)).toBe(
      true,
    );
    const status = await operator.get(`/api/calls/${call.id}/positions/sync`);
    expect(status.json).toMatchObject({ isUpdating: false, state: 'SUCCEEDED', done: 1, total: 1, error: null });
    for (const position of stored) {
      const audit = await localTable().auditOf('position', position.iud as string);
      expect(audit.map((entry) => entry.action)).toEqual(['create']);
    }
  });
});
