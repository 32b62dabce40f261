/**
 * Runs `work` on every item, at most `limit` at a time (DynamoDB calls in parallel, but not thousands at
 * once): a new one starts as soon as one ends. The results come in the items' order.
 */
export async function mapAtMost<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
