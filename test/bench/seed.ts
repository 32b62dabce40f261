import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** A benchmark's seed: BatchWriteItem, 25 items a request, `writers` requests in flight, unprocessed items sent again. */
export async function writeAll(
  client: DynamoDBDocumentClient,
  table: string,
  items: readonly Record<string, unknown>[],
  writers = 8,
): Promise<void> {
  let next = 0;
  const writer = async () => {
    while (next < items.length) {
      const batch = items.slice(next, next + 25);
      next += 25;
      let request: Record<string, any> | undefined = { [table]: batch.map((Item) => ({ PutRequest: { Item } })) };
      while (request && Object.keys(request).length)
        request = (await client.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
}
