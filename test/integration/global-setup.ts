import type { TestProject } from 'vitest/node';
import { startTestStack } from '../support/stack.ts';

/** One local stack (API, dynalite, s3rver, OIDC provider) for every integration test file. */
export default async function setup(project: TestProject) {
  const stack = await startTestStack({ web: 'none', seed: false });
  project.provide('appUrl', stack.appUrl);
  project.provide('issuer', stack.issuer);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('dataDir', stack.dataDir);
  project.provide('s3Endpoint', stack.s3Endpoint);
  project.provide('myPayEndpoint', stack.myPayEndpoint);
  project.provide('sesEndpoint', stack.sesEndpoint);
  project.provide('ioUrl', stack.ioUrl);
  project.provide('pdndUrl', stack.pdndUrl);
  project.provide('inpsUrl', stack.inpsUrl);
  return () => stack.close();
}
