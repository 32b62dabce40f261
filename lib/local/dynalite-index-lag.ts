import { createRequire } from 'node:module';

/**
 * DynamoDB's global secondary indexes are eventually consistent: a write is answered once the table holds it,
 * and reaches the indexes afterwards, "usually within a fraction of a second" (Developer Guide, "Using Global
 * Secondary Indexes in DynamoDB", Reading data from a GSI / Data synchronization between tables and GSIs:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html); a Query on a GSI cannot ask for
 * a consistent read. dynalite writes the index entries before it answers, so code that reads its own write
 * through an index works on dynalite and not on DynamoDB.
 *
 * With a lag, dynalite answers a write as soon as the item (and any local secondary index, which is
 * consistent) is written, and applies the write's global-index entries `lagMs` later, in the order the writes
 * were made: a GSI read then sees the table as it was at least `lagMs` ago (an updated item still under its old
 * key, a deleted one still listed, a new one missing), as DynamoDB's may. Reads of the table itself
 * (GetItem, BatchGetItem, a Query without IndexName) see every write at once, as DynamoDB's strongly
 * consistent reads do.
 *
 * It wraps dynalite's `db.updateIndexes` (called by PutItem, UpdateItem, DeleteItem and BatchWriteItem) for
 * the stores given a lag; others are untouched. `flush()` applies what is pending (before dynalite closes, so
 * LevelDB holds every index entry).
 */

type Callback = (error?: unknown) => void;
type UpdateIndexes = (
  store: object,
  table: Record<string, unknown>,
  existingItem: unknown,
  item: unknown,
  cb: Callback,
) => void;

const require = createRequire(import.meta.url);
const db: { updateIndexes: UpdateIndexes } = require('dynalite/db');
const original = db.updateIndexes;
const lags = new WeakMap<object, IndexLag>();

export interface IndexLag {
  readonly lagMs: number;
  /** Applies every pending index write now, in order. */
  flush(): Promise<void>;
}

/** Gives the global indexes of this dynalite store (from dynalite's `db.create`) a lag of `lagMs`. */
export function lagGlobalIndexes(store: object, lagMs: number): IndexLag {
  const pending: { due: number; apply: () => Promise<void> }[] = [];
  let pumping: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;

  const pump = async () => {
    while (pending.length) {
      const wait = pending[0]!.due - Date.now();
      if (wait > 0)
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, wait);
        });
      wake = null;
      // One at a time, oldest first: an item's later write moves or removes the entry an earlier one made.
      await pending.shift()?.apply();
    }
    pumping = null;
  };

  const lag: IndexLag & { defer(apply: () => Promise<void>): void } = {
    lagMs,
    defer(apply) {
      pending.push({ due: Date.now() + lagMs, apply });
      pumping ??= pump();
    },
    async flush() {
      for (const entry of pending) entry.due = 0;
      if (timer) clearTimeout(timer);
      wake?.();
      await pumping;
    },
  };
  lags.set(store, lag);
  return lag;
}

db.updateIndexes = function updateIndexes(store, table, existingItem, item, cb) {
  const lag = lags.get(store) as (IndexLag & { defer(apply: () => Promise<void>): void }) | undefined;
  const globals = table.GlobalSecondaryIndexes as unknown[] | undefined;
  if (!lag || !globals?.length) return original(store, table, existingItem, item, cb);
  const locals = { ...table, GlobalSecondaryIndexes: undefined };
  const onlyGlobals = { ...table, LocalSecondaryIndexes: undefined };
  original(store, locals, existingItem, item, (error) => {
    if (error) return cb(error);
    lag.defer(
      () =>
        new Promise<void>((resolve) =>
          original(store, onlyGlobals, existingItem, item, (failed) => {
            // An index write that fails here has no caller left to tell: say so, as DynamoDB's own alarms would.
            if (failed) console.error('dynalite index lag: an index write failed', failed);
            resolve();
          }),
        ),
    );
    cb();
  });
};
