import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { s3ExportFiles } from '../adapters/export-files.ts';
import { systemClock } from '../adapters/ports.ts';
import { businessMetrics, logger, tracer } from '../http/observability.ts';
import { payments } from '../payments/wired.ts';
import { myPayImport } from './mypay-import.ts';
import * as flowRepository from './repository.ts';
import type { FlowTaskStep } from './state-machine.ts';
import { makeExportSteps } from './use-cases.ts';

const steps = makeExportSteps({
  flows: flowRepository,
  positions: {
    buildExport: payments.exportCsv,
    markIsees: async (ids) => void (await payments.markIseesUsedForFee(ids)),
    recordResults: (request, results) => payments.recordExportResults(request, results),
  },
  mypay: myPayImport(),
  exportFiles: s3ExportFiles,
  clock: systemClock,
  codIpa: process.env.MYPAY_COD_IPA ?? '',
  metrics: businessMetrics,
});

export interface FlowTaskEvent {
  step: FlowTaskStep;
  flowId: string;
  error?: { Error?: string; Cause?: string } | null;
}

/** One step of the MyPay export (functions/flows/state-machine.ts): a thrown error keeps its name for Retry/Catch. */
export async function runFlowStep(event: FlowTaskEvent): Promise<unknown> {
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

export const handler = middy(runFlowStep).use(injectLambdaContext(logger)).use(captureLambdaHandler(tracer));
