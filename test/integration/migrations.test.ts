import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATION_IDS } from '../../functions/migrations/ids.ts';
import { TABLE_NAME, type LocalConfig } from '../../lib/local/config.ts';
import { startLocalStack, type LocalStack } from '../../lib/local/runtime.ts';
import { freePort } from '../support/ports.ts';

/**
 * The data migrations on the local stack, which runs them at every start as the deployment does in the cloud:
 * a stack of its own (its own data folder, restarted on it), with the demo data.
 */
type Item = Record<string, any>;

const environment = { ...process.env };
let dataDir: string;
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  // The stack sets the functions' environment on this process: give the next test file its own back.
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
});

async function config(): Promise<LocalConfig> {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portale-migrations-'));
  return {
    port: await freePort(),
    idpPort: await freePort(),
    dynamoPort: await freePort(),
    s3Port: await freePort(),
    myPayPort: await freePort(),
    stepFunctionsPort: await freePort(),
    sesPort: await freePort(),
    ioPort: await freePort(),
    pdndPort: await freePort(),
    inpsPort: await freePort(),
    dataDir,
    host: 'localhost',
  };
}

function tableOf(endpoint: string) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  return {
    /** Every item, in key order (a test may scan: no request path does). */
    async dump(): Promise<Item[]> {
      const items: Item[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({ TableName: TABLE_NAME, ExclusiveStartKey: start, ConsistentRead: true }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items.sort((a, b) => `${a.pk}\u0000${a.sk}`.localeCompare(`${b.pk}\u0000${b.sk}`));
    },
    delete: (item: Item) =>
      client.send(new DeleteCommand({ TableName: TABLE_NAME, Key: { pk: item.pk, sk: item.sk } })),
    removeGsi6: (item: Item) =>
      client.send(
        new UpdateCommand({
          TableName: TABLE_NAME,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'REMOVE gsi6pk, gsi6sk',
        }),
      ),
  };
}

const isMigrationRecord = (item: Item) => item.pk === 'MIGRATIONS';
const userSearchItem = (item: Item) => item.pk.startsWith('USER#') && item.sk === 'NAMES';
const enrolmentSearchItem = (item: Item) => item.pk.startsWith('CALL#') && item.sk.startsWith('ENROLSEARCH#');
const paymentListRow = (item: Item) =>
  /^CALL#.+#DEBTS#\d{4}$/.test(item.pk) && item.sk.startsWith('USER#') && item.gsi6sk;

describe('data migrations at the local start', () => {
  it('are applied at start; data from before them gets what they write at the next start; a second run changes nothing', async () => {
    const settings = await config();
    stack = await startLocalStack(settings, { web: 'none', seed: true });
    const table = tableOf(stack.dynamoEndpoint);

    // A new table (the demo data) has every migration recorded as applied.
    const migrated = await table.dump();
    expect(migrated.filter(isMigrationRecord).map((r) => [r.sk, r.state])).toEqual(
      MIGRATION_IDS.map((id) => [id, 'APPLIED']).sort(),
    );

    // Data as an earlier version left it: no users' or subscriptions' search items, payment-list rows without
    // their gsi6 key, and no migration recorded.
    const users = migrated.filter(userSearchItem);
    const enrolments = migrated.filter(enrolmentSearchItem);
    const rows = migrated.filter(paymentListRow);
    expect([users.length, enrolments.length, rows.length].every((n) => n > 0)).toBe(true);
    for (const item of [...users, ...enrolments, ...migrated.filter(isMigrationRecord)]) await table.delete(item);
    for (const row of rows) await table.removeGsi6(row);
    await stack.close();

    // The next start writes them back, exactly as the code writes them for new data.
    stack = await startLocalStack(settings, { web: 'none', seed: true });
    const restarted = await table.dump();
    expect(restarted.filter((item) => !isMigrationRecord(item))).toEqual(
      migrated.filter((item) => !isMigrationRecord(item)),
    );
    const records = restarted.filter(isMigrationRecord);
    expect(records.map((r) => [r.sk, r.state])).toEqual(MIGRATION_IDS.map((id) => [id, 'APPLIED']).sort());
    const processed = Object.fromEntries(records.map((r) => [r.sk, r.processed]));
    expect(processed['users-search-item-v1']).toBeGreaterThanOrEqual(users.length);
    expect(processed['enrolment-search-item-v1']).toBeGreaterThanOrEqual(enrolments.length);
    expect(processed['payment-list-gsi6-v1']).toBe(rows.length);
    await stack.close();

    // A second run (the start after): nothing changes, the records included.
    stack = await startLocalStack(settings, { web: 'none', seed: true });
    expect(await table.dump()).toEqual(restarted);

    // And each migration run again over migrated data (its record gone) writes the same items.
    for (const record of records) await table.delete(record);
    const { migrationRunner } = await import('../../functions/entry/migration-catalogue.ts');
    expect(await migrationRunner(() => undefined).runAll()).toEqual([...MIGRATION_IDS]);
    const again = await table.dump();
    expect(again.filter((item) => !isMigrationRecord(item))).toEqual(
      restarted.filter((item) => !isMigrationRecord(item)),
    );
    expect(Object.fromEntries(again.filter(isMigrationRecord).map((r) => [r.sk, r.processed]))).toMatchObject({
      'payment-list-gsi6-v1': 0,
    });
  }, 240_000);
});
