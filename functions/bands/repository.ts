import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { hourlyQuota, type Band, type BandInput } from '../domain/bands.ts';
import { toCents, toEuros } from '../domain/money.ts';
import { documentClient, hasChildren, queryPage, unlessConditionFails, tableName } from '../adapters/dynamo.ts';
import { keys, numericSortKey } from '../adapters/table.ts';

export const BANDS_PAGE_SIZE = 20;

function toItem(id: string, band: BandInput, now: string) {
  const minCents = toCents(band.min);
  return {
    ...keys.band(id),
    gsi1pk: keys.bandsCollection,
    gsi1sk: `${numericSortKey(minCents)}#${id}`,
    id,
    name: band.name,
    minCents,
    maxCents: toCents(band.max),
    percent: band.percent ?? null,
    fixedCostCents: toCents(band.fixedCost),
    updatedAt: now,
  };
}

function toBand(item: Record<string, any>): Band {
  const band = {
    id: item.id,
    name: item.name,
    min: toEuros(item.minCents),
    max: toEuros(item.maxCents),
    percent: item.percent ?? null,
    fixedCost: toEuros(item.fixedCostCents),
  };
  return { ...band, hourlyQuota: hourlyQuota(band) };
}

/** Bands ordered by their lower bound. */
export const listBands = (page: { limit?: number; cursor?: string }) =>
  queryPage(
    { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.bandsCollection } },
    page,
    toBand,
    BANDS_PAGE_SIZE,
  );

export async function getBand(id: string): Promise<Band | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.band(id) }));
  return Item ? toBand(Item) : null;
}

export async function createBand(input: BandInput, now = new Date().toISOString()): Promise<Band> {
  const item = { ...toItem(randomUUID(), input, now), createdAt: now };
  await documentClient.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return toBand(item);
}

/** Replaces a band; null when it does not exist (nothing is written then). */
export async function updateBand(id: string, input: BandInput, now = new Date().toISOString()): Promise<Band | null> {
  const item = toItem(id, input, now);
  const written = await unlessConditionFails(
    documentClient.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_OLD' })),
  );
  return written && toBand({ ...item, createdAt: written.Attributes?.createdAt });
}

export const bandIsUsedByCalls = (id: string) => hasChildren(keys.callsUsingBand(id));

/** Deletes a band; false when it did not exist. */
export async function deleteBand(id: string): Promise<boolean> {
  const deleted = await unlessConditionFails(
    documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.band(id), ConditionExpression: 'attribute_exists(pk)' })),
  );
  return deleted !== null;
}
