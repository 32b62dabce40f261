/**
 * dynalite reads and JSON-decodes the table's definition from LevelDB on every request (GetItem, PutItem,
 * Query…: `store.getTable`), a LevelDB round trip and a few kB of JSON per call. This keeps the definitions
 * in memory, in front of dynalite's own store (its `db` module), without changing what any request sees:
 *
 * - a definition is cached only as LevelDB returned it, and only when no write to the table definitions
 *   (CreateTable, UpdateTable, DeleteTable, the status changes they schedule) began or ended while it was read;
 * - every write to the definitions empties the cache, before it starts and again when it ends;
 * - the data-plane actions (checkStatus: GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, Batch*)
 *   get the cached object, deep-frozen (none of them changes it); DescribeTable, UpdateTable, DeleteTable
 *   and the tag actions (checkStatus false) get a copy, since UpdateTable and DeleteTable change what they
 *   read before writing it back;
 * - a table CREATING or DELETING, or one not found, is answered by dynalite itself (its error, its message).
 */

type Callback = (error: unknown, value?: any) => void;

interface TableDb {
  get(key: string, cb: Callback): void;
  put(key: string, value: unknown, cb: Callback): void;
  del(key: string, cb: Callback): void;
  batch(operations: unknown[], cb: Callback): void;
}

export interface DynaliteStore {
  tableDb: TableDb;
  getTable(name: string, checkStatus: boolean | Callback, cb?: Callback): void;
  recreate(): void;
  [key: string]: unknown;
}

export interface TableCacheStats {
  hits: number;
  misses: number;
  invalidations: number;
}

const STATS = Symbol('tableCacheStats');

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Wraps a store made by dynalite's `db.create` in place; returns the same store. */
export function cacheTableDefinitions<S extends DynaliteStore>(store: S): S {
  const cache = new Map<string, Record<string, any>>();
  const stats: TableCacheStats = { hits: 0, misses: 0, invalidations: 0 };
  // Bumped when a write to the definitions starts and when it ends: a read that saw it change is not kept.
  let writes = 0;
  const { tableDb } = store;

  const invalidate = () => {
    writes++;
    stats.invalidations++;
    cache.clear();
  };
  for (const method of ['put', 'del', 'batch'] as const) {
    const original = tableDb[method] as (...args: any[]) => unknown;
    (tableDb as any)[method] = (...args: any[]) => {
      invalidate();
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const cb = args[last] as Callback;
        args[last] = (error: unknown, value?: unknown) => {
          invalidate();
          cb(error, value);
        };
        return original.apply(tableDb, args);
      }
      // Promise form (not used by dynalite's actions today).
      return Promise.resolve(original.apply(tableDb, args)).finally(invalidate);
    };
  }

  const getTable = store.getTable;
  store.getTable = (name: string, checkStatus: boolean | Callback, cb?: Callback) => {
    const callback = (typeof checkStatus === 'function' ? checkStatus : cb) as Callback;
    // dynalite treats a callback in second place as checkStatus (truthy).
    const check = typeof checkStatus === 'function' ? true : checkStatus;
    const cached = cache.get(name);
    if (cached && !(check && (cached.TableStatus === 'CREATING' || cached.TableStatus === 'DELETING'))) {
      stats.hits++;
      process.nextTick(callback, null, check ? cached : structuredClone(cached));
      return;
    }
    stats.misses++;
    const seen = writes;
    getTable(name, check, (error: unknown, table?: Record<string, any>) => {
      // Copied before the caller sees it: UpdateTable and DeleteTable change the object they get.
      if (!error && table && seen === writes) cache.set(name, deepFreeze(structuredClone(table)));
      callback(error, table);
    });
  };

  const recreate = store.recreate;
  store.recreate = function (this: S) {
    recreate.call(this);
    cacheTableDefinitions(this);
  };
  (store as any)[STATS] = stats;
  return store;
}

/** How often the cache answered (for tests and the benchmark). */
export function tableCacheStats(store: object): TableCacheStats | undefined {
  return (store as any)[STATS];
}
