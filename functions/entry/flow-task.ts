import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { s3ExportFiles } from '../adapters/export-files.ts';
import { systemClock } from '../adapters/ports.ts';
import { loadSecrets, secretsFromManager } from '../adapters/secrets.ts';
import { DEFAULT_IMPORT_MAX_WAIT_MINUTES } from '../domain/flows.ts';
import { businessMetrics, logger, tracer } from '../adapters/observability.ts';
import { paymentUseCases } from './wired-payments.ts';
import { gpdPlatformFromEnv, paymentPlatformName } from '../adapters/payment-platform.ts';
import { PLATFORM_CAPABILITIES, type PaymentPlatform } from '../domain/payment-platform.ts';
import { reserveIuvs } from '../positions/iuv-sequence.ts';
import { myPayImport } from '../flows/mypay-import.ts';
import * as flowRepository from '../flows/repository.ts';
import type { FlowTaskStep } from '../flows/state-machine.ts';
import { makeExportSteps } from '../flows/export-steps.ts';

/** MYPAY_IMPORT_MAX_WAIT_MINUTES: how long MyPay may hold an import in LOAD_IMPORT / IMPORT_IN_ELAB (a deployment setting). */
export const importMaxWaitMinutes = (env: NodeJS.ProcessEnv = process.env) =>
  Number(env.MYPAY_IMPORT_MAX_WAIT_MINUTES) || DEFAULT_IMPORT_MAX_WAIT_MINUTES;

// The entity code (MyPay's secret in the cloud) names the flow files: read before the steps are made.
await loadSecrets();

/**
 * The deployment's payment platform (PAYMENT_PLATFORM): on GPD the steps hand the positions to its export port, with
 * IUVs from the council's sequence (GPD_SEGREGATION_CODE). Its client is made at the first step that needs it, after
 * the secrets: a missing setting fails that step (visibly), not the cold start.
 */
const onGpd = paymentPlatformName() === 'gpd';
let gpd: PaymentPlatform | undefined;
const gpdPlatform = () => (gpd ??= gpdPlatformFromEnv());
const platform: Pick<PaymentPlatform, 'name' | 'capabilities' | 'export'> | undefined = onGpd
  ? {
      name: 'gpd',
      capabilities: PLATFORM_CAPABILITIES.gpd,
      export: {
        submit: (batch, options) => gpdPlatform().export.submit(batch, options),
        progress: (ticket, options) => gpdPlatform().export.progress(ticket, options),
      },
    }
  : undefined;

const payments = paymentUseCases(
  onGpd ? { iuvSequence: { reserveIuvs: (count) => reserveIuvs(process.env.GPD_SEGREGATION_CODE ?? '', count) } } : {},
);

const steps = makeExportSteps({
  flows: flowRepository,
  platform,
  positions: {
    buildExport: (request, actor) => payments.exportCsv(request, actor),
    buildPlatformExport: (request, actor) => payments.exportPlatformPositions(request, actor),
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

export interface FlowTaskEvent {
  step: FlowTaskStep;
  flowId: string;
  error?: { Error?: string; Cause?: string } | null;
}

/**
 * Step Functions' "Execution Status Change" event (EventBridge in the cloud, the local Step Functions here):
 * an execution of the export that ended FAILED, TIMED_OUT or ABORTED.
 */
export interface ExecutionStatusChange {
  source: 'aws.states';
  'detail-type': 'Step Functions Execution Status Change';
  detail: { executionArn: string; status: string; input?: string | null };
}

const isStatusChange = (event: FlowTaskEvent | ExecutionStatusChange): event is ExecutionStatusChange =>
  'detail' in event && (event as ExecutionStatusChange).source === 'aws.states';

/** One step of the export to the payment platform (functions/flows/state-machine.ts): a thrown error keeps its name for Retry/Catch. */
export async function runFlowStep(event: FlowTaskEvent | ExecutionStatusChange): Promise<unknown> {
  if (isStatusChange(event)) {
    const flowId = (JSON.parse(event.detail.input || '{}') as { flowId?: unknown }).flowId;
    if (typeof flowId !== 'string' || !flowId) return null;
    return steps.executionEnded({ flowId, execution: event.detail.executionArn, status: event.detail.status });
  }
  switch (event.step) {
    case 'Prepare':
      return steps.prepare(event.flowId);
    case 'MarkIsees':
      return steps.markIsees(event.flowId);
    case 'Send':
      return steps.send(event.flowId);
    case 'CheckImport':
      return steps.checkImport(event.flowId);
    case 'Collect':
      return steps.collect(event.flowId);
    case 'MarkFailed':
      return steps.markFailed(event.flowId, event.error ?? null);
  }
}

export const handler = middy(runFlowStep)
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer))
  .use(secretsFromManager());
