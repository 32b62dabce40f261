import { spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import { awsClients, passed, preflight, report, type Check } from './preflight.ts';
import type { Stage } from './stage-config.ts';

/**
 * The steps `npm run deploy` and `npm run rollback` share: the preflight, the CDK CLI on one synthesized
 * assembly (what the diff shows is exactly what is deployed), and the operator's confirmation.
 */

/** Runs a command in the foreground; its exit status. */
export function run(command: string, args: string[], cwd: string): number {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  return spawnSync(command, args, { cwd, stdio: 'inherit', env: process.env }).status ?? 1;
}

/** `npx cdk …` in a checkout of the repository. */
export const cdk = (cwd: string, args: string[]) => run('npx', ['cdk', ...args], cwd);

/** Checks that block a deploy; `only` keeps the ones a partial deploy needs. */
export async function preflightOrStop(stage: Stage, only?: (check: Check) => boolean): Promise<void> {
  const checks = (await preflight(stage, awsClients())).filter((c) => !only || only(c));
  console.log(report(checks));
  if (!passed(checks)) {
    console.error(
      `\nPreflight of ${stage.name}: fix what is marked ✘ (→), then run the command again. Nothing was deployed.`,
    );
    process.exit(1);
  }
}

/** Synthesizes the stage once into `outdir` (the web app is built first, cdk.json `build`). */
export function synth(cwd: string, stage: Stage, outdir: string, extraContext: string[] = []): void {
  const status = cdk(cwd, [
    'synth',
    '--quiet',
    '-c',
    `stage=${stage.name}`,
    ...extraContext.flatMap((c) => ['-c', c]),
    '--output',
    outdir,
  ]);
  if (status !== 0) {
    console.error(`\ncdk synth of ${stage.name} failed (above): nothing was deployed.`);
    process.exit(status);
  }
}

/** The operator types the stage's name, or nothing happens; `--yes` (a pipeline) skips the question. */
export async function confirm(stage: Stage, what: string, yes: boolean): Promise<void> {
  if (yes) return;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`\n${what}\nType the stage name (${stage.name}) to go on, anything else to stop: `);
  rl.close();
  if (answer.trim() !== stage.name) {
    console.log('Stopped: nothing was deployed.');
    process.exit(1);
  }
}

/** Deploys the stacks one by one, in the order given, from the synthesized assembly. */
export function deployStacks(cwd: string, assembly: string, stacks: string[]): void {
  for (const stack of stacks) {
    const status = cdk(cwd, ['deploy', '--app', assembly, '--exclusively', '--require-approval', 'never', stack]);
    if (status !== 0) {
      console.error(
        `\n${stack} failed (CloudFormation rolled it back). The stacks before it are deployed; the ones after it are not: fix the cause and run the command again.`,
      );
      process.exit(status);
    }
  }
}

/** The commands' refusals (a stage's file, a setting, AWS) print their message, not a stack trace. */
export function plainErrors(): void {
  const stop = (error: unknown) => {
    console.error(`\n${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  };
  process.on('uncaughtException', stop);
  process.on('unhandledRejection', stop);
}
