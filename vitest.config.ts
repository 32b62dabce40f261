import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { untracedFunctionEnv } from './lib/local/untraced-env.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const resolve = { alias: { '@domain': here('./functions/domain'), '@': here('./web/src') } };
const env = { ...untracedFunctionEnv, POWERTOOLS_LOG_LEVEL: 'SILENT' };

/** The integration tier's settings, shared by its MyPay and GPD projects. */
const integration = {
  globalSetup: ['test/integration/global-setup.ts'],
  setupFiles: ['test/support/stack-env.ts'],
  // Three files at a time, each on its worker's own stack (test/support/stack-pool.ts): a test's data (a
  // citizen's newest ISEE) stays its own, and one file's waits for MyPay or an index overlap the others' work.
  // Measured on this 2-core machine, nothing else running: two workers kept the cores 63% busy (556 s), three 77% (428 s).
  maxWorkers: 3,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // A list read through a global index shows a write a moment later (global-setup.ts: the index lag):
  // expect.poll reads it again, as a user reloads, for a few seconds at most.
  expect: { poll: { interval: 50, timeout: 5_000 } },
  env,
};

/**
 * The money path's integration files that also run on pagoPA GPD (project integration-gpd). Left to the MyPay run:
 * files that call the repositories themselves and never the stack's platform (write-back-fence, export-lock-expiry,
 * repository-conditions: the same code on both), MyPay's own contracts (mypay, mypay-payments), and the notice ZIP's
 * files (s3-missing-keys, response-fields: MyPay's ZIP; the citizen's notice on GPD is gpd-notice's).
 */
const gpdMoneyPath = [
  'test/integration/iuv-sequence.test.ts',
  'test/integration/flows.test.ts',
  'test/integration/citizen-cart.test.ts',
  'test/integration/gpd-sync.test.ts',
  'test/integration/gpd-sync-list.test.ts',
  'test/integration/gpd-timeouts.test.ts',
  'test/integration/gpd-notice.test.ts',
  'test/integration/payment-list.test.ts',
  'test/integration/hot-partition.test.ts',
  'test/integration/positions.test.ts',
  'test/integration/position-edit-sync.test.ts',
  'test/integration/reporting-schedule.test.ts',
  'test/integration/notices.test.ts',
  'test/integration/citizen-payments.test.ts',
  'test/integration/export-slices.test.ts',
];

/**
 * The four test tiers of design.md §5, each a vitest project. Unit, infra and integration run two files at a time
 * (vitest would take one worker on a 2-core machine, cores - 1): they wait on I/O (esbuild, a stack) as much as they compute.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          maxWorkers: 2,
          // A worker's files share its loaded modules (the SDK, zod, the domain load once per worker, not once per
          // file: 113 s -> 35 s here). The price: a file must leave nothing behind, so the environment variables and
          // globals a test stubs (vi.stubEnv, vi.stubGlobal) are restored after each test.
          isolate: false,
          unstubEnvs: true,
          unstubGlobals: true,
          env: {
            ...env,
            TABLE_NAME: 'unit-test-table',
            CURSOR_SECRET: 'unit-test-cursor-secret',
            AWS_REGION: 'eu-south-1',
          },
        },
      },
      // Infra files share their worker's modules (isolate: false): aws-cdk-lib loads once per worker, not once per file,
      // and an app the files only read is synthesized once (test/support/portal-app.ts).
      {
        resolve,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          maxWorkers: 2,
          isolate: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
          env,
        },
      },
      { resolve, test: { ...integration, name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      // The money path again on pagoPA GPD (issue 37): the same files, on stacks started with PAYMENT_PLATFORM=gpd
      // (test/support/stack-pool.ts platformEnv), so each passes on both platforms. As many workers as the MyPay run:
      // vitest then runs both projects' files in one queue, instead of the GPD files one by one
      // after all the others (a project with maxWorkers 1 gets a sequential group of its own).
      { resolve, test: { ...integration, name: 'integration-gpd', include: gpdMoneyPath } },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          setupFiles: ['test/support/stack-env.ts'],
          // Two files at a time too, each worker with its own stack, each file with its own Chromium.
          maxWorkers: 2,
          // A worker runs its files one after another in one process (it keeps playwright, axe and the product
          // modules loaded, and the tokens of test/support/sign-in.ts, all for its own stack): no file sets
          // process.env or mocks a module, and each launches and closes its own browser.
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
          env,
        },
      },
      // The citizen's payments in the browser on pagoPA GPD (issue 37): the stack is started with PAYMENT_PLATFORM=gpd.
      {
        resolve,
        test: {
          name: 'e2e-gpd',
          include: ['test/e2e-gpd/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          setupFiles: ['test/support/stack-env.ts'],
          // As e2e's: its files share e2e's queue, two at a time, rather than running alone after it.
          maxWorkers: 2,
          testTimeout: 90_000,
          hookTimeout: 120_000,
          env,
        },
      },
      // npm run bench:excel: browser timings, outside the test tiers, one file at a time on one stack.
      {
        resolve,
        test: {
          name: 'bench-browser',
          include: ['test/bench/**/*.browser.ts'],
          maxWorkers: 1,
          globalSetup: ['test/e2e/global-setup.ts'],
          setupFiles: ['test/support/stack-env.ts'],
          testTimeout: 600_000,
          hookTimeout: 300_000,
          env,
        },
      },
    ],
  },
});
