import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Service, ServiceInput } from '../domain/services.ts';
import { documentClient, hasChildren, queryPage, unlessConditionFails, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

export const SERVICES_PAGE_SIZE = 20;

const toItem = (id: string, service: ServiceInput, now: string) => ({
  ...keys.service(id),
  gsi1pk: keys.servicesCollection,
  gsi1sk: `${service.name.toLocaleLowerCase('it')}#${id}`,
  id,
  ...service,
  updatedAt: now,
});

const toService = (item: Record<string, any>): Service => ({
  id: item.id,
  code: item.code,
  name: item.name,
  description: item.description,
});

/** Services ordered by name. */
export const listServices = (page: { limit?: number; cursor?: string }) =>
  queryPage(
    { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.servicesCollection } },
    page,
    toService,
    SERVICES_PAGE_SIZE,
  );

export async function getService(id: string): Promise<Service | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.service(id) }));
  return Item ? toService(Item) : null;
}

export async function createService(input: ServiceInput, now = new Date().toISOString()): Promise<Service> {
  const item = { ...toItem(randomUUID(), input, now), createdAt: now };
  await documentClient.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return toService(item);
}

/** Replaces a service; null when it does not exist (nothing is written then). */
export async function updateService(id: string, input: ServiceInput, now = new Date().toISOString()): Promise<Service | null> {
  const item = toItem(id, input, now);
  const written = await unlessConditionFails(
    documentClient.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_OLD' })),
  );
  return written && toService({ ...item, createdAt: written.Attributes?.createdAt });
}

export const serviceHasCalls = (id: string) => hasChildren(keys.callsOfService(id));

/** Deletes a service; false when it did not exist. */
export async function deleteService(id: string): Promise<boolean> {
  const deleted = await unlessConditionFails(
    documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.service(id), ConditionExpression: 'attribute_exists(pk)' })),
  );
  return deleted !== null;
}
