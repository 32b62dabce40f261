import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordAuditBatch } from '../../functions/adapters/audit-log.ts';
import type { Actor } from '../../functions/domain/roles.ts';

/**
 * A partition of a table or of a global secondary index takes at most 1,000 write units a second; past it the
 * writes are throttled however much capacity the table has ("Best practices for designing and using partition
 * keys effectively" and "Using write sharding to distribute workloads evenly",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-sharding.html). A month's
 * generation audits every position at once: its entries must not all land in one gsi1 partition.
 */
/** DynamoDB's write limit of one partition, of a table or of an index (the pages above). */
const PARTITION_WRITES_PER_SECOND = 1_000;
const dynamo = mockClient(DynamoDBDocumentClient);
beforeEach(() => dynamo.reset());
const operator: Actor = {
  sub: 'op',
  role: 'OPERATOR',
  fiscalCode: 'BNCLRA79H61F205F',
  fullName: 'Laura Bianchi',
} as Actor;

describe('audit entries of one batch', () => {
  it('spread 10,000 entries of a day over the day’s gsi1 shards, each with a sort key of its own', async () => {
    dynamo.on(BatchWriteCommand).resolves({});
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      actor: operator,
      entity: 'position',
      id: `P202603${String(i).padStart(28, '0')}`,
      action: 'create' as const,
      before: null,
      after: { importoDovuto: 1000 + i },
    }));
    await recordAuditBatch(entries, new Date('2026-03-02T10:00:00.000Z'));
    const items = dynamo
      .commandCalls(BatchWriteCommand)
      .flatMap((c) => Object.values(c.args[0].input.RequestItems!)[0]!.map((r) => r.PutRequest!.Item!));
    expect(items).toHaveLength(10_000);
    const perPartition = new Map<string, number>();
    for (const item of items)
      perPartition.set(item.gsi1pk as string, (perPartition.get(item.gsi1pk as string) ?? 0) + 1);
    expect([...perPartition.keys()].every((pk) => pk.startsWith('AUDIT#2026-03-02#'))).toBe(true);
    // Written in the same second, no partition of the index takes more than its 1,000 writes: nothing is throttled.
    expect(Math.max(...perPartition.values())).toBeLessThanOrEqual(PARTITION_WRITES_PER_SECOND);
    // Even: no shard takes more than a quarter above its share.
    expect(Math.max(...perPartition.values())).toBeLessThan((10_000 / perPartition.size) * 1.25);
    expect(new Set(items.map((item) => `${item.gsi1pk}|${item.gsi1sk}`)).size).toBe(10_000);
    // A record's entries stay in one shard: its history is one partition of the table, its day one shard.
    const again = dynamo.commandCalls(BatchWriteCommand).length;
    await recordAuditBatch(entries.slice(0, 1), new Date('2026-03-02T11:00:00.000Z'));
    const later = Object.values(dynamo.commandCalls(BatchWriteCommand)[again]!.args[0].input.RequestItems!)[0]![0]!
      .PutRequest!.Item!;
    expect(later.gsi1pk).toBe(items.find((item) => item.recordId === entries[0]!.id)!.gsi1pk);
  });
});
