import { s3ExportFiles } from '../adapters/export-files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { loadSecrets } from '../adapters/secrets.ts';
import { businessMetrics } from '../adapters/observability.ts';
import { payments } from './wired-payments.ts';
import { myPayImport } from '../flows/mypay-import.ts';
import * as flowRepository from '../flows/repository.ts';
import { makeExportSteps } from '../flows/export-steps.ts';
import { flowStepRunner, flowTaskHandler, importMaxWaitMinutes } from './flow-task-runner.ts';

/** The export's task function on MyPay (a stage with paymentPlatform "mypay"; flow-task-gpd.ts on pagoPA GPD). */

export { importMaxWaitMinutes };

// The entity code (MyPay's secret in the cloud) names the flow files: read before the steps are made.
await loadSecrets();

const steps = makeExportSteps({
  flows: flowRepository,
  positions: {
    buildExport: (request, actor) => payments.exportCsv(request, actor),
    markIsees: async (ids) => void (await payments.markIseesUsedForFee(ids)),
    recordResults: (request, results) => payments.recordExportResults(request, results),
  },
  mypay: myPayImport(),
  exportFiles: s3ExportFiles,
  clock: systemClock,
  codIpa: process.env.MYPAY_COD_IPA ?? '',
  metrics: businessMetrics,
  importMaxWaitMinutes: importMaxWaitMinutes(),
});

export const runFlowStep = flowStepRunner(steps);
export const handler = flowTaskHandler(runFlowStep);
