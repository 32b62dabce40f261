/**
 * openapi.json, written at build time: the public function serves the file as it is, so that its bundle carries
 * none of the routes' schemas (issue 22). The CDK bundling of that function runs this script
 * (`tsx lib/openapi-file.ts <file>`) and puts the file beside index.mjs; the local stack writes it into its
 * data folder when it starts and names it in OPENAPI_FILE.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openApiDocument } from './openapi.ts';

export const writeOpenApiFile = (file: string) => writeFileSync(file, JSON.stringify(openApiDocument()));

const script = fileURLToPath(import.meta.url);
const tsx = path.resolve(path.dirname(script), '../node_modules/.bin/tsx');
/** The shell command that writes the file (a bundling step runs it). */
export const openApiFileCommand = (file: string) => [tsx, script, file].map((arg) => JSON.stringify(arg)).join(' ');

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeOpenApiFile(process.argv[2]!);
