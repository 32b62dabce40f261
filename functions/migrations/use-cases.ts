import type { Clock } from '../adapters/ports/clock.ts';
import type { MigrationRecord } from '../domain/migration-record.ts';

/**
 * Data migrations: a change of what the table holds for data stored before a deploy (a new search item, a
 * new index key) written once for the items already there, by the deployment itself (lib/migrations.ts: a
 * trigger after the API, then a state machine looping slices) and at every local start (lib/local/runtime.ts).
 *
 * A migration is an id, never reused (a changed migration is a new id), and a `step`: bounded work from a
 * cursor (one page, seconds) that answers the next cursor, or null when it is done. Every step must be
 * idempotent: a step cut short and run again, or a whole migration run twice, writes the same items.
 * The table records each migration (functions/migrations/repository.ts): its cursor after every step, so a
 * run that stops half-way goes on from there, and APPLIED at the end, so it never runs again.
 */
export interface Migration {
  id: string;
  description: string;
  step(cursor: string | null): Promise<{ cursor: string | null; processed: number }>;
}

export interface MigrationStore {
  listMigrations(): Promise<MigrationRecord[]>;
  saveMigration(record: MigrationRecord): Promise<void>;
}

export interface MigrationProgress {
  /** Every migration is applied. */
  finished: boolean;
  /** The migrations this run applied, in order. */
  applied: string[];
  /** How many of the catalogue are applied, and how many it holds. */
  done: number;
  total: number;
}

export interface MigrationDeps {
  store: MigrationStore;
  migrations: readonly Migration[];
  clock: Clock;
  /** Progress lines (the function's structured log in the cloud). */
  log: (message: string, fields: Record<string, unknown>) => void;
  /** Elapsed-time source of the slice budget (ms); Date.now by default. */
  elapsed?: () => number;
}

export function makeMigrationRunner({ store, migrations, clock, log, elapsed = () => Date.now() }: MigrationDeps) {
  const ids = new Set<string>();
  for (const migration of migrations) {
    if (ids.has(migration.id)) throw new Error(`Migration ${migration.id} is listed twice`);
    ids.add(migration.id);
  }

  /**
   * Runs the pending migrations, in the catalogue's order, step after step, until all are applied or
   * `budgetMs` is spent (then `finished` is false and the next slice goes on from the recorded cursor).
   * `keepGoing`, asked after every step before its checkpoint, is the run's heartbeat: false (the run was
   * replaced, e.g. after a stop) ends the slice there without recording the step, so a stopped run's slice
   * never works beside the new one for more than a step, nor moves a checkpoint back.
   */
  async function runSlice(
    budgetMs: number,
    keepGoing: (progress: MigrationProgress) => Promise<boolean> = async () => true,
  ): Promise<MigrationProgress> {
    const started = elapsed();
    const records = new Map((await store.listMigrations()).map((record) => [record.id, record]));
    const applied: string[] = [];
    const progress = (finished: boolean): MigrationProgress => ({
      finished,
      applied,
      done: migrations.filter((m) => records.get(m.id)?.state === 'APPLIED').length,
      total: migrations.length,
    });
    for (const migration of migrations) {
      let record = records.get(migration.id);
      if (record?.state === 'APPLIED') continue;
      if (!record) {
        const at = clock.now().toISOString();
        record = {
          id: migration.id,
          description: migration.description,
          state: 'RUNNING',
          cursor: null,
          processed: 0,
          startedAt: at,
          updatedAt: at,
          appliedAt: null,
        };
        log('Migration started', { migration: migration.id, description: migration.description });
      } else {
        log('Migration resumed', { migration: migration.id, processed: record.processed, cursor: record.cursor });
      }
      for (;;) {
        const step = await migration.step(record.cursor);
        // A run replaced meanwhile (stopped, taken over) records nothing: its step is redone from the checkpoint.
        if (!(await keepGoing(progress(false)))) return progress(false);
        const at = clock.now().toISOString();
        const done = step.cursor === null;
        record = {
          ...record,
          cursor: step.cursor,
          processed: record.processed + step.processed,
          updatedAt: at,
          ...(done ? { state: 'APPLIED' as const, appliedAt: at } : {}),
        };
        await store.saveMigration(record);
        records.set(record.id, record);
        if (done) {
          log('Migration applied', { migration: migration.id, processed: record.processed });
          applied.push(migration.id);
          break;
        }
        log('Migration progress', { migration: migration.id, processed: record.processed });
        if (elapsed() - started >= budgetMs) return progress(false);
      }
    }
    return progress(true);
  }

  return {
    runSlice,
    /**
     * A new, empty table (the local start's first run): the code writes every item in its newest shape, so each
     * migration is recorded applied, none of its items gone through, without walking units that hold nothing
     * (the audit days alone are a Query for every day since 2025-01-01).
     */
    async recordAllApplied(): Promise<string[]> {
      const at = clock.now().toISOString();
      for (const { id, description } of migrations) {
        await store.saveMigration({
          id,
          description,
          state: 'APPLIED',
          cursor: null,
          processed: 0,
          startedAt: at,
          updatedAt: at,
          appliedAt: at,
        });
        log('Migration applied', { migration: id, processed: 0 });
      }
      return migrations.map(({ id }) => id);
    },
    /** Every pending migration to the end, in one go (the local start: a few items). */
    async runAll(): Promise<string[]> {
      const applied: string[] = [];
      for (;;) {
        const progress = await runSlice(Number.POSITIVE_INFINITY);
        applied.push(...progress.applied);
        if (progress.finished) return applied;
      }
    },
  };
}

export type MigrationRunner = ReturnType<typeof makeMigrationRunner>;

/**
 * A walk over units (a call, a call and year…) in a fixed order, one page of one unit a step: the cursor
 * is the unit and where its pages stand. Units are read again at every step, so one deleted meanwhile is
 * passed over; one created meanwhile was written by the new code already.
 */
export function walkUnits(
  units: () => Promise<string[]>,
  page: (
    unit: string,
    start: Record<string, unknown> | undefined,
  ) => Promise<{ written: number; next?: Record<string, unknown> }>,
): Migration['step'] {
  return async (cursor) => {
    const at = cursor ? (JSON.parse(cursor) as { unit: string; start?: Record<string, unknown> }) : null;
    const all = [...(await units())].sort();
    const unit = at ? all.find((candidate) => candidate >= at.unit) : all[0];
    if (unit === undefined) return { cursor: null, processed: 0 };
    const result = await page(unit, at?.unit === unit ? at.start : undefined);
    if (result.next) return { cursor: JSON.stringify({ unit, start: result.next }), processed: result.written };
    const following = all.find((candidate) => candidate > unit);
    return { cursor: following === undefined ? null : JSON.stringify({ unit: following }), processed: result.written };
  };
}

/** A walk over one list, one page a step: the cursor is where the next page starts. */
export function walkPages(
  page: (start: Record<string, unknown> | undefined) => Promise<{ written: number; next?: Record<string, unknown> }>,
): Migration['step'] {
  return async (cursor) => {
    const result = await page(cursor ? JSON.parse(cursor) : undefined);
    return { cursor: result.next ? JSON.stringify(result.next) : null, processed: result.written };
  };
}
