import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { divertRequests, type DynaliteRequest, type DynaliteResponse } from './dynalite-in-process.ts';
import { startDynamo, type Closable, type DynamoOptions } from './stores.ts';

/**
 * dynalite in a thread of its own. The local stack is one Node process: with dynalite in it, its work
 * (JSON, validation, LevelDB and the index entries of every write) shared one core with the functions
 * calling it, and the machine's other core stayed idle. Here it runs in a worker thread: it listens on its
 * port as before (other processes, the tests' own clients), and this process's SDK clients reach it through
 * a message channel instead of a socket (lib/local/dynalite-in-process.ts diverts their requests).
 * DYNALITE_THREAD=off keeps it in the main thread (lib/local/stores.ts startDynamo).
 */
export async function startDynamoThread(
  dataDir: string,
  dynamoPort: number,
  options: Pick<DynamoOptions, 'indexLagMs' | 'partitionWriteUnits'> = {},
): Promise<Closable> {
  const worker = new Worker(new URL('./dynalite-thread-entry.mjs', import.meta.url), {
    workerData: {
      dataDir,
      dynamoPort,
      indexLagMs: options.indexLagMs,
      partitionWriteUnits: options.partitionWriteUnits,
    },
  });
  const pending = new Map<number, { resolve: (response: DynaliteResponse) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | null = null;
  let closed: () => void = () => undefined;
  const failAll = (error: Error) => {
    failure = error;
    closed();
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const [first] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => Promise.reject(error)),
  ])) as [{ ready?: true; failed?: string }];
  if (!first.ready) {
    await worker.terminate();
    throw new Error(`dynalite did not start: ${first.failed}`);
  }
  worker.on('message', (message: { id?: number; response?: DynaliteResponse; error?: string; closed?: true }) => {
    if (message.closed) closed();
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id!);
    if (message.error !== undefined) waiting.reject(new Error(message.error));
    else waiting.resolve(message.response!);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the dynalite thread ended (exit code ${code})`)));

  const stopDiverting = divertRequests('127.0.0.1', dynamoPort, (request: DynaliteRequest) => {
    if (failure) return Promise.reject(failure);
    return new Promise<DynaliteResponse>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, request });
    });
  });

  return {
    async close() {
      stopDiverting();
      if (failure) return;
      // dynalite closes its server and LevelDB in its thread (what is written stays on disk), then the thread goes.
      await new Promise<void>((resolve) => {
        closed = resolve;
        worker.postMessage({ close: true });
      });
      await worker.terminate();
    },
  };
}

/** dynalite as the local stack runs it (the portal and the benchmarks): in its own thread, or here with DYNALITE_THREAD=off. */
export const startLocalDynamo = (
  dataDir: string,
  port: number,
  options: Pick<DynamoOptions, 'indexLagMs' | 'partitionWriteUnits'> = {},
): Promise<Closable> =>
  process.env.DYNALITE_THREAD === 'off'
    ? startDynamo(dataDir, port, options)
    : startDynamoThread(dataDir, port, options);
