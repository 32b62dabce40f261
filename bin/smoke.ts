#!/usr/bin/env node
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { passed, report, settingsOf } from '../lib/preflight.ts';
import { functionsHealth, smoke, type SmokeTarget } from '../lib/smoke.ts';
import { loadStage, stackNamesOf } from '../lib/stage-config.ts';
import { plainErrors } from '../lib/deploy-steps.ts';

plainErrors();

// npm run smoke -- <stage>: the stage's live portal (its web stack's WebUrl), without side effects.
// npm run smoke -- --url http://localhost:3000: any portal, e.g. the local one (the sign-in then leads to its issuer).
const [first, second] = process.argv.slice(2);
if (!first) {
  console.error('usage: npm run smoke -- <stage>   or   npm run smoke -- --url <portal address>');
  process.exit(2);
}

async function targetOf(): Promise<SmokeTarget> {
  if (first === '--url') {
    const siteUrl = second!.replace(/\/$/, '');
    const config = (await (await fetch(`${siteUrl}/config.json`)).json()) as { issuer: string };
    return { siteUrl, expectedProvider: new URL(config.issuer).origin };
  }
  const stage = loadStage(first!);
  const settings = settingsOf(stage);
  const cloudFormation = new CloudFormationClient({ region: settings.region });
  const names = stackNamesOf(settings.stackPrefix);
  const web = (await cloudFormation.send(new DescribeStacksCommand({ StackName: `${settings.stackPrefix}Web` })))
    .Stacks?.[0];
  const siteUrl = web?.Outputs?.find((o) => o.OutputKey === 'WebUrl')?.OutputValue;
  if (!siteUrl)
    throw new Error(
      `${settings.stackPrefix}Web has no WebUrl output: is the stage deployed? (npm run deploy -- ${stage.name})`,
    );
  return {
    siteUrl: siteUrl.replace(/\/$/, ''),
    expectedProvider: new URL(settings.spidGateway.issuer).origin,
    functions: () => functionsHealth(names, { cloudFormation, lambda: new LambdaClient({ region: settings.region }) }),
  };
}

const target = await targetOf();
const checks = await smoke(target);
console.log(`Smoke test of ${target.siteUrl}\n${report(checks)}`);
process.exit(passed(checks) ? 0 : 1);
