import type { SFNClient } from '@aws-sdk/client-sfn';
import type { FlowRunner } from './ports.ts';

/**
 * Starts the export state machine (EXPORT_STATE_MACHINE_ARN) for a flow. Locally SFN_ENDPOINT points at the
 * local Step Functions (lib/local/step-functions.ts), which runs the same definition. The client loads at the first
 * start: the flows function's other routes (the list, a flow's page, its files) do not pay for it at a cold start.
 */
let sfn: Promise<{ client: SFNClient; sdk: typeof import('@aws-sdk/client-sfn') }> | undefined;
const sfnClient = () =>
  (sfn ??= import('@aws-sdk/client-sfn').then((sdk) => ({
    sdk,
    client: new sdk.SFNClient({ endpoint: process.env.SFN_ENDPOINT || undefined }),
  })));

export const stepFunctionsRunner: FlowRunner = {
  async start(flowId) {
    const stateMachineArn = process.env.EXPORT_STATE_MACHINE_ARN;
    if (!stateMachineArn) throw new Error('Missing environment variable EXPORT_STATE_MACHINE_ARN');
    // One execution name per start: a restart is a new execution of the same flow.
    const { client, sdk } = await sfnClient();
    const { executionArn } = await client.send(
      new sdk.StartExecutionCommand({
        stateMachineArn,
        name: `${flowId}-${Date.now()}`,
        input: JSON.stringify({ flowId }),
      }),
    );
    return executionArn ?? '';
  },
};
