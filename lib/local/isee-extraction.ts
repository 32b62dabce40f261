import { iseeIdFromKey } from '../../functions/domain/isee-extraction.ts';
import type { Closable, ObjectCreatedSource } from './stores.ts';

/**
 * The cloud's ISEE reading on this machine: when `isee/<id>/document` is stored in the documents bucket,
 * the same state-machine definition runs in aws-local-stepfunctions. The Lambda steps run the same
 * functions as in the cloud; in ReadAttestation the local text source (the PDF's text layer, tesseract OCR)
 * stands in for Textract. Runs in the background: the upload's response never waits for it; a failure is logged
 * and marks the ISEE FAILED, as in the cloud.
 */
export async function startIseeExtraction(storage: ObjectCreatedSource, documentsBucket: string): Promise<Closable> {
  // aws-local-stepfunctions 3 uses Promise.withResolvers, which Node 20 lacks: define it before loading it.
  (Promise as unknown as { withResolvers?: unknown }).withResolvers ??= function withResolvers<T>() {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
  // The functions read their configuration (TABLE_NAME, DOCUMENTS_BUCKET) when loaded, as at a cold start.
  const [
    { StateMachine },
    { HeadObjectCommand },
    files,
    { s3Client },
    { readAttestation },
    { writeExtraction },
    { extractionDefinition },
    { createLocalTextSource },
  ] = await Promise.all([
    import('aws-local-stepfunctions'),
    import('@aws-sdk/client-s3'),
    import('../../functions/adapters/files.ts'),
    import('../../functions/adapters/s3-client.ts'),
    import('../../functions/isee-extraction/read-attestation.ts'),
    import('../../functions/isee-extraction/write-extraction.ts'),
    import('../../functions/isee-extraction/state-machine.ts'),
    import('./local-text.ts'),
  ]);

  const textSource = createLocalTextSource();
  const localArn = (name: string) => `arn:aws:lambda:eu-south-1:000000000000:function:${name}`;
  const stateMachine = new StateMachine(
    extractionDefinition({ read: localArn('ReadAttestation'), write: localArn('WriteExtraction') }) as never,
  );
  const read = readAttestation(async (input) => textSource.read(await files.readFile(input.key)));

  type Json = any; // the steps' payloads, as the state machine passes them
  const taskResourceLocalHandlers = {
    HeadDocument: async (input: Json) => {
      const { s3 } = await s3Client();
      const head = await s3.send(new HeadObjectCommand({ Bucket: input.Bucket, Key: input.Key }));
      return { ContentType: head.ContentType ?? 'application/octet-stream' };
    },
    ReadAttestation: async (input: Json) => ({ StatusCode: 200, Payload: await read(input.Payload) }),
    SaveExtraction: async (input: Json) => ({ StatusCode: 200, Payload: await writeExtraction(input.Payload) }),
    MarkFailed: async (input: Json) => ({ StatusCode: 200, Payload: await writeExtraction(input.Payload) }),
  };

  const running = new Map<Promise<unknown>, () => void>();
  storage.onObjectCreated((bucket, key) => {
    if (bucket !== documentsBucket || !iseeIdFromKey(key)) return;
    const event = {
      version: '0',
      source: 'aws.s3',
      'detail-type': 'Object Created',
      detail: { bucket: { name: bucket }, object: { key } },
    };
    const { result, abort } = stateMachine.run(event, {
      overrides: { taskResourceLocalHandlers },
      noThrowOnAbort: true,
    });
    const execution = result
      .catch((error: Error) => console.warn(`Lettura ISEE non riuscita (${key}): ${error.message}`))
      .finally(() => running.delete(execution));
    running.set(execution, abort);
  });

  return {
    async close() {
      // A reading still waiting for its ISEE record (or still running OCR) is dropped, as a stopped machine would.
      for (const abort of running.values()) abort();
      await Promise.allSettled([...running.keys()]);
      await textSource.close();
    },
  };
}
