import type { TestProject } from 'vitest/node';
import { startTestStack } from '../support/stack.ts';

/** The whole portal as `npm start` runs it (built web app, demo data), on free ports and a fresh data folder. */
export default async function setup(project: TestProject) {
  // The export's wait for an import MyPay keeps in IMPORT_IN_ELAB, short here so the browser test of it sees
  // the flow suspended (the others' imports take seconds).
  process.env.MYPAY_IMPORT_MAX_WAIT_MINUTES ||= '0.25';
  const stack = await startTestStack({ web: 'dist', seed: true });
  project.provide('appUrl', stack.appUrl);
  project.provide('issuer', stack.issuer);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('dataDir', stack.dataDir);
  project.provide('s3Endpoint', stack.s3Endpoint);
  project.provide('sesEndpoint', stack.sesEndpoint);
  project.provide('ioUrl', stack.ioUrl);
  project.provide('pdndUrl', stack.pdndUrl);
  project.provide('inpsUrl', stack.inpsUrl);
  project.provide('myPayEndpoint', stack.myPayEndpoint);
  return () => stack.close();
}
