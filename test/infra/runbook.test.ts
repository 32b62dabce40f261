import fs from 'node:fs';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_DAY_SHARDS, keys, table } from '../../functions/adapters/table.ts';
import { MIGRATIONS_JOB, MIGRATIONS_JOB_KEY, MIGRATIONS_PARTITION } from '../../functions/migrations/ids.ts';
import { MIGRATION_DEPLOY_WAIT_MS } from '../../functions/migrations/state-machine.ts';
import { resources } from '../../functions/routes.ts';
import type { ScratchApp } from '../../lib/scratch-app.ts';
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
