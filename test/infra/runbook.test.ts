import fs from 'node:fs';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_DAY_SHARDS, keys, table } from '../../functions/adapters/table.ts';
import { MIGRATIONS_JOB, MIGRATIONS_JOB_KEY, MIGRATIONS_PARTITION } from '../../functions/migrations/ids.ts';
import { MIGRATION_DEPLOY_WAIT_MS } from '../../functions/migrations/state-machine.ts';
import { resources } from '../../functions/routes.ts';
import { secretsOf, settingsOf } from '../../lib/preflight.ts';
import type { ScratchApp } from '../../lib/scratch-app.ts';
import { loadStage } from '../../lib/stage-config.ts';
import operationsJson from '../fixtures/aws-cli/operations.json' with { type: 'json' };
import { cliCommands, type CliCommand } from '../support/cli-commands.ts';
import { sharedPortal } from '../support/portal-app.ts';

/**
 * docs/operations.md against the code: a command in the runbook that names a script, a function, a state
 * machine, a log group, a table key or an index that does not exist, or quotes a timeout or a limit other than
 * the deployed one, fails here. `aws lambda invoke` of a function that may run longer than the AWS CLI's default
 * read timeout (60 s) must carry `--cli-read-timeout` covering it, or the CLI gives up (and retries the call).
 */
type Json = any;
const runbook = fs.readFileSync('docs/operations.md', 'utf8');
const scripts = Object.keys(JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts as Record<string, string>);
/** Commands the runbook names that the deployment work of issue 33 adds on its own branch (the config-file deploy). */
const CLI_DEFAULT_READ_TIMEOUT_S = 60;

let portal: ScratchApp;
/** stack name → its template. */
let templates: Map<string, Json>;
const resourcesOf = (template: Json, type: string): [string, Json][] =>
  Object.entries(template.Resources ?? {}).filter(([, r]: [string, Json]) => r.Type === type) as [string, Json][];
const everywhere = (type: string) =>
  [...templates.entries()].flatMap(([stack, template]) =>
    resourcesOf(template, type).map(([id, r]) => ({ stack, id, resource: r })),
  );

beforeAll(() => {
  portal = sharedPortal({ bundle: false, nag: false });
  const stacks = portal.app.node.children.filter((c): c is Stack => Stack.isStack(c));
  templates = new Map(stacks.map((stack) => [stack.stackName, Template.fromStack(stack).toJSON()]));
});
afterAll(() => portal.dispose());

/** A function named in the runbook as `<Stack…Part…>`: the stack's function whose logical id holds Part. */
function functionNamed(stack: string, part: string) {
  const found = everywhere('AWS::Lambda::Function').filter((f) => f.stack === stack && f.id.includes(part));
  expect(found, `${stack}…${part}…`).toHaveLength(1);
  return found[0]!;
}

