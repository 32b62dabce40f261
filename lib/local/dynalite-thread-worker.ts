import { parentPort, workerData } from 'node:worker_threads';
import { handleRequest, requestListenerOf, type DynaliteRequest } from './dynalite-in-process.ts';
import { startDynamo } from './stores.ts';

/**
 * Inside the dynalite thread (lib/local/dynalite-thread.ts): dynalite on its port, as in the main thread,
 * and every request the main thread passes answered by dynalite's own request handler.
 */
const port = parentPort!;
const { dataDir, dynamoPort, indexLagMs, partitionWriteUnits } = workerData as {
  dataDir: string;
  dynamoPort: number;
  indexLagMs?: number;
  partitionWriteUnits?: number;
};

try {
  const dynamo = await startDynamo(dataDir, dynamoPort, { inProcess: false, indexLagMs, partitionWriteUnits });
  const listener = requestListenerOf(dynamo.server);
  port.on('message', (message: { id: number; request: DynaliteRequest } | { close: true }) => {
    if ('close' in message) {
      void dynamo.close().then(() => port.postMessage({ closed: true }));
      return;
    }
    handleRequest(listener, message.request).then(
      (response) => port.postMessage({ id: message.id, response }),
      (error: Error) => port.postMessage({ id: message.id, error: error.message }),
    );
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ failed: (error as Error).message });
}
