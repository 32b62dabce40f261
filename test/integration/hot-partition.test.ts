import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { PARTITION_LIMIT_PATH } from '../../lib/local/dynalite-partition-limit.ts';
import { openCall } from '../support/calls.ts';
import { mapAtMost } from '../../functions/domain/at-most.ts';
import { approvedSubscriber, operatorWithMyPay, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';

/**
 * A month's positions share one partition key, and so do a call-year's payment-list rows: DynamoDB serves one
 * partition key at most 1,000 write units a second and throttles the rest (lib/local/dynalite-partition-limit.ts).
 * Here the local DynamoDB keeps a far lower limit, so that a month of a few citizens meets it as 10,000 meet
 * DynamoDB's: the generation slows down to the partition's rate (functions/adapters/dynamo.ts backs off on
 * throttling) and ends with every position and every row, none lost, none doubled.
 */
type Client = Awaited<ReturnType<typeof operatorWithMyPay>>;
let operator: Client;
const SUBSCRIBERS = 24;
/** Write units a second per partition key: a month of 24 positions (about 2 units each) takes several seconds. */
const UNITS_PER_SECOND = 10;

const limit = async (unitsPerSecond: number) =>
  (
    await fetch(`${inject('dynamoEndpoint')}${PARTITION_LIMIT_PATH}`, {
      method: 'POST',
      body: JSON.stringify({ unitsPerSecond }),
    })
  ).json() as Promise<{ unitsPerSecond: number; throttled: number }>;

/** The stack's own limit (the integration tier's: DynamoDB's 1,000), put back after each test. */
let stackLimit: number;

beforeAll(async () => {
  operator = await operatorWithMyPay();
  stackLimit = (
    (await (await fetch(`${inject('dynamoEndpoint')}${PARTITION_LIMIT_PATH}`)).json()) as { unitsPerSecond: number }
  ).unitsPerSecond;
});
afterEach(async () => {
  await limit(stackLimit);
});

describe('a month written under one partition key, at DynamoDB’s per-partition limit', () => {
  it('generates every position of the month and every row of the payment list, the throttled writes sent again', async () => {
    const { call } = await openCall(operator);
    const people = await mapAtMost(
      Array.from({ length: SUBSCRIBERS }, (_, i) => i),
      4,
      (i) =>
        approvedSubscriber(operator, call, {
          lastName: `Partizione${String.fromCharCode(65 + i)}`,
          iseeValue: 5000 + i * 100,
          weeklyHour: 1 + (i % 4),
        }),
    );
    const { throttled: before } = await limit(UNITS_PER_SECOND);
    const generated = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese: 3, anno: 2026 });
    const { throttled: after } = await limit(stackLimit);

    expect(generated.job?.state).toBe('SUCCEEDED');
    expect(generated.json.created).toBe(SUBSCRIBERS);
    // The limit did bite: DynamoDB would have refused these writes too.
    expect(after).toBeGreaterThan(before);
    const stored = await storedPositions(call.id, '2026-03');
    expect(stored).toHaveLength(SUBSCRIBERS);
    expect(new Set(stored.map((p) => p.userId))).toEqual(new Set(people.map((p) => p.userId)));
    // Each citizen's row of the payment list shows the month's amount.
    await expect
      .poll(async () => (await operator.get(`/api/calls/${call.id}/payment-list?anno=2026&limit=50`)).json.count)
      .toBe(SUBSCRIBERS);
    const rows = (await operator.get(`/api/calls/${call.id}/payment-list?anno=2026&limit=50`)).json.items as {
      userId: string;
      importoTotale: number;
    }[];
    const amountOf = new Map(stored.map((p) => [p.userId, p.importoDovuto]));
    for (const row of rows) expect(row.importoTotale).toBe(amountOf.get(row.userId));
  });
});
