// The dynalite thread's entry (lib/local/dynalite-thread.ts): plain JavaScript, so that it starts whatever
// loaded the parent (tsx for npm start, vite-node under vitest), then the TypeScript side through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('./dynalite-thread-worker.ts', import.meta.url);
