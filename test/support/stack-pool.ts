import { fork, type ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import type { StartOptions } from '../../lib/local/runtime.ts';
import { bundleStackProcess } from './stack-bundle.ts';
import { freeStackPorts, type TestStack, type TestStackPorts } from './stack.ts';

/** A stack's addresses, and the environment variables it set for its Lambdas (test/support/stack-env.ts). */
export type StackAddresses = Omit<TestStack, 'close'> & { env: Record<string, string> };

function startStackProcess(bundle: string, options: StartOptions, ports: TestStackPorts, env: Record<string, string>) {
  const child = fork(bundle, [], {
    execArgv: ['--enable-source-maps'],
    env: { ...process.env, TEST_STACK: JSON.stringify({ options, ports, env }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const addresses = new Promise<StackAddresses>((resolve, reject) => {
    child.once('message', (message) => resolve(message as StackAddresses));
    child.once('exit', (code) => reject(new Error(`The test stack stopped before it started (exit ${code})`)));
  });
  return { child, addresses };
}

function stopStackProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.disconnect();
  });
}

/**
 * One stack per worker of the project (its maxWorkers), each in its own process with its own data: test
 * files running side by side never see each other's citizens, ISEEs or flows. A test reaches its worker's
 * stack through test/support/stack-context.ts. `env` is set in each stack process before it starts (e.g.
 * PAYMENT_PLATFORM=gpd for the integration-gpd project), and in its tests' workers too.
 */
export async function provideStacks(project: TestProject, options: StartOptions, env: Record<string, string> = {}) {
  // A project that sets no maxWorkers of its own runs with the root's (vitest's default, cores - 1).
  const count = project.config.maxWorkers || project.vitest.config.maxWorkers;
  // The ports are chosen here, in one process, so no two stacks are handed the same one.
  const ports = [];
  for (let index = 0; index < count; index++) ports.push(await freeStackPorts());
  // Built once for the project's stacks (test/support/stack-bundle.ts).
  const bundle = await bundleStackProcess(project.name);
  const started = ports.map((stackPorts) => startStackProcess(bundle.file, options, stackPorts, env));
  const stop = () => Promise.all(started.map(({ child }) => stopStackProcess(child))).then(() => bundle.remove());
  try {
    project.provide('stacks', await Promise.all(started.map(({ addresses }) => addresses)));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

/**
 * The payment platform a project's stacks bill through (issue 37): the `-gpd` projects (integration-gpd, e2e-gpd in
 * vitest.config.ts) run the money path on pagoPA GPD and its simulator, the others on MyPay.
 */
export const platformEnv = (project: TestProject): Record<string, string> =>
  project.name.endsWith('-gpd') ? { PAYMENT_PLATFORM: 'gpd' } : {};

declare module 'vitest' {
  export interface ProvidedContext {
    stacks: StackAddresses[];
  }
}
