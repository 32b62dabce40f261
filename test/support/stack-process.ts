import { startTestStack, type TestStackPorts } from './stack.ts';
import type { StartOptions } from '../../lib/local/runtime.ts';

/**
 * One test stack in its own process (test/support/stack-pool.ts forks it): the Lambdas read their
 * configuration from process.env at cold start, so two stacks cannot share a process. It answers with the
 * stack's addresses and the environment it set, and closes when its parent lets go of it.
 */
const {
  options,
  ports,
  env: projectEnv,
} = JSON.parse(process.env.TEST_STACK ?? '{}') as {
  options: StartOptions;
  ports: TestStackPorts;
  env?: Record<string, string>;
};
const before = { ...process.env };
Object.assign(process.env, projectEnv);
const stack = await startTestStack(options, undefined, ports);
const { close, ...addresses } = stack;
// What the stack set for its Lambdas (TABLE_NAME, DYNAMODB_ENDPOINT…): a test that calls product code directly needs it too.
const env = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => before[name] !== value));
process.send?.({ ...addresses, env });

let closing = false;
async function shutDown() {
  if (closing) return;
  closing = true;
  await close().catch(() => undefined);
  process.exit(0);
}
process.on('disconnect', shutDown);
process.on('SIGTERM', shutDown);
