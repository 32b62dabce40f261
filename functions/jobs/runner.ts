import type { SFNClient } from '@aws-sdk/client-sfn';
import type { JobRunner } from './use-cases.ts';

/**
 * Starts the background jobs' state machine (JOBS_STATE_MACHINE_ARN) for one run. Locally SFN_ENDPOINT points
 * at the local Step Functions (lib/local/step-functions.ts), which runs the same definition. The client loads at the
 * first start: the functions that start a job on a rare route (the ISEE, payments, enrolment pages) do not pay
 * for it at every cold start.
 */
let sfn: Promise<{ client: SFNClient; sdk: typeof import('@aws-sdk/client-sfn') }> | undefined;
const sfnClient = () =>
  (sfn ??= import('@aws-sdk/client-sfn').then((sdk) => ({
    sdk,
    client: new sdk.SFNClient({ endpoint: process.env.SFN_ENDPOINT || undefined }),
  })));

export const stepFunctionsJobRunner: JobRunner = {
  async start(run) {
    const stateMachineArn = process.env.JOBS_STATE_MACHINE_ARN;
    if (!stateMachineArn) throw new Error('Missing environment variable JOBS_STATE_MACHINE_ARN');
    const { client, sdk } = await sfnClient();
    await client.send(new sdk.StartExecutionCommand({ stateMachineArn, name: run.jobId, input: JSON.stringify(run) }));
  },
};
