import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { FlowRunner } from './ports.ts';

/**
 * Starts the export state machine (EXPORT_STATE_MACHINE_ARN) for a flow. Locally SFN_ENDPOINT points at the
 * local Step Functions (lib/local/step-functions.ts), which runs the same definition.
 */
const sfn = new SFNClient({ endpoint: process.env.SFN_ENDPOINT || undefined });

export const stepFunctionsRunner: FlowRunner = {
  async start(flowId) {
    const stateMachineArn = process.env.EXPORT_STATE_MACHINE_ARN;
    if (!stateMachineArn) throw new Error('Missing environment variable EXPORT_STATE_MACHINE_ARN');
    // One execution name per start: a restart is a new execution of the same flow.
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn,
        name: `${flowId}-${Date.now()}`,
        input: JSON.stringify({ flowId }),
      }),
    );
    return executionArn ?? '';
  },
};
