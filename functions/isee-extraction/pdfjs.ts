import CSSMatrix from '@thednp/dommatrix';

/**
 * pdfjs-dist's legacy build (the one that runs on Node 20) loads core-js polyfills that replace built-ins the
 * whole process shares: JSON.stringify and JSON.parse become about nine times slower, Array.prototype.push
 * and Function.prototype.toString are replaced too. The local stack runs in one process, where every
 * DynamoDB call (the SDK and dynalite both speak JSON) paid for it once an ISEE had been read. The native
 * ones are put back as soon as pdfjs has loaded; what it adds without replacing anything
 * (Promise.withResolvers, Uint8Array.prototype.toHex…) stays, since pdfjs needs it on Node 20.
 *
 * The worker's code is imported here and handed to pdfjs as `globalThis.pdfjsWorker` (pdfjs then runs it
 * in this thread, as it does on Node), instead of pdfjs importing it by a file path it computes at run time.
 *
 * The minified files of the legacy build (the same code in 1.8 MB instead of 3.4 MB): in the cloud they come
 * from the ReadAttestation Lambda's own layer (lib/pdfjs-layer.ts), left out of its bundle, and that Lambda
 * imports this module only when a PDF comes.
 */
const replacedByPolyfills = [
  [JSON, 'stringify'],
  [JSON, 'parse'],
  [Array.prototype, 'push'],
  [Function.prototype, 'toString'],
] as const;
const natives = replacedByPolyfills.map(
  ([owner, name]) => [owner, name, Object.getOwnPropertyDescriptor(owner, name)!] as const,
);
// Node has no DOMMatrix, and pdfjs builds one as it loads: it takes it from @napi-rs/canvas, a native package
// with no copy in the Lambda (the import fails: "DOMMatrix is not defined"). The shim pdf.js itself once listed
// is enough for reading text, here and in the cloud alike.
(globalThis as { DOMMatrix?: unknown }).DOMMatrix ??= CSSMatrix;
const [pdfjs, worker] = await Promise.all([
  import('pdfjs-dist/legacy/build/pdf.min.mjs'),
  // @ts-expect-error -- pdfjs-dist ships no type declarations for its worker module
  import('pdfjs-dist/legacy/build/pdf.worker.min.mjs'),
]);
for (const [owner, name, descriptor] of natives) Object.defineProperty(owner, name, descriptor);
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;

export const { getDocument, OPS } = pdfjs;
