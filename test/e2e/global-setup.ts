import type { TestProject } from 'vitest/node';
import { platformEnv, provideStacks } from '../support/stack-pool.ts';

/** The whole portal as `npm start` runs it (built web app, demo data), on free ports and a fresh data folder, for each worker. */
export default async function setup(project: TestProject) {
  // The export's wait for an import MyPay keeps in IMPORT_IN_ELAB, short here so the browser test of it sees
  // the flow suspended (the others' imports take seconds).
  process.env.MYPAY_IMPORT_MAX_WAIT_MINUTES ||= '0.25';
  return provideStacks(project, { web: 'dist', seed: true }, platformEnv(project));
}
