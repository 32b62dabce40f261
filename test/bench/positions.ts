/**
 * npm run bench:positions — generating a month of debt positions and its MyPay CSV for one call with
 * BENCH_POSITIONS (10,000) approved subscriptions, through the use cases the job function runs (the kinds
 * 'generate-positions' and 'positions-csv': the API only starts them) on a local dynalite.
 * Seeds users (with a validated ISEE), subscriptions, a call, its band and the configuration with
 * BatchWrite, then times: the first generation (all creates), a second one (nothing to change, the
 * idempotent path), 'Verifica / genera CSV', and the next month (new positions, ISEE already marked).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/adapters/table.ts';
import { ensureTable, startS3 } from '../../lib/local/stores.ts';
import { startLocalDynamo } from '../../lib/local/dynalite-thread.ts';
import { demoConfiguration } from '../../lib/local/demo-configuration.ts';
import { claimsOf } from '../support/events.ts';
import { actorFromClaims } from '../../functions/domain/roles.ts';

import { freePort } from '../support/ports.ts';
import { untracedFunctionEnv } from '../../lib/local/untraced-env.ts';
import { writeAll } from './seed.ts';

const COUNT = Number(process.env.BENCH_POSITIONS ?? 10_000);
const TABLE = 'bench-positions';
const CALL = 'bench-call';
const BAND = 'bench-band';

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-positions-'));
  const port = await freePort();
  const dynamo = await startLocalDynamo(dataDir, port);
  const endpoint = `http://127.0.0.1:${port}`;
  // 'Verifica / genera CSV' leaves its file in the exports bucket (s3rver, which takes only its own keys).
  const s3Port = await freePort();
  const s3 = await startS3(dataDir, s3Port, ['bench-exports'], 'http://localhost');
  Object.assign(process.env, {
    AWS_REGION: 'eu-south-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: endpoint,
    CURSOR_SECRET: 'bench',
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    EXPORTS_BUCKET: 'bench-exports',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT',
    ...untracedFunctionEnv,
  });
  try {
    await ensureTable(endpoint, TABLE);
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
    const { userItem } = await import('../../functions/users/repository.ts');
    const { createBand } = await import('../../functions/bands/repository.ts');
    const { putConfiguration } = await import('../../functions/configuration/repository.ts');
    const { payments } = await import('../../functions/entry/wired-payments.ts');

    const now = new Date().toISOString();
    await createBand({ name: 'Fascia', min: 3000.01, max: 50000, percent: 40, fixedCost: 18 }, BAND, now);
    await putConfiguration(demoConfiguration, now);
    await client.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...keys.call(CALL),
          id: CALL,
          name: 'Bando benchmark',
          year: 2026,
          state: 1,
          serviceId: 's',
          serviceName: 'Assistenza domiciliare',
          dataInsert: now,
          nomeMyPay: 'SERVIZI_SOCIALI',
          codAccertamento: 'ACC-1',
          codCapitolo: 'CAP-1',
          bandsId: [BAND],
          files: [],
          version: 1,
          updatedAt: now,
        },
      }),
    );
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < COUNT; i++) {
      const id = `u${String(i).padStart(6, '0')}`;
      const fiscalCode = `BNCMRA80A01H${String(i).padStart(4, '0')}`.slice(0, 16);
      items.push({
        ...userItem({
          id,
          firstName: 'Maria',
          lastName: `Bianchi ${i}`,
          fiscalCode,
          email: `${id}@example.it`,
          address: 'Via Roma',
          addressNumber: '1',
          cap: '00100',
          city: 'Roma',
          country: 'RM',
          nation: 'IT',
          state: 'VALIDATED',
          dataInsert: now,
        }),
        lastIsee: { id: `isee-${id}`, valueCents: 400_000 + i, year: 2026, state: 'VALIDATED', hasFile: false },
      });
      items.push({
        ...keys.subscription(CALL, id),
        gsi1pk: keys.subscriptionsOfUser(id),
        gsi1sk: `${now}#${CALL}`,
        gsi2pk: keys.subscriptionsOfCall(CALL),
        gsi2sk: `SUBSCRIBER#${id}`,
        id: `${CALL}.${id}`,
        state: 'VALIDATED',
        announcementId: CALL,
        weeklyHour: 1 + (i % 5),
        userId: id,
        fiscalCode,
        firstName: 'Maria',
        lastName: `Bianchi ${i}`,
        dataInsert: now,
        dataUpdate: now,
        files: [],
      });
    }
    await writeAll(client, TABLE, items);

    const actor = actorFromClaims(claimsOf.operator);
    const call = async (kind: 'generate' | 'csv', label: string, body = { mese: 3, anno: 2026 }) => {
      const t0 = performance.now();
      const answer: Record<string, any> =
        kind === 'csv'
          ? await payments.positionsCsv(CALL, body, actor)
          : await payments.generatePositions(CALL, body, actor);
      const seconds = (performance.now() - t0) / 1000;
      const size = answer.url ? (await (await fetch(answer.url)).arrayBuffer()).byteLength : 0;
      console.log(
        `${label.padEnd(34)} ${seconds.toFixed(1).padStart(6)} s   created ${answer.created}, updated ${answer.updated}, unchanged ${answer.unchanged}${answer.rows !== undefined ? `, CSV rows ${answer.rows} (${(size / 1024).toFixed(0)} KB, by link)` : ''}`,
      );
    };
    console.log(
      `${COUNT.toLocaleString('it-IT')} approved subscriptions of one call, month 2026-03 (Node ${process.version}, dynalite):\n`,
    );
    await call('generate', 'first generation (all new)');
    await call('generate', 'second generation (nothing to do)');
    await call('csv', 'Verifica / genera CSV');
    await call('generate', 'next month (all new, ISEE known)', { mese: 4, anno: 2026 });
  } finally {
    await s3.close();
    await dynamo.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
