/**
 * Size of each Lambda bundle of the portal. As a script (`npx tsx lib/report-bundles.ts`) it synthesizes
 * the app into a temporary folder, with a placeholder web app, and prints function → size of index.mjs.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Stage } from 'aws-cdk-lib';
import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import type { IConstruct } from 'constructs';
import { PortalFunction } from './portal-function.ts';
import { scratchApp } from './scratch-app.ts';

export interface BundleSize {
  /** Construct path of the function, e.g. PortaleApi/bands. */
  function: string;
  bytes: number;
}

/** The index.mjs of every PortalFunction under `root`, read from the assembly `app.synth()` wrote. */
export function bundleSizes(root: IConstruct & Pick<Stage, 'outdir'>): BundleSize[] {
  return root.node
    .findAll()
    .filter((c): c is PortalFunction => c instanceof PortalFunction)
    .map((fn) => {
      const code = fn.node.findChild('Code') as Asset;
      return { function: fn.node.path, bytes: statSync(path.join(root.outdir, code.assetPath, 'index.mjs')).size };
    });
}

export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function main() {
  const portal = scratchApp();
  try {
    portal.app.synth();
    const sizes = bundleSizes(portal.app);
    const width = Math.max(...sizes.map((s) => s.function.length));
    for (const size of sizes) console.log(`${size.function.padEnd(width)}  ${kilobytes(size.bytes).padStart(10)}`);
  } finally {
    portal.dispose();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
