import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Isee } from '../domain/isee.ts';
import { ISEE_FEE_MARKER, ISEE_PAGE_SIZE, iseeDocumentKey, toIsee, type IseeState } from '../domain/isee-rules.ts';
import { toCents } from '../domain/money.ts';
import type { NewIsee } from '../domain/isee-record.ts';
import type { IseeExtraction } from '../domain/isee-extraction.ts';
import type { Page } from '../domain/validation.ts';
import {
  batchGet,
  batchPut,
  countUnder,
  documentClient,
  hasChildren,
  queryPage,
  tableName,
  unlessConditionFails,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/** An ISEE item as stored (amounts in cents); the extraction's attributes are written by functions/isee-extraction. */
export interface StoredIsee {
  id: string;
  userId: string;
  user: { firstName: string; lastName: string; fiscalCode: string; email: string | null };
  valueCents: number;
  year: number;
  date: string;
  state: IseeState;
  hasFile: boolean;
  fileName?: string | null;
  contentType?: string | null;
  protocollo?: string | null;
  scadenza?: string | null;
  dataInsert: string;
  /** What functions/isee-extraction read in the document, once it has. */
  extraction?: IseeExtraction | null;
  [attribute: string]: unknown;
}

/**
 * The ISEE item; null when there is none, or only the reading's result written before the ISEE itself. One
 * consistent Query of its partition: the ISEE and, once a fee was computed from it, its fee marker
 * (markIseesUsedForFee), whose time it shows as ISEE_FEE_MARKER.
 */
export async function getIseeItem(id: string): Promise<StoredIsee | null> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.isee(id).pk },
      ConsistentRead: true,
    }),
  );
  const item = Items.find((found) => found.sk === keys.isee(id).sk);
  if (!item || !item.userId) return null;
  const marker = Items.find((found) => found.sk === keys.iseeFeeMarker(id).sk);
  return (
    marker && !item[ISEE_FEE_MARKER] ? { ...item, [ISEE_FEE_MARKER]: marker[ISEE_FEE_MARKER] } : item
  ) as StoredIsee;
}

export const newIseeId = () => randomUUID();

/**
 * Writes a new ISEE (its document already stored at iseeDocumentKey(id)). UpdateItem, not Put: the
 * document reader may already have written its result on the item, and `extraction`/`extractionStatus`
 * are never overwritten here.
 */
export async function createIsee(input: NewIsee, now: string): Promise<StoredIsee> {
  const sortKey = `${now}#${input.id}`;
  const fields: Record<string, unknown> = {
    id: input.id,
    userId: input.userId,
    user: input.user,
    valueCents: toCents(input.value),
    year: input.year,
    date: input.date,
    protocollo: input.protocollo ?? null,
    scadenza: input.scadenza ?? null,
    state: input.state,
    hasFile: !!input.file,
    fileName: input.file?.name ?? null,
    contentType: input.file?.contentType ?? null,
    fileSize: input.file?.size ?? null,
    documentKey: input.file ? iseeDocumentKey(input.id) : null,
    uploadedBy: input.uploadedBy,
    uploadedBySub: input.uploadedBySub,
    excludeVerification: !!input.excludeVerification,
    ...(input.source ? { source: input.source, inps: input.inps ?? null } : {}),
    dataInsert: now,
    updatedAt: now,
    gsi2pk: keys.iseesOfUser(input.userId),
    gsi2sk: sortKey,
    ...(input.state === 'LOADED' ? { gsi1pk: keys.iseesToVerify, gsi1sk: sortKey } : {}),
  };
  const names: Record<string, string> = { '#es': 'extractionStatus' };
  const values: Record<string, unknown> = { ':es': input.file ? 'PENDING' : 'NONE' };
  const set = Object.entries(fields).map(([key, value], index) => {
    names[`#f${index}`] = key;
    values[`:v${index}`] = value;
    return `#f${index} = :v${index}`;
  });
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.isee(input.id),
      UpdateExpression: `SET ${set.join(', ')}, #es = if_not_exists(#es, :es)`,
      ConditionExpression: 'attribute_not_exists(userId)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as StoredIsee;
}

/**
 * Moves an ISEE from `expected` to `state` (it leaves the to-verify list), with the given fields. A
 * conditional write: null, and nothing written, when the ISEE is gone or no longer in `expected`.
 */
