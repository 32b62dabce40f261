#!/usr/bin/env node
import { awsClients, passed, preflight, report } from '../lib/preflight.ts';
import { loadStage } from '../lib/stage-config.ts';
import { plainErrors } from '../lib/deploy-steps.ts';

plainErrors();

// npm run preflight -- <stage>: read-only checks of the stage's account (lib/preflight.ts); exit 1 if a piece is missing.
const name = process.argv[2];
if (!name) {
  console.error('usage: npm run preflight -- <stage>   (the stage is config/<stage>.json)');
  process.exit(2);
}
const stage = loadStage(name);
const checks = await preflight(stage, awsClients());
console.log(report(checks));
if (!passed(checks)) {
  console.error(
    `\nPreflight of ${stage.name}: ${checks.filter((c) => c.status === 'missing').length} missing; fix them (→) and run it again.`,
  );
  process.exit(1);
}
console.log(`\nPreflight of ${stage.name}: ready to deploy.`);
