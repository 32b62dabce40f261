import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hourlyQuota } from '../domain/band-rules.ts';
import type { Band, BandInput } from '../domain/bands.ts';
import { toCents, toEuros } from '../domain/money.ts';
import type { Page } from '../domain/validation.ts';
import {
  batchGet,
  documentClient,
  queryPage,
  unlessConditionFails,
  tableName,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys, numericSortKey } from '../adapters/table.ts';

export const BANDS_PAGE_SIZE = 20;

/** The band's attributes (besides its keys and createdAt), amounts in cents. */
function fieldsOf(id: string, band: BandInput, now: string) {
  const minCents = toCents(band.min);
  return {
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

function toBand(item: StoredItem): Band {
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
export const listBands = (page: { limit?: number; cursor?: string }): Promise<Page<Band>> =>
  queryPage(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.bandsCollection },
    },
    page,
    toBand,
    BANDS_PAGE_SIZE,
  );

export async function getBand(id: string): Promise<Band | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.band(id) }));
  return Item ? toBand(Item) : null;
}

/** Several bands in one BatchGetItem (a call's bands), in the order of `ids`; unknown ids are left out. */
export async function getBands(ids: readonly string[]): Promise<Band[]> {
  if (!ids.length) return [];
  const byId = new Map(
    (await batchGet([...new Set(ids)].map(keys.band))).map((item) => [item.id as string, toBand(item)]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The id and time default to new ones for the demo data (lib/local); the use case passes its own. */
export async function createBand(
  input: BandInput,
  id: string = randomUUID(),
  now: string = new Date().toISOString(),
): Promise<Band> {
  const item = { ...keys.band(id), ...fieldsOf(id, input, now), createdAt: now };
  await documentClient.send(
    new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
  return toBand(item);
}

/**
 * Changes a band's fields in place (UpdateItem: createdAt stays); null when it does not exist (nothing
 * is written then).
 */
export async function updateBand(id: string, input: BandInput, now: string): Promise<Band | null> {
  const fields = Object.entries(fieldsOf(id, input, now));
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.band(id),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return written?.Attributes ? toBand(written.Attributes) : null;
}

/** Deletes a band; false when it did not exist. */
export async function deleteBand(id: string): Promise<boolean> {
  const deleted = await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({ TableName: tableName, Key: keys.band(id), ConditionExpression: 'attribute_exists(pk)' }),
    ),
  );
  return deleted !== null;
}
