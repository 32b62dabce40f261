import { randomUUID } from 'node:crypto';
import { DescribeExecutionCommand, SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { localFunctionArn, localStateMachineArn, startStepFunctions } from '../../lib/local/step-functions.ts';
import { migrationDefinition } from '../../functions/migrations/state-machine.ts';
import type { Migration } from '../../functions/migrations/use-cases.ts';
import { freePort } from '../support/ports.ts';
import { useLocalTable } from '../support/dynamo.ts';

/**
 * The data migrations as the deployment runs them: the start (the trigger's function) takes the run's lock and
 * starts the migrations' own state machine, whose Slice task calls the migration task function again and again;
 * each step is checkpointed on the migration's record. Here on the local DynamoDB and the local Step Functions
 * running the very same definition, with migrations of the test's own (a slice budget of two steps, counted,
 * not timed, so a migration of ten steps needs five slices).
 */
const ITEMS = 30;
const PAGE = 3;
const STEPS_PER_SLICE = 2;

let sfnEndpoint: string;
let stepFunctions: Awaited<ReturnType<typeof startStepFunctions>>;
const machine = `Migrations-${randomUUID().slice(0, 8)}`;
let slices = 0;
let active = 0;
/** The migration the state machine runs now (each test sets its own). */
let current: { migration: Migration; steps: () => number };

let modules: {
  start: typeof import('../../functions/entry/start-migrations.ts');
  task: typeof import('../../functions/entry/migration-task.ts');
  use: typeof import('../../functions/migrations/use-cases.ts');
  store: typeof import('../../functions/migrations/repository.ts');
  dynamo: typeof import('../../functions/adapters/dynamo.ts');
  jobs: typeof import('../../functions/jobs/repository.ts');
  runner: typeof import('../../functions/jobs/runner.ts');
  ports: typeof import('../../functions/adapters/ports/clock.ts');
};

/** A migration writing ITEMS items of its own, PAGE a step; `onStep` sees each step's cursor before it runs. */
function itemsMigration(id: string, onStep: (cursor: string | null) => Promise<void> = async () => undefined) {
  const cursors: (string | null)[] = [];
  let steps = 0;
  const migration: Migration = {
    id,
    description: `Prova ${id}`,
    async step(cursor) {
      steps += 1;
      cursors.push(cursor);
      await onStep(cursor);
      const from = cursor === null ? 0 : Number(cursor);
      const to = Math.min(ITEMS, from + PAGE);
      await modules.dynamo.batchPut(
        Array.from({ length: to - from }, (_, i) => ({
          pk: `TESTMIGRATION#${id}`,
          sk: `ITEM#${String(from + i).padStart(3, '0')}`,
          n: from + i,
        })),
      );
      return { cursor: to < ITEMS ? String(to) : null, processed: to - from };
    },
  };
  return { migration, cursors, steps: () => steps };
}

/** The task function over the current migration, a slice being STEPS_PER_SLICE steps (counted by the migration). */
const task = (payload: any) => {
  const { migration, steps } = current;
  const runner = modules.use.makeMigrationRunner({
    store: modules.store,
    migrations: [migration],
    clock: modules.ports.systemClock,
    log: () => undefined,
    elapsed: steps,
  });
  if (payload.step === 'Slice') slices += 1;
  active += 1;
  return modules.task
    .migrationTask(
      runner,
      STEPS_PER_SLICE,
    )(payload)
    .finally(() => (active -= 1));
};

const start = (waitMs: number) =>
  modules.start.makeMigrationStart({
    jobs: modules.jobs,
    runner: modules.runner.stepFunctionsJobRunner,
    executionStatus: modules.start.describeMigrationExecution,
    clock: modules.ports.systemClock,
    waitMs,
    pollMs: 50,
    log: () => undefined,
  })();

async function itemsOf(id: string) {
  const { Items = [] } = await modules.dynamo.documentClient.send(
    new QueryCommand({
      TableName: TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `TESTMIGRATION#${id}` },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => item.n as number);
}
const recordOf = async (id: string) => (await modules.store.listMigrations()).find((record) => record.id === id);
const until = async (check: () => Promise<boolean> | boolean) => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
};

beforeAll(async () => {
  stepFunctions = await startStepFunctions(await freePort(), [
    {
      name: machine,
      definition: migrationDefinition(localFunctionArn('MigrationTask')),
      functions: { MigrationTask: task },
    },
  ]);
  sfnEndpoint = stepFunctions.endpoint;
  useLocalTable();
  Object.assign(process.env, {
    SFN_ENDPOINT: sfnEndpoint,
    JOBS_STATE_MACHINE_ARN: localStateMachineArn(machine),
  });
  modules = {
    start: await import('../../functions/entry/start-migrations.ts'),
    task: await import('../../functions/entry/migration-task.ts'),
    use: await import('../../functions/migrations/use-cases.ts'),
    store: await import('../../functions/migrations/repository.ts'),
    dynamo: await import('../../functions/adapters/dynamo.ts'),
    jobs: await import('../../functions/jobs/repository.ts'),
    runner: await import('../../functions/jobs/runner.ts'),
    ports: await import('../../functions/adapters/ports/clock.ts'),
  };
});
afterAll(async () => {
  await stepFunctions?.close();
});

describe('data migrations on their own state machine', () => {
  it('a migration whose work outlasts a slice goes on slice after slice from its checkpoint to the end', async () => {
    const id = `slices-${randomUUID().slice(0, 8)}`;
    const run = itemsMigration(id);
    current = run;
    slices = 0;

    const outcome = await start(120_000);

    expect(outcome).toMatchObject({ state: 'SUCCEEDED', done: 1, total: 1, resumed: false });
    expect(slices).toBe(ITEMS / PAGE / STEPS_PER_SLICE);
    expect(await itemsOf(id)).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
    expect(await recordOf(id)).toMatchObject({ state: 'APPLIED', processed: ITEMS, cursor: null });
    // Every step once: each slice went on from where the one before stopped.
    expect(run.cursors).toEqual([null, ...Array.from({ length: ITEMS / PAGE - 1 }, (_, i) => String((i + 1) * PAGE))]);
  });

  it('a run stopped half-way is taken over by the next start, which resumes from the checkpoint; the deployment waits only up to its bound', async () => {
    const id = `stopped-${randomUUID().slice(0, 8)}`;
    const sfn = new SFNClient({ endpoint: sfnEndpoint });
    let executionArn = '';
    let stopped = false;
    // Someone stops the execution while the slice that reaches item 12 runs (StopExecution; a timeout ends it the same way).
    const run = itemsMigration(id, async (cursor) => {
      if (cursor !== '12' || stopped) return;
      stopped = true;
      const job = await modules.jobs.getJob('migrations', 'table');
      executionArn = `${localStateMachineArn(machine).replace(':stateMachine:', ':execution:')}:${job!.id}`;
      await sfn.send(new StopExecutionCommand({ executionArn }));
    });
    current = run;

    // A deployment that waits no longer than its bound answers at once: the migration goes on in the background.
    const first = await start(0);
    expect(first.state).toBe('RUNNING');
    await until(
      async () =>
        stopped &&
        active === 0 &&
        (await sfn.send(new DescribeExecutionCommand({ executionArn }))).status === 'ABORTED',
    );

    // Stopped half-way: part of the items, the checkpoint where the slice stopped, the run still holding the lock.
    const checkpoint = await recordOf(id);
    expect(checkpoint).toMatchObject({ state: 'RUNNING' });
    expect(Number(checkpoint!.cursor)).toBeGreaterThan(0);
    expect(Number(checkpoint!.cursor)).toBeLessThan(ITEMS);
    expect((await itemsOf(id)).length).toBe(Number(checkpoint!.cursor));
    expect((await modules.jobs.getJob('migrations', 'table'))?.state).toBe('RUNNING');

    const second = await start(120_000);

    expect(second).toMatchObject({ state: 'SUCCEEDED', resumed: true });
    expect(await itemsOf(id)).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
    expect(await recordOf(id)).toMatchObject({ state: 'APPLIED', processed: ITEMS });
    // The new run started at the checkpoint, not from the beginning.
    expect(run.cursors.filter((cursor) => cursor === null)).toHaveLength(1);
    expect(run.cursors.filter((cursor) => cursor === checkpoint!.cursor)).toHaveLength(1);
  });
});
