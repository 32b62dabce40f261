import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { JobRunner } from './use-cases.ts';

/**
 * Starts the background jobs' state machine (JOBS_STATE_MACHINE_ARN) for one run. Locally SFN_ENDPOINT points
 * at the local Step Functions (lib/local/step-functions.ts), which runs the same definition.
 */
const sfn = new SFNClient({ endpoint: process.env.SFN_ENDPOINT || undefined });

export const stepFunctionsJobRunner: JobRunner = {
  async start(run) {
    const stateMachineArn = process.env.JOBS_STATE_MACHINE_ARN;
    if (!stateMachineArn) throw new Error('Missing environment variable JOBS_STATE_MACHINE_ARN');
    await sfn.send(new StartExecutionCommand({ stateMachineArn, name: run.jobId, input: JSON.stringify(run) }));
  },
};
