import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { secretsFromManager } from '../adapters/secrets.ts';
import { DEFAULT_IMPORT_MAX_WAIT_MINUTES } from '../domain/flows.ts';
import { logger, tracer } from '../adapters/observability.ts';
import type { ExportSteps } from '../flows/export-steps.ts';
import type { FlowTaskStep } from '../flows/state-machine.ts';

/**
 * The export's task function, either platform's (flow-task.ts on MyPay, flow-task-gpd.ts on pagoPA GPD: one bundle
 * each, so neither carries the other's client): the event, the dispatch to the steps, the middy handler.
 */

/** MYPAY_IMPORT_MAX_WAIT_MINUTES: how long MyPay may hold an import in LOAD_IMPORT / IMPORT_IN_ELAB (a deployment setting). */
export const importMaxWaitMinutes = (env: NodeJS.ProcessEnv = process.env) =>
  Number(env.MYPAY_IMPORT_MAX_WAIT_MINUTES) || DEFAULT_IMPORT_MAX_WAIT_MINUTES;

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

/** One step of the export (functions/flows/state-machine.ts): a thrown error keeps its name for Retry/Catch. */
export const flowStepRunner =
  (steps: ExportSteps) =>
  async (event: FlowTaskEvent | ExecutionStatusChange): Promise<unknown> => {
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
  };

export const flowTaskHandler = (run: ReturnType<typeof flowStepRunner>) =>
  middy(run).use(injectLambdaContext(logger)).use(captureLambdaHandler(tracer)).use(secretsFromManager());
