/**
 * pdfjs-dist's legacy build (the one that runs on Node 20) loads core-js polyfills that replace built-ins the
 * whole process shares: JSON.stringify and JSON.parse become about nine times slower, Array.prototype.push
 * and Function.prototype.toString are replaced too. The local stack runs in one process, where every
 * DynamoDB call (the SDK and dynalite both speak JSON) paid for it once an ISEE had been read. The native
 * ones are put back as soon as pdfjs has loaded; what it adds without replacing anything
 * (Promise.withResolvers, Uint8Array.prototype.toHex…) stays, since pdfjs needs it on Node 20.
 *
 * The worker's code is imported here and handed to pdfjs as `globalThis.pdfjsWorker` (pdfjs then runs it
 * in this thread, as it does on Node), instead of pdfjs importing it by a file path at run time: a
 * bundled Lambda has no such file. The ReadAttestation Lambda imports this module only when a PDF comes.
 */
const replacedByPolyfills = [
  [JSON, 'stringify'],
  [JSON, 'parse'],
  [Array.prototype, 'push'],
  [Function.prototype, 'toString'],
] as const;
const natives = replacedByPolyfills.map(([owner, name]) => [owner, name, Object.getOwnPropertyDescriptor(owner, name)!] as const);
const [pdfjs, worker] = await Promise.all([
  import('pdfjs-dist/legacy/build/pdf.mjs'),
  // @ts-expect-error -- pdfjs-dist ships no type declarations for its worker module
  import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
]);
for (const [owner, name, descriptor] of natives) Object.defineProperty(owner, name, descriptor);
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;

export const { getDocument, OPS } = pdfjs;
