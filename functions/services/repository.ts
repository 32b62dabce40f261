import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Service, ServiceInput } from '../domain/services.ts';
import type { Page } from '../domain/validation.ts';
import { documentClient, queryPage, unlessConditionFails, tableName, type StoredItem } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

export const SERVICES_PAGE_SIZE = 20;

/** The service's attributes (besides its keys and createdAt). */
const fieldsOf = (id: string, service: ServiceInput, now: string) => ({
  gsi1pk: keys.servicesCollection,
  gsi1sk: `${service.name.toLocaleLowerCase('it')}#${id}`,
  id,
  code: service.code,
  name: service.name,
  description: service.description,
  // Absent from an update: the stored code stays (a client that does not know the field does not clear it).
  ...(service.inpsBenefitCode !== undefined ? { inpsBenefitCode: service.inpsBenefitCode } : {}),
  updatedAt: now,
});

const toService = (item: StoredItem): Service => ({
  id: item.id,
  code: item.code,
  name: item.name,
  description: item.description,
  inpsBenefitCode: item.inpsBenefitCode ?? null,
});

/** The PrestazioneDaErogare a service's ISEE queries send (null: the council's default, or no such service). */
export async function getServiceBenefitCode(id: string): Promise<string | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.service(id), ProjectionExpression: 'inpsBenefitCode' }),
  );
  return Item?.inpsBenefitCode ?? null;
}

/** Services ordered by name. */
export const listServices = (page: { limit?: number; cursor?: string }): Promise<Page<Service>> =>
  queryPage(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.servicesCollection },
    },
    page,
    toService,
    SERVICES_PAGE_SIZE,
  );

export async function getService(id: string): Promise<Service | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.service(id) }));
  return Item ? toService(Item) : null;
}

/** The id and time default to new ones for the demo data (lib/local); the use case passes its own. */
export async function createService(
  input: ServiceInput,
  id: string = randomUUID(),
  now: string = new Date().toISOString(),
): Promise<Service> {
  const item = { ...keys.service(id), inpsBenefitCode: null, ...fieldsOf(id, input, now), createdAt: now };
  await documentClient.send(
    new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
  return toService(item);
}

/** Changes a service's fields in place (UpdateItem: createdAt stays); null when it does not exist. */
export async function updateService(id: string, input: ServiceInput, now: string): Promise<Service | null> {
  const fields = Object.entries(fieldsOf(id, input, now));
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.service(id),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return written?.Attributes ? toService(written.Attributes) : null;
}

/** Deletes a service; false when it did not exist. */
export async function deleteService(id: string): Promise<boolean> {
  const deleted = await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({ TableName: tableName, Key: keys.service(id), ConditionExpression: 'attribute_exists(pk)' }),
    ),
  );
  return deleted !== null;
}
