#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cdk, confirm, deployStacks, preflightOrStop, run, synth } from '../lib/deploy-steps.ts';
import { settingsOf } from '../lib/preflight.ts';
import { repoRoot } from '../lib/portal-function.ts';
import { rollbackDecision, rollbackStacks, stageStacks } from '../lib/deploy-plan.ts';
import { loadStage } from '../lib/stage-config.ts';

// npm run rollback -- <stage> <tag> [--include-stateful] [--yes]: the code of <tag> with the stage's settings of
// today (its config/<stage>.json), deploying only the stacks whose template changes. What it cannot undo (a
// migration already applied, data written in a new shape): docs/operations.md, "Rolling back".
const args = process.argv.slice(2);
const [name, tag] = args.filter((a) => !a.startsWith('--'));
if (!name || !tag) {
  console.error('usage: npm run rollback -- <stage> <tag> [--include-stateful] [--yes]');
  process.exit(2);
}
const stage = loadStage(name);
const settings = settingsOf(stage);
const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: repoRoot, encoding: 'utf8' }).trim();
const commit = git('rev-parse', '--verify', `${tag}^{commit}`);

const work = mkdtempSync(path.join(os.tmpdir(), `portale-rollback-${stage.name}-`));
const checkout = path.join(work, 'checkout');
try {
  await preflightOrStop(stage);
  git('worktree', 'add', '--detach', checkout, commit);
  // Code older than the stages' files would ignore -c stage and deploy its built-in placeholders.
  if (!existsSync(path.join(checkout, 'lib/stage-config.ts'))) {
    throw new Error(
      `${tag} predates config/<stage>.json: this command cannot roll back to it safely (docs/operations.md, "Rolling back")`,
    );
  }
  mkdirSync(path.join(checkout, 'config'), { recursive: true });
  writeFileSync(path.join(checkout, 'config', `${stage.name}.json`), readFileSync(path.join(repoRoot, stage.file)));
  if (run('npm', ['ci', '--no-audit', '--no-fund'], checkout) !== 0)
    throw new Error(`npm ci failed in the checkout of ${tag}`);
  const assembly = path.join(work, 'cdk.out');
  synth(checkout, stage, assembly);

  const { compare, left } = rollbackStacks(stageStacks(settings), (stack) =>
    existsSync(path.join(assembly, `${stack}.template.json`)),
  );
  if (left.length > 0) console.log(`\n${tag} has no ${left.join(', ')}: left as deployed.`);
  // cdk diff --fail exits 1 when the deployed stack differs from the tag's template.
  const changed = compare.filter((stack) => cdk(checkout, ['diff', '--app', assembly, '--fail', stack]) !== 0);
  const decision = rollbackDecision(changed, args.includes('--include-stateful'));
  if (decision.kind === 'nothing') {
    console.log(`\nNothing to roll back: every stack of ${stage.name} already matches ${tag}.`);
  } else if (decision.kind === 'refuse') {
    throw new Error(decision.message);
  } else {
    await confirm(
      stage,
      `Roll ${decision.stacks.join(', ')} of ${stage.name} back to ${tag} (${commit.slice(0, 12)})?`,
      args.includes('--yes'),
    );
    deployStacks(checkout, assembly, decision.stacks);
    console.log(`\nRolled back ${decision.stacks.join(', ')} to ${tag}. Now: npm run smoke -- ${stage.name}`);
  }
} catch (error) {
  console.error(`\n${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  if (existsSync(checkout)) git('worktree', 'remove', '--force', checkout);
  rmSync(work, { recursive: true, force: true });
}