export async function changeIseeState(
  id: string,
  expected: IseeState,
  state: IseeState,
  now: string,
  fields: Record<string, unknown> = {},
): Promise<StoredIsee | null> {
  const names: Record<string, string> = { '#state': 'state' };
  const values: Record<string, unknown> = { ':state': state, ':expected': expected, ':now': now };
  const sets = ['#state = :state', 'updatedAt = :now'];
  Object.entries(fields).forEach(([key, value], index) => {
    if (value === undefined) return;
    names[`#x${index}`] = key;
    values[`:x${index}`] = value;
    sets.push(`#x${index} = :x${index}`);
  });
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.isee(id),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE gsi1pk, gsi1sk`,
        ConditionExpression: 'attribute_exists(userId) AND #state = :expected',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return written ? (written.Attributes as StoredIsee) : null;
}

/**
 * Deletes an ISEE; false, and nothing deleted, when there is none or it has been used for a fee (domain:
 * ISEE_FEE_MARKER, on the item or as its fee marker). A fee marker written after the read below orders the
 * delete first, as an older mark of an ISEE already deleted did (nothing marks an ISEE that is gone).
 */
export async function deleteIsee(id: string): Promise<boolean> {
  const { Item: marker } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.iseeFeeMarker(id), ConsistentRead: true }),
  );
  if (marker) return false;
  const deleted = await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: keys.isee(id),
        ConditionExpression: 'attribute_exists(userId) AND attribute_not_exists(#usedForFee)',
        ExpressionAttributeNames: { '#usedForFee': ISEE_FEE_MARKER },
      }),
    ),
  );
  return deleted !== null;
}

/**
 * A user's most recent ISEE (gsi2, newest first): eventually consistent, so the use cases take them as candidates
 * and read each from the table (functions/isee/use-cases.ts newestOf).
 */
export async function recentIseesOfUser(userId: string, limit: number): Promise<StoredIsee[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.iseesOfUser(userId) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items as StoredIsee[];
}

export const userHasIsees = (userId: string) => hasChildren(keys.iseesOfUser(userId));

/** The ISEE of a user, newest first, five per page. */
export const listIseesOfUser = (userId: string, page: { limit?: number; cursor?: string }): Promise<Page<Isee>> =>
  queryPage(
    {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.iseesOfUser(userId) },
      ScanIndexForward: false,
    },
    page,
    toIsee,
    ISEE_PAGE_SIZE,
  );

/** ISEE uploaded and not yet validated, oldest first (first come, first served), five per page. */
export const listIseesToVerify = (page: { limit?: number; cursor?: string }): Promise<Page<Isee>> =>
  queryPage(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.iseesToVerify },
    },
    page,
    toIsee,
    ISEE_PAGE_SIZE,
  );

export const countIseesToVerify = () => countUnder('gsi1', 'gsi1pk', keys.iseesToVerify);

/**
 * Marks ISEEs as used to compute a fee (debt positions): from then on they cannot be deleted. Those already
 * marked keep their first time; those gone are skipped. A month's thousands go in batches: one BatchGet per
 * 50 ISEEs (the ISEE and its marker), then one BatchWrite per 25 new markers, items of their own beside each
 * ISEE (a batch has no condition, so it never writes the ISEE item itself). How many were marked now.
 */
export async function markIseesUsedForFee(ids: readonly string[], at: string): Promise<number> {
  const unique = [...new Set(ids)];
  const found = await batchGet(
    unique.flatMap((id) => [keys.isee(id), keys.iseeFeeMarker(id)]),
    {
      consistent: true,
      projection: 'pk, sk, userId, #usedForFee',
      names: { '#usedForFee': ISEE_FEE_MARKER },
    },
  );
  const exists = new Set(
    found
      .filter((item) => item.sk === keys.isee('').sk && item.userId && !item[ISEE_FEE_MARKER])
      .map((item) => item.pk as string),
  );
  for (const item of found) if (item.sk === keys.iseeFeeMarker('').sk) exists.delete(item.pk as string);
  const toMark = unique.filter((id) => exists.has(keys.isee(id).pk));
  await batchPut(toMark.map((id) => ({ ...keys.iseeFeeMarker(id), iseeId: id, [ISEE_FEE_MARKER]: at })));
  return toMark.length;
}
