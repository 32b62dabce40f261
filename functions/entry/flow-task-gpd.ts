import { s3ExportFiles } from '../adapters/export-files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { loadSecrets } from '../adapters/secrets.ts';
import { businessMetrics } from '../adapters/observability.ts';
import { paymentUseCases } from './wired-payments.ts';
import { gpdExportPlatformFromEnv } from '../adapters/payment-platform.ts';
import { PLATFORM_CAPABILITIES, type PaymentPlatform } from '../domain/payment-platform.ts';
import { reserveIuvs } from '../positions/iuv-sequence.ts';
import * as flowRepository from '../flows/repository.ts';
import { makeExportSteps } from '../flows/export-steps.ts';
import { flowStepRunner, flowTaskHandler, importMaxWaitMinutes } from './flow-task-runner.ts';

/**
 * The export's task function on pagoPA GPD (a stage with paymentPlatform "gpd", lib/payment-export.ts; locally with
 * PAYMENT_PLATFORM=gpd): the steps hand the positions to GPD's export port, with IUVs from the council's sequence
 * (GPD_SEGREGATION_CODE). GPD's client is made at the first step that needs it, after the secrets: a missing setting
 * fails that step (visibly), not the cold start.
 */

export { importMaxWaitMinutes };

await loadSecrets();

let gpd: PaymentPlatform | undefined;
const gpdPlatform = () => (gpd ??= gpdExportPlatformFromEnv());

const payments = paymentUseCases({
  iuvSequence: { reserveIuvs: (count) => reserveIuvs(process.env.GPD_SEGREGATION_CODE ?? '', count) },
});

/** MyPay is not this deployment's platform: the steps never call it here. */
const noMyPay = () => Promise.reject(new Error('MyPay non è la piattaforma di pagamento di questo ente (GPD).'));

const steps = makeExportSteps({
  flows: flowRepository,
  platform: {
    name: 'gpd',
    capabilities: PLATFORM_CAPABILITIES.gpd,
    export: {
      submit: (batch, options) => gpdPlatform().export.submit(batch, options),
      progress: (ticket, options) => gpdPlatform().export.progress(ticket, options),
    },
  },
  positions: {
    buildExport: (request, actor) => payments.exportCsv(request, actor),
    buildPlatformExport: (request, actor) => payments.exportPlatformPositions(request, actor),
    markIsees: async (ids) => void (await payments.markIseesUsedForFee(ids)),
    recordResults: (request, results) => payments.recordExportResults(request, results),
  },
  mypay: { authorize: noMyPay, upload: noMyPay, importStatus: noMyPay, download: noMyPay, importDovuto: noMyPay },
  exportFiles: s3ExportFiles,
  clock: systemClock,
  codIpa: '',
  metrics: businessMetrics,
  importMaxWaitMinutes: importMaxWaitMinutes(),
});

export const runFlowStep = flowStepRunner(steps);
export const handler = flowTaskHandler(runFlowStep);
