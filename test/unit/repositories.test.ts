import { ConditionalCheckFailedException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { batchGet, batchPut } from '../../functions/adapters/dynamo.ts';
import { updateBand } from '../../functions/bands/repository.ts';
import { putCall, type CallRecord } from '../../functions/calls/repository.ts';
import { changeIseeState, deleteIsee } from '../../functions/isee/repository.ts';
import { deleteUser } from '../../functions/users/repository.ts';

/** The few places where the DynamoDB key or condition is the point: the rest is covered by the use-case tests. */
const dynamo = mockClient(DynamoDBDocumentClient);
const conditionFails = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
beforeEach(() => dynamo.reset());

const call: CallRecord = {
  id: 'c1', name: 'Bando', year: 2026, state: 1, serviceId: 's1', serviceName: 'Servizio', serviceDescription: 'D', dataInsert: '2026-03-01T09:00:00.000Z',
  nomeMyPay: 'M', codAccertamento: 'A', codCapitolo: 'C', bandsId: ['b1'], files: [], updatedAt: '2026-03-01T09:00:00.000Z', version: 2,
};

describe('repositories', () => {
  it('edits a band in place, so its createdAt stays; an unknown band is null', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({ Attributes: { id: 'b1', name: 'Fascia', minCents: 0, maxCents: 100, percent: null, fixedCostCents: 500, createdAt: 'then' } }).rejectsOnce(conditionFails());
    expect(await updateBand('b1', { name: 'Fascia', min: 0, max: 1, percent: null, fixedCost: 5 }, 'now')).toMatchObject({ id: 'b1', fixedCost: 5 });
    const input = dynamo.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.ConditionExpression).toBe('attribute_exists(pk)');
    expect(Object.values(input.ExpressionAttributeNames!)).not.toContain('createdAt');
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
    expect(await updateBand('b2', { name: 'Fascia', min: 0, max: 1, percent: null, fixedCost: 5 }, 'now')).toBeNull();
  });

  it('saves a call only over the version read, and then touches neither its band links nor its open marker', async () => {
    dynamo.on(PutCommand).rejectsOnce(conditionFails());
    expect(await putCall({ ...call, version: 3, bandsId: ['b2'] }, call)).toBe(false);
    expect(dynamo.commandCalls(PutCommand).map((c) => c.args[0].input.ConditionExpression)).toEqual(['version = :version']);
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('keeps the open marker in step with the state: written while OPEN, deleted when the call closes', async () => {
    dynamo.on(PutCommand).resolves({});
    dynamo.on(DeleteCommand).resolves({});
    await putCall({ ...call, version: 3 }, call);
    expect(dynamo.commandCalls(PutCommand).map((c) => c.args[0].input.Item!.sk)).toEqual(['CALL', 'OPEN']);
    dynamo.resetHistory();
    await putCall({ ...call, state: 2, version: 3 }, call);
    expect(dynamo.commandCalls(DeleteCommand).map((c) => c.args[0].input.Key)).toEqual([{ pk: 'CALL#c1', sk: 'OPEN' }]);
  });

  it('moves an ISEE only from the state read (two operators: one wins), and deletes a user only with the ISEE count read', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFails());
    expect(await changeIseeState('i1', 'LOADED', 'VALIDATED', 'now')).toBeNull();
    expect(dynamo.commandCalls(UpdateCommand)[0].args[0].input).toMatchObject({ ConditionExpression: 'attribute_exists(userId) AND #state = :expected', ExpressionAttributeValues: { ':expected': 'LOADED' } });
    dynamo.on(DeleteCommand).rejects(conditionFails());
    expect(await deleteUser('u1', { iseeCount: 0 })).toBe(false);
    expect(dynamo.commandCalls(DeleteCommand)[0].args[0].input.ConditionExpression).toContain('iseeCount = :count');
  });

  it('deletes an ISEE only while it exists and has not been used for a fee', async () => {
    dynamo.on(DeleteCommand).rejectsOnce(conditionFails()).resolvesOnce({});
    expect(await deleteIsee('i1')).toBe(false);
    expect(await deleteIsee('i1')).toBe(true);
    expect(dynamo.commandCalls(DeleteCommand)[0].args[0].input).toMatchObject({
      Key: { pk: 'ISEE#i1', sk: 'ISEE' },
      ConditionExpression: 'attribute_exists(userId) AND attribute_not_exists(#usedForFee)',
      ExpressionAttributeNames: { '#usedForFee': 'feeComputedAt' },
    });
  });

  it('batch-writes every item once, a key given twice with its last item, and sends again what DynamoDB left unprocessed', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ pk: `P#${i}`, sk: 'S', n: i }));
    items.push({ pk: 'P#7', sk: 'S', n: 700 });
    let leftOnce = false;
    dynamo.on(BatchWriteCommand).callsFake((input: { RequestItems: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> }) => {
      const [requests] = Object.values(input.RequestItems);
      if (leftOnce || !requests!.some((r) => r.PutRequest.Item.pk === 'P#40')) return {};
      leftOnce = true;
      return { UnprocessedItems: { 'unit-test-table': requests!.filter((r) => r.PutRequest.Item.pk === 'P#40') } };
    });
    await batchPut(items);
    const written = dynamo.commandCalls(BatchWriteCommand).flatMap((c) => Object.values(c.args[0].input.RequestItems!)[0]!.map((r) => r.PutRequest!.Item!));
    expect(dynamo.commandCalls(BatchWriteCommand).every((c) => Object.values(c.args[0].input.RequestItems!)[0]!.length <= 25)).toBe(true);
    expect(written.filter((item) => item.pk === 'P#7')).toEqual([{ pk: 'P#7', sk: 'S', n: 700 }]);
    expect(written.filter((item) => item.pk === 'P#40')).toHaveLength(2);
    expect(new Set(written.map((item) => item.pk)).size).toBe(60);
  });

  /**
   * "If none of the items can be processed due to insufficient provisioned throughput on all of the tables in
   * the request, then BatchWriteItem returns a ProvisionedThroughputExceededException" (on-demand: a
   * ThrottlingException); "we strongly recommend that you use an exponential backoff algorithm"
   * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html, API_BatchGetItem.html).
   */
  it('sends again, after a backoff, a batch DynamoDB refused whole for throughput: every item written, every key read', async () => {
    const throttled = (name: string) =>
      name === 'ProvisionedThroughputExceededException'
        ? new ProvisionedThroughputExceededException({ message: 'The level of configured provisioned throughput for the table was exceeded.', $metadata: {} })
        : Object.assign(new Error('Throughput exceeds the current capacity of your table or index.'), { name });
    dynamo.on(BatchWriteCommand).rejectsOnce(throttled('ProvisionedThroughputExceededException')).rejectsOnce(throttled('ThrottlingException')).resolves({});
    const items = Array.from({ length: 20 }, (_, i) => ({ pk: `P#${i}`, sk: 'S' }));
    await batchPut(items);
    const sent = dynamo.commandCalls(BatchWriteCommand).map((c) => Object.values(c.args[0].input.RequestItems!)[0]!.length);
    expect(sent).toEqual([20, 20, 20]);

    dynamo.on(BatchGetCommand).rejectsOnce(throttled('ThrottlingException')).resolves({ Responses: { 'unit-test-table': items } });
    expect(await batchGet(items)).toHaveLength(20);

    // Any other error is not retried.
    dynamo.on(BatchWriteCommand).rejects(Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException' }));
    dynamo.resetHistory();
    await expect(batchPut(items)).rejects.toThrow('parameter values');
    expect(dynamo.commandCalls(BatchWriteCommand)).toHaveLength(1);
  });
});