describe('the runbook (docs/operations.md)', () => {
  it('names only npm scripts that exist', () => {
    const named = [...new Set([...runbook.matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]!))];
    expect(named.length).toBeGreaterThan(3);
    for (const name of named) expect(scripts, `npm run ${name}`).toContain(name);
    // The `backfill:*` it lists after the first one are scripts too.
    for (const [, name] of runbook.matchAll(/`(backfill:[\w-]+)`/g)) expect(scripts).toContain(name);
  });

  it('names functions, state machines and log groups that the app deploys', () => {
    const functions = everywhere('AWS::Lambda::Function');
    // `<PortaleOperations…StartMigrations…>`: one function of that stack.
    const qualified = [...runbook.matchAll(/(Portale[A-Za-z]+)…([A-Za-z0-9]+)…/g)];
    expect(qualified.length).toBeGreaterThan(0);
    for (const [, stack, part] of qualified) functionNamed(stack!, part!);
    // The state machines of the console list: `PaymentExport…`, `Migrations…`, …
    const machines = everywhere('AWS::StepFunctions::StateMachine').map((m) => m.id);
    const line = runbook.split('\n').findIndex((l) => l.includes('**State machines**'));
    const listed = [
      ...runbook
        .split('\n')
        .slice(line, line + 4)
        .join(' ')
        .matchAll(/`([A-Za-z]+)…`/g),
    ].map((m) => m[1]!);
    expect(listed).toEqual(['PaymentExport', 'BackgroundJobs', 'IseeExtraction', 'Migrations']);
    for (const name of listed)
      expect(
        machines.filter((id) => id.startsWith(name)),
        name,
      ).toHaveLength(1);
    expect(listed).toHaveLength(machines.length);
    // "the `FlowTask` log group", "`MigrationTask`": a function of that name (an API one by its resource).
    const logGroups = [...runbook.matchAll(/`([A-Za-z-]+)`(?: \([^)]*\))? log group/g)].map((m) => m[1]!);
    expect(logGroups.length).toBeGreaterThan(2);
    for (const name of logGroups) {
      if ((resources as readonly string[]).includes(name)) continue;
      expect(
        functions.filter((f) => f.id.includes(name)),
        name,
      ).toHaveLength(1);
    }
    for (const [, name] of runbook.matchAll(/\(`([A-Z][A-Za-z]+)`, `([A-Z][A-Za-z]+)`, the ISEE reading\)/g))
      expect(functions.some((f) => f.id.includes(name!))).toBe(true);
    // `PortaleApi-<resource>Logs…`: each API function's log group.
    expect(runbook).toContain('`PortaleApi-<resource>Logs…`');
    const apiLogGroups = resourcesOf(templates.get(portal.api.stackName), 'AWS::Logs::LogGroup').map(([id]) => id);
    for (const resource of resources)
      expect(
        apiLogGroups.some((id) => id.startsWith(`${resource.replace(/[^A-Za-z0-9]/g, '')}Logs`)),
        resource,
      ).toBe(true);
  });

  it('quotes the table keys and indexes the code writes', () => {
    // Every partition key the runbook's commands query, and the code that makes it.
    const expected: Record<string, string> = {
      'JOB#migrations#table': keys.job(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY).pk,
      MIGRATIONS: MIGRATIONS_PARTITION,
      'CALL#<id>': keys.call('<id>').pk,
    };
    const quoted = [...runbook.matchAll(/"(?:pk|:pk|gsi1pk)":\{"S":"([^"]+)"\}/g)].map((m) => m[1]!);
    expect(quoted.length).toBeGreaterThan(2);
    for (const pk of quoted) {
      expect(Object.keys(expected), `a key the runbook quotes: ${pk}`).toContain(pk);
      expect(pk).toBe(expected[pk]);
    }
    expect(runbook).toContain(`"sk":{"S":"${keys.job(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY).sk}"}`);
    for (const [, index] of runbook.matchAll(/--index-name (\S+)/g))
      expect(table.indexes.map((i) => i.name)).toContain(index);
    // The audit trail's keys as the runbook describes them.
    expect(runbook).toContain(`\`${keys.auditOf('<entity>', '<id>')}\``);
    expect(runbook).toContain(`spread over ${AUDIT_DAY_SHARDS} shards`);
    expect(keys.auditDay('2026-05-01', 15)).toBe('AUDIT#2026-05-01#15');
    expect(runbook).toContain('`AUDIT#<yyyy-mm-dd>#<00-15>`');
  });

  it('states the deployed timeouts, and gives `aws lambda invoke` the read timeout a long function needs', () => {
    // "10 s; 29 s for notices and enrolment-csv": the API functions' own.
    const [, usual, long, which] = runbook.match(/its timeout \((\d+) s; (\d+) s for\s+([^)]+)\)/)!;
    const longOnes = which!.split(/,\s+|\s+and\s+/).map((name) => name.trim());
    expect(longOnes.length).toBeGreaterThan(0);
    const api = templates.get(portal.api.stackName);
    let checked = 0;
    for (const [, fn] of resourcesOf(api, 'AWS::Lambda::Function')) {
      const resource = resources.find((r) => fn.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === r);
      if (!resource) continue;
      checked += 1;
      expect(fn.Properties.Timeout, resource).toBe(Number(longOnes.includes(resource) ? long : usual));
    }
    expect(checked).toBe(resources.length);
    // The migrations: "waits for them up to 10 minutes", "`MigrationTask` (timeout 15 minutes; the state machine's step waits 16)".
    expect(runbook).toContain(`waits for them up to ${MIGRATION_DEPLOY_WAIT_MS / 60_000} minutes`);
    const task = functionNamed(portal.operations.stackName, 'MigrationTask');
    const [, taskMinutes, stepMinutes] = runbook.match(
      /`MigrationTask` \(timeout (\d+) minutes; the state\s+machine's step waits (\d+)\)/,
    )!;
    expect(task.resource.Properties.Timeout).toBe(Number(taskMinutes) * 60);
    const machine = everywhere('AWS::StepFunctions::StateMachine').find((m) => m.id.startsWith('Migrations'))!;
    const definition = JSON.stringify(machine.resource.Properties.DefinitionString);
    expect(definition).toContain(`\\"TimeoutSeconds\\":${Number(stepMinutes) * 60}`);
    // Every `aws lambda invoke`: the function exists, and the read timeout covers its own.
    const invokes = [...runbook.matchAll(/aws lambda invoke[^`\n]*/g)].map((m) => m[0]);
    expect(invokes.length).toBeGreaterThan(0);
    for (const command of invokes) {
      const [, stack, part] = command.match(/(Portale[A-Za-z]+)…([A-Za-z0-9]+)…/)!;
      const timeout = functionNamed(stack!, part!).resource.Properties.Timeout ?? 3;
      if (timeout <= CLI_DEFAULT_READ_TIMEOUT_S) continue;
      const readTimeout = Number(command.match(/--cli-read-timeout (\d+)/)?.[1] ?? CLI_DEFAULT_READ_TIMEOUT_S);
      expect(readTimeout, command).toBeGreaterThanOrEqual(timeout);
    }
  });

  it('quotes the API stage throttling the restore lifts back', () => {
    const stages = everywhere('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const { ThrottlingBurstLimit, ThrottlingRateLimit } = stages[0]!.resource.Properties.DefaultRouteSettings;
    expect(runbook).toContain(
      `ThrottlingBurstLimit=${ThrottlingBurstLimit},ThrottlingRateLimit=${ThrottlingRateLimit}`,
    );
    expect(runbook).toContain(`${ThrottlingRateLimit} requests a second, bursts of ${ThrottlingBurstLimit}`);
  });

  it('has a section for every alarm description that points at one', () => {
    const sections = new Set([...runbook.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.trim()));
    const alarms = everywhere('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(10);
    for (const { resource } of alarms) {
      const section = String(resource.Properties.AlarmDescription).match(/Cosa fare: [^«]*«([^»]+)»\.$/)?.[1];
      expect(sections, resource.Properties.AlarmName).toContain(section);
    }
  });
});

/**
 * Every `aws …` an engineer is told to run (docs/operations.md, and the README's deploy section) against the AWS
 * CLI's own description of it: botocore's service models (test/fixtures/aws-cli/operations.json, made by
 * generate.ts beside it), where an operation's input member `FooBar` is the option `--foo-bar`. An operation that
 * does not exist, an option it does not take, a required one left out, a JSON value that does not parse, or a
 * secret written without the fields the code reads, fails here.
 */
const cli = operationsJson as {
  botocore: string;
  services: Record<string, { operations: Record<string, { options: Record<string, string>; required: string[] }> }>;
};
/** The AWS CLI v2's global options that take a value (`aws help`, "Global Options"), and their allowed values where fixed. */
const GLOBAL_OPTIONS: Record<string, readonly string[] | undefined> = {
  '--region': undefined,
  '--profile': undefined,
  '--endpoint-url': undefined,
  '--query': undefined,
  '--output': ['json', 'text', 'table', 'yaml', 'yaml-stream'],
  '--cli-read-timeout': undefined,
  '--cli-connect-timeout': undefined,
  '--cli-binary-format': ['base64', 'raw-in-base64-out'],
};
/** Positional arguments the CLI's customizations take: `aws lambda invoke … <outfile>`, `aws s3 cp <from> <to>`. */
const POSITIONALS: Record<string, number> = { 'lambda invoke': 1, 's3 cp': 2 };
/** Written as a mention (`aws sns subscribe`, above), not as a command to run: nothing after the operation. */
const mention = (command: CliCommand) => command.words.length === 0;

/** The command's options and their values, and its positional arguments; a problem found on the way is thrown. */
function parse(command: CliCommand): { options: Map<string, string | true>; positionals: string[] } {
  const known = cli.services[command.service]?.operations[command.operation]?.options;
  const options = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < command.words.length; i += 1) {
    const word = command.words[i]!;
    if (!word.startsWith('--')) {
      positionals.push(word);
      continue;
    }
    if (word in GLOBAL_OPTIONS) {
      const value = command.words[++i];
      const allowed = GLOBAL_OPTIONS[word];
      if (value === undefined || (allowed && !allowed.includes(value)))
        throw new Error(`${word} ${value ?? '(no value)'}: not one of ${allowed?.join(', ') ?? 'a value'}`);
      options.set(word, value);
      continue;
    }
    const flag = word.replace(/^--no-/, '--');
    const type = known?.[word] ?? (known?.[flag] === 'boolean' ? 'boolean' : undefined);
    if (!type) throw new Error(`${word} is not an option of aws ${command.service} ${command.operation}`);
    if (type === 'boolean') {
      options.set(flag, true);
      continue;
    }
    const value = command.words[++i];
    if (value === undefined || value.startsWith('--')) throw new Error(`${word} has no value`);
    if (/^[[{]/.test(value)) JSON.parse(value); // a JSON value (a shorthand or file:// is the CLI's to read)
    options.set(word, value);
  }
  return { options, positionals };
}

describe('the AWS CLI commands of the runbook and the README’s deploy section', () => {
  const commands = cliCommands();

  it('are found in both documents', () => {
    expect(commands.filter((c) => c.source === 'docs/operations.md').length).toBeGreaterThan(20);
    expect(commands.filter((c) => c.source === 'README.md').length).toBeGreaterThan(10);
  });

  it(`are operations of the CLI, with its options and every required one (botocore ${cli.botocore})`, () => {
    const problems: string[] = [];
    for (const command of commands) {
      const name = `${command.service} ${command.operation}`;
      try {
        if (command.service === 's3') {
          // The CLI's own high-level S3 commands.
          expect(['cp', 'sync', 'ls', 'rm', 'mv'], name).toContain(command.operation);
          if (!mention(command)) expect(parse(command).positionals, command.text).toHaveLength(POSITIONALS[name]!);
          continue;
        }
        const operation = cli.services[command.service]?.operations[command.operation];
        if (!operation)
          throw new Error(
            'not an operation of the CLI, or not in test/fixtures/aws-cli/operations.json (run its generate.ts)',
          );
        if (mention(command)) continue;
        const { options, positionals } = parse(command);
        const left = operation.required.filter((option) => !options.has(option));
        if (left.length) throw new Error(`required: ${left.join(', ')}`);
        if (positionals.length !== (POSITIONALS[name] ?? 0))
          throw new Error(`unexpected argument(s): ${positionals.join(' ')}`);
      } catch (error) {
        problems.push(`${command.source}: ${command.text}\n    ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('write each secret with the fields the code and the preflight read', () => {
    const secrets = secretsOf(settingsOf(loadStage('example', 'config')));
    const written = commands.filter(
      (c) => c.service === 'secretsmanager' && ['create-secret', 'put-secret-value'].includes(c.operation),
    );
    let checked = 0;
    for (const command of written) {
      if (mention(command)) continue;
      const { options } = parse(command);
      const secret = secrets.find((s) => s.name === (options.get('--name') ?? options.get('--secret-id')));
      if (!secret) continue;
      const value = String(options.get('--secret-string'));
      if (secret.fields === 'plain') expect(value.startsWith('{'), command.text).toBe(false);
      else expect(Object.keys(JSON.parse(value)).sort(), command.text).toEqual([...secret.fields].sort());
      checked += 1;
    }
    // The three of the deploy section, and the MyPay rotation of the runbook.
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it('start a missed schedule with the very input its schedule sends', () => {
    const inputs = everywhere('AWS::Scheduler::Schedule').map((s) => JSON.parse(s.resource.Properties.Target.Input));
    const payloads = commands
      .filter((c) => c.service === 'lambda' && c.operation === 'invoke')
      .map((c) => parse(c).options.get('--payload'))
      .filter((p): p is string => typeof p === 'string');
    expect(payloads.length).toBeGreaterThan(0);
    for (const payload of payloads) expect(inputs).toContainEqual(JSON.parse(payload));
    // "(`isee-new-year` for the January refresh …)": the other kind it names is a schedule's too.
    for (const [, kind] of runbook.matchAll(/\(`([a-z-]+)` for the January refresh/g))
      expect(inputs).toContainEqual({ kind });
  });
});
