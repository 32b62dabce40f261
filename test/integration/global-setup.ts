import type { TestProject } from 'vitest/node';
import { DYNAMODB_PARTITION_WRITE_UNITS } from '../../lib/local/dynalite-partition-limit.ts';
import { platformEnv, provideStacks } from '../support/stack-pool.ts';

/**
 * The global secondary indexes' lag of the integration tier: DynamoDB's GSIs are eventually consistent
 * (lib/local/dynalite-index-lag.ts), so the tier runs with index reads this far behind the writes, and a test
 * passes only if the code never reads its own write through an index (and the test itself waits for a list
 * as a user reloads it). DYNALITE_INDEX_LAG_MS overrides it (0: dynalite's own, synchronous indexes).
 */
export const INTEGRATION_INDEX_LAG_MS = 100;

/**
 * A local stack (API, dynalite, s3rver, OIDC provider, simulators) for each worker of the integration tier, inside
 * AWS's limits as the cloud's: besides the index lag, each partition key takes DynamoDB's 1,000 write units a second
 * and is throttled past them (lib/local/dynalite-partition-limit.ts; DYNALITE_PARTITION_WRITE_UNITS overrides it, 0:
 * none), and every function is cut at its deployed timeout (the API's by lib/function-access.ts, the workflows' by
 * their CDK timeout; LOCAL_FUNCTION_TIMEOUTS=off leaves the API's uncut).
 */
export default async function setup(project: TestProject) {
  // How long the export waits for an import MyPay keeps in IMPORT_IN_ELAB before suspending the flow: short
  // here, so the test of that wait sees it end (the imports of the other tests take a few seconds).
  process.env.MYPAY_IMPORT_MAX_WAIT_MINUTES ||= '0.25';
  const indexLagMs =
    process.env.DYNALITE_INDEX_LAG_MS === undefined
      ? INTEGRATION_INDEX_LAG_MS
      : Number(process.env.DYNALITE_INDEX_LAG_MS);
  const partitionWriteUnits =
    process.env.DYNALITE_PARTITION_WRITE_UNITS === undefined
      ? DYNAMODB_PARTITION_WRITE_UNITS
      : Number(process.env.DYNALITE_PARTITION_WRITE_UNITS);
  const functionTimeouts = process.env.LOCAL_FUNCTION_TIMEOUTS !== 'off';
  return provideStacks(
    project,
    { web: 'none', seed: false, indexLagMs, partitionWriteUnits, functionTimeouts },
    platformEnv(project),
  );
}
