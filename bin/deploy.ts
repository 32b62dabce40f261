#!/usr/bin/env node
import path from 'node:path';
import { confirm, cdk, deployStacks, plainErrors, preflightOrStop, synth } from '../lib/deploy-steps.ts';
import { settingsOf } from '../lib/preflight.ts';
import { repoRoot } from '../lib/portal-function.ts';
import { deployPlan } from '../lib/deploy-plan.ts';
import { loadStage } from '../lib/stage-config.ts';

plainErrors();

// npm run deploy -- <stage> [--data-only] [--yes]: preflight → synth → cdk diff → confirmation → the stacks in order.
// --data-only deploys the data stack alone (the first time: it makes the PDND key whose kid the stage's file needs).
const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith('--'));
if (!name) {
  console.error('usage: npm run deploy -- <stage> [--data-only] [--yes]   (the stage is config/<stage>.json)');
  process.exit(2);
}
const dataOnly = args.includes('--data-only');
const stage = loadStage(name);
const settings = settingsOf(stage);
const { stacks, needs } = deployPlan(settings, dataOnly);

await preflightOrStop(stage, needs);
const assembly = path.join(repoRoot, 'cdk.out', stage.name);
synth(repoRoot, stage, assembly, dataOnly ? ['dataOnly=true'] : []);
cdk(repoRoot, ['diff', '--app', assembly, ...stacks]);
await confirm(
  stage,
  `Deploy ${stacks.join(', ')} of stage ${stage.name} (${stage.file}) to account ${stage.settings.account ?? '(the credentials’)'} in ${settings.region}?`,
  args.includes('--yes'),
);
deployStacks(repoRoot, assembly, stacks);
console.log(`\nDeployed ${stacks.join(', ')}.${dataOnly ? '' : ` Now: npm run smoke -- ${stage.name}`}`);
