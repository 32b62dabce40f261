import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/portal-function.ts';

/**
 * The workflow Lambdas that will call MyPay bundle functions/adapters/mypay.ts. With the same esbuild
 * options as PortalFunction, the adapter must stay small and must not pull in `soap` (~650 KB minified).
 */
describe('MyPay adapter bundle', () => {
  it('bundles to under 60 KB minified, without the soap package', async () => {
    const result = await build({
      stdin: {
        contents: "export { makeMyPay } from './functions/adapters/mypay.ts';",
        resolveDir: repoRoot,
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      external: ['@aws-sdk/*', '@aws-lambda-powertools/*'],
      write: false,
      metafile: true,
    });
    const bytes = result.outputFiles[0].contents.byteLength;
    expect(bytes, `${(bytes / 1024).toFixed(1)} KB`).toBeLessThan(60 * 1024);
    expect(Object.keys(result.metafile.inputs).some((input) => input.includes('node_modules/soap/'))).toBe(false);
  });
});
