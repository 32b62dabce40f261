import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LocalConfig } from '../../lib/local/config.ts';
import { startLocalStack, type StartOptions } from '../../lib/local/runtime.ts';
import { freePort } from './ports.ts';

export type TestStackPorts = Omit<LocalConfig, 'dataDir' | 'host'>;

/** A free port for each of the stack's servers. */
export async function freeStackPorts(): Promise<TestStackPorts> {
  return {
    port: await freePort(),
    idpPort: await freePort(),
    dynamoPort: await freePort(),
    s3Port: await freePort(),
    myPayPort: await freePort(),
    stepFunctionsPort: await freePort(),
    sesPort: await freePort(),
    ioPort: await freePort(),
    pdndPort: await freePort(),
    inpsPort: await freePort(),
  };
}

/**
 * A whole local stack on free ports and a fresh data folder, for the integration and browser tests and the
 * benchmarks; `prepare` writes into the data folder before the stack starts (e.g. the INPS simulator's DSUs).
 */
export async function startTestStack(
  options: StartOptions,
  prepare?: (dataDir: string) => Promise<void>,
  ports?: TestStackPorts,
) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portale-test-'));
  await prepare?.(dataDir);
  const config: LocalConfig = { ...(ports ?? (await freeStackPorts())), dataDir, host: 'localhost' };
  // The December reminders go from ISEE_REMINDER_FROM (MM-DD): the tests run any day of the year.
  process.env.ISEE_REMINDER_FROM ??= '01-01';
  // No timers: a test starts the scheduled runs itself (functions/entry/scheduled-jobs.ts), so none starts under another test.
  process.env.LOCAL_SCHEDULES ??= 'off';
  const stack = await startLocalStack(config, options);
  return {
    ...stack,
    dataDir,
    async close() {
      await stack.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestStack = Awaited<ReturnType<typeof startTestStack>>;
