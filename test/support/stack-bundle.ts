import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const stackProcess = fileURLToPath(new URL('./stack-process.ts', import.meta.url));

/**
 * test/support/stack-process.ts and the portal's code it starts, as one ES module built by esbuild, as the cloud's
 * Lambdas are: a stack process then loads one file with Node's own loader instead of a thousand TypeScript files,
 * and every package import, through tsx's hooks (about a third of a stack's start-up CPU). Packages stay outside
 * the bundle, loaded from node_modules as before. Each file keeps its own `import.meta.url`, so the paths it
 * resolves from it (WSDLs, the dynalite thread's entry, `createRequire`) are the same as from its source.
 * The bundle goes under node_modules/.cache (bare imports resolve from there); `remove` deletes it.
 */
export async function bundleStackProcess(name: string): Promise<{ file: string; remove(): Promise<void> }> {
  const folder = path.join(repoRoot, 'node_modules/.cache/portale-test-stacks');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${name}-${process.pid}-${Date.now()}.mjs`);
  await build({
    entryPoints: [stackProcess],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(bundle) {
          bundle.onLoad({ filter: /\.ts$/ }, async ({ path: source }) => ({
            contents: (await readFile(source, 'utf8')).replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(source).href),
            ),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  return { file, remove: () => rm(file, { force: true }).then(() => rm(`${file}.map`, { force: true })) };
}
