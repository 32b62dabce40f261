import type { RunningExports } from '../adapters/ports/export.ts';
import type { FlowRepository } from './ports.ts';

/** What flows answers the others about its lock: an export runs while a flow holds the call's lock (an expired lease holds nothing). */
export const runningExportsOf = (flows: Pick<FlowRepository, 'runningExportOf'>): RunningExports => ({
  isRunning: async (callId) => (await flows.runningExportOf(callId)) !== null,
});
