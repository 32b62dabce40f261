import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AssetHashType, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { repoRoot } from './portal-function.ts';

const pdfjsDir = path.dirname(createRequire(path.join(repoRoot, 'package.json')).resolve('pdfjs-dist/package.json'));

/** The pdfjs-dist version the code is tested with: the one installed from package-lock.json. */
export const pdfjsVersion: string = JSON.parse(readFileSync(path.join(pdfjsDir, 'package.json'), 'utf8')).version;

/**
 * What the layer holds, under `nodejs/node_modules/pdfjs-dist/` (where the Lambda runtime resolves a
 * layer's packages, ES-module imports included): the two files functions/isee-extraction/pdfjs.ts imports,
 * with the package's manifest and its licence (Apache-2.0 asks that it travels with the code).
 */
export const pdfjsLayerFiles = [
  'package.json',
  'LICENSE',
  'legacy/build/pdf.min.mjs',
  'legacy/build/pdf.worker.min.mjs',
];

/**
 * pdfjs-dist for the ReadAttestation Lambda, which reads a digital attestation from its own text layer:
 * 1.8 MB of minified code, 12 times the 150 KB a Lambda's bundle may weigh (design.md §6). In a layer of its
 * own it is deployed once per pdfjs version instead of with every change of the function's code, and the
 * function's bundle carries only the portal's code. The files are copied from node_modules at synth time
 * (no Docker); the asset's hash is that of the files, so a new version of pdfjs-dist makes a new layer version.
 */
export function pdfjsLayer(scope: Construct): lambda.ILayerVersion {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('PdfjsLayer') as lambda.ILayerVersion | undefined;
  return (
    existing ??
    new lambda.LayerVersion(stack, 'PdfjsLayer', {
      description: `pdfjs-dist ${pdfjsVersion}, minified legacy build: the text layer of the ISEE attestations`,
      compatibleRuntimes: [lambda.Runtime.NODEJS_22_X],
      compatibleArchitectures: [lambda.Architecture.ARM_64],
      license: 'Apache-2.0',
      code: lambda.Code.fromAsset(pdfjsDir, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Required by CDK, never started: the local copy below always succeeds.
          image: lambda.Runtime.NODEJS_22_X.bundlingImage,
          local: {
            tryBundle(outputDir) {
              const packageDir = path.join(outputDir, 'nodejs/node_modules/pdfjs-dist');
              for (const file of pdfjsLayerFiles) {
                mkdirSync(path.dirname(path.join(packageDir, file)), { recursive: true });
                copyFileSync(path.join(pdfjsDir, file), path.join(packageDir, file));
              }
              return true;
            },
          },
        },
      }),
    })
  );
}
