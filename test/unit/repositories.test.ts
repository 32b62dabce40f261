import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { batchGet, batchPut, documentClient } from '../../functions/adapters/dynamo.ts';

/**
 * What DynamoDB does and the local one never does (unprocessed items, throttling): the batch helpers under a
 * mock. The conditional writes are tested on the local DynamoDB (test/integration/repository-conditions.test.ts).
 */
const dynamo = mockClient(DynamoDBDocumentClient);
beforeEach(() => dynamo.reset());

describe('repositories', () => {
  it('batch-writes every item once, a key given twice with its last item, and sends again what DynamoDB left unprocessed', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ pk: `P#${i}`, sk: 'S', n: i }));
    items.push({ pk: 'P#7', sk: 'S', n: 700 });
    let leftOnce = false;
    dynamo
      .on(BatchWriteCommand)
      .callsFake((input: { RequestItems: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> }) => {
        const [requests] = Object.values(input.RequestItems);
        if (leftOnce || !requests!.some((r) => r.PutRequest.Item.pk === 'P#40')) return {};
        leftOnce = true;
        return { UnprocessedItems: { 'unit-test-table': requests!.filter((r) => r.PutRequest.Item.pk === 'P#40') } };
      });
    await batchPut(items);
    const written = dynamo
      .commandCalls(BatchWriteCommand)
      .flatMap((c) => Object.values(c.args[0].input.RequestItems!)[0]!.map((r) => r.PutRequest!.Item!));
    expect(
      dynamo
        .commandCalls(BatchWriteCommand)
        .every((c) => Object.values(c.args[0].input.RequestItems!)[0]!.length <= 25),
    ).toBe(true);
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
        ? new ProvisionedThroughputExceededException({
            message: 'The level of configured provisioned throughput for the table was exceeded.',
            $metadata: {},
          })
        : Object.assign(new Error('Throughput exceeds the current capacity of your table or index.'), { name });
    dynamo
      .on(BatchWriteCommand)
      .rejectsOnce(throttled('ProvisionedThroughputExceededException'))
      .rejectsOnce(throttled('ThrottlingException'))
      .resolves({});
    const items = Array.from({ length: 20 }, (_, i) => ({ pk: `P#${i}`, sk: 'S' }));
    await batchPut(items);
    const sent = dynamo
      .commandCalls(BatchWriteCommand)
      .map((c) => Object.values(c.args[0].input.RequestItems!)[0]!.length);
    expect(sent).toEqual([20, 20, 20]);

    dynamo
      .on(BatchGetCommand)
      .rejectsOnce(throttled('ThrottlingException'))
      .resolves({ Responses: { 'unit-test-table': items } });
    expect(await batchGet(items)).toHaveLength(20);

    // Any other error is not retried.
    dynamo
      .on(BatchWriteCommand)
      .rejects(Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException' }));
    dynamo.resetHistory();
    await expect(batchPut(items)).rejects.toThrow('parameter values');
    expect(dynamo.commandCalls(BatchWriteCommand)).toHaveLength(1);
  });

  /**
   * One partition key serves at most 1,000 write units a second; past it DynamoDB refuses a write with
   * ProvisionedThroughputExceededException (reason TableWriteKeyRangeThroughputExceeded), in on-demand mode too,
   * and writes nothing: a month's generation writes its positions under one key, 50 conditional writes at once.
   */
  it('sends a throttled conditional write again after a backoff, until DynamoDB takes it; a refused condition is not retried', async () => {
    const throttled = () =>
      new ProvisionedThroughputExceededException({
        message: 'You exceeded your maximum allowed provisioned throughput.',
        $metadata: {},
      });
    dynamo.on(PutCommand).rejectsOnce(throttled()).rejectsOnce(throttled()).rejectsOnce(throttled()).resolves({});
    const put = new PutCommand({
      TableName: 'unit-test-table',
      Item: { pk: 'CALL#c#POSITIONS#2026-03', sk: 'USER#u' },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    await documentClient.send(put);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(4);

    dynamo.reset();
    dynamo
      .on(PutCommand)
      .rejects(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }));
    await expect(documentClient.send(put)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(1);
  });
});
