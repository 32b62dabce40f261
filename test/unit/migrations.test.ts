import { describe, expect, it } from 'vitest';
import type { MigrationRecord } from '../../functions/domain/migration-record.ts';
import {
  makeMigrationRunner,
  walkUnits,
  type Migration,
  type MigrationStore,
} from '../../functions/migrations/use-cases.ts';
import { tickingClock } from '../support/in-memory.ts';

/** The migrations' records as the table keeps them. */
function memoryStore(): MigrationStore & { records: Map<string, MigrationRecord> } {
  const records = new Map<string, MigrationRecord>();
  return {
    records,
    listMigrations: async () => [...records.values()].map((r) => structuredClone(r)),
    saveMigration: async (record) => void records.set(record.id, structuredClone(record)),
  };
}

/** A migration over `items` items, `pageSize` a step: it writes each item it goes through into `written`, and may fail once at a given page. */
function pagedMigration(id: string, items: number, pageSize: number) {
  const written: number[] = [];
  const cursors: (string | null)[] = [];
  let failAtPage: number | null = null;
  const migration: Migration = {
    id,
    description: `migration ${id}`,
    async step(cursor) {
      cursors.push(cursor);
      const from = cursor === null ? 0 : Number(cursor);
      if (failAtPage !== null && from / pageSize === failAtPage) {
        failAtPage = null;
        throw new Error('Task timed out');
      }
      const to = Math.min(items, from + pageSize);
      for (let i = from; i < to; i++) written.push(i);
      return { cursor: to < items ? String(to) : null, processed: to - from };
    },
  };
  return { migration, written, cursors, failAt: (page: number) => (failAtPage = page) };
}

function setup(migrations: Migration[], elapsedPerStep = 0) {
  const store = memoryStore();
  const log: { message: string; fields: Record<string, unknown> }[] = [];
  let elapsed = 0;
  const runner = makeMigrationRunner({
    store,
    migrations,
    clock: tickingClock('2026-05-01T08:00:00.000Z'),
    log: (message, fields) => {
      log.push({ message, fields });
      if (message === 'Migration progress' || message === 'Migration applied') elapsed += elapsedPerStep;
    },
    elapsed: () => elapsed,
  });
  return { runner, store, log };
}

describe('the data migrations runner', () => {
  it('on a new table records every migration applied without running a step, and a run after it does nothing', async () => {
    const users = pagedMigration('users-v1', 5, 2);
    const rows = pagedMigration('rows-v1', 3, 2);
    const { runner, store } = setup([users.migration, rows.migration]);
    expect(await runner.recordAllApplied()).toEqual(['users-v1', 'rows-v1']);
    expect(users.cursors).toEqual([]);
    expect(rows.cursors).toEqual([]);
    expect([...store.records.values()].map((r) => [r.id, r.state, r.processed, r.cursor])).toEqual([
      ['users-v1', 'APPLIED', 0, null],
      ['rows-v1', 'APPLIED', 0, null],
    ]);
    expect(await runner.runAll()).toEqual([]);
    expect(users.written).toEqual([]);
  });

  it('applies the pending migrations in order, records each with what it went through, and a second run does nothing', async () => {
    const users = pagedMigration('users-v1', 5, 2);
    const rows = pagedMigration('rows-v1', 3, 2);
    const { runner, store, log } = setup([users.migration, rows.migration]);
    expect(await runner.runAll()).toEqual(['users-v1', 'rows-v1']);
    expect(users.written).toEqual([0, 1, 2, 3, 4]);
    expect(rows.written).toEqual([0, 1, 2]);
    expect([...store.records.values()].map((r) => [r.id, r.state, r.processed, r.cursor])).toEqual([
      ['users-v1', 'APPLIED', 5, null],
      ['rows-v1', 'APPLIED', 3, null],
    ]);
    // Progress in the log: started, each page, applied.
    expect(log.filter((l) => l.fields.migration === 'users-v1').map((l) => [l.message, l.fields.processed])).toEqual([
      ['Migration started', undefined],
      ['Migration progress', 2],
      ['Migration progress', 4],
      ['Migration applied', 5],
    ]);

    const before = structuredClone([...store.records.values()]);
    expect(await runner.runAll()).toEqual([]);
    expect(users.cursors).toHaveLength(3);
    expect([...store.records.values()]).toEqual(before);
  });

  it('goes on from the last page written when a run stops half-way (a Lambda timing out), never from the start', async () => {
    const users = pagedMigration('users-v1', 7, 2);
    const { runner, store } = setup([users.migration]);
    users.failAt(2);
    await expect(runner.runSlice(Number.POSITIVE_INFINITY)).rejects.toThrow('Task timed out');
    expect(store.records.get('users-v1')).toMatchObject({ state: 'RUNNING', cursor: '4', processed: 4 });

    expect(await runner.runAll()).toEqual(['users-v1']);
    expect(users.cursors).toEqual([null, '2', '4', '4', '6']);
    expect(users.written).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(store.records.get('users-v1')).toMatchObject({ state: 'APPLIED', processed: 7 });
  });

  it('stops a slice once its time is spent and says so; the next slice goes on where it stopped', async () => {
    const users = pagedMigration('users-v1', 10, 2);
    const rows = pagedMigration('rows-v1', 2, 2);
    // Each step "takes" a minute; a slice may spend three.
    const { runner } = setup([users.migration, rows.migration], 60_000);
    expect(await runner.runSlice(180_000)).toEqual({ finished: false, applied: [], done: 0, total: 2 });
    expect(users.written).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await runner.runSlice(180_000)).toEqual({
      finished: true,
      applied: ['users-v1', 'rows-v1'],
      done: 2,
      total: 2,
    });
    expect(users.written).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('refuses a catalogue that lists an id twice', () => {
    const users = pagedMigration('users-v1', 1, 1);
    expect(() => setup([users.migration, users.migration])).toThrow(/listed twice/);
  });
});

describe('a walk over units (calls, call-years)', () => {
  it('reads every unit page by page in a fixed order, and passes over a unit deleted meanwhile', async () => {
    const units = new Map<string, number[]>([
      ['call-b', [1, 2, 3]],
      ['call-a', [1]],
      ['call-c', [1, 2]],
    ]);
    const seen: string[] = [];
    const step = walkUnits(
      async () => [...units.keys()],
      async (unit, start) => {
        const from = (start?.at as number | undefined) ?? 0;
        const page = units.get(unit)!.slice(from, from + 2);
        seen.push(...page.map((n) => `${unit}:${n}`));
        return { written: page.length, next: from + 2 < units.get(unit)!.length ? { at: from + 2 } : undefined };
      },
    );
    let cursor: string | null = null;
    let steps = 0;
    do {
      ({ cursor } = await step(cursor));
      steps += 1;
      if (steps === 2) units.delete('call-c');
    } while (cursor !== null);
    expect(seen).toEqual(['call-a:1', 'call-b:1', 'call-b:2', 'call-b:3']);
    expect(steps).toBe(3);
  });
});
