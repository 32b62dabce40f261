import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { iseeMessages, type Isee, type IseeDecision, type IseeState } from '../domain/isee.ts';
import { iseeDocumentKey } from '../domain/isee-extraction.ts';
import { toCents, toEuros } from '../domain/money.ts';
import type { Page } from '../domain/validation.ts';
import { countUnder, documentClient, isConditionFailure, queryPage, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import { getUserItem, updateUserFields } from '../users/repository.ts';

export const ISEE_PAGE_SIZE = 5;

export function toIsee(item: Record<string, any>): Isee {
  return {
    id: item.id,
    userId: item.userId,
    user: {
      firstName: item.user?.firstName ?? '',
      lastName: item.user?.lastName ?? '',
      fiscalCode: item.user?.fiscalCode ?? '',
      email: item.user?.email ?? null,
    },
    value: toEuros(item.valueCents ?? 0),
    year: item.year,
    date: item.date,
    protocollo: item.protocollo ?? null,
    scadenza: item.scadenza ?? null,
    state: item.state,
    hasFile: !!item.hasFile,
    fileName: item.fileName ?? null,
    contentType: item.contentType ?? null,
    uploadedBy: item.uploadedBy ?? 'CITIZEN',
    excludeVerification: !!item.excludeVerification,
    dataInsert: item.dataInsert,
    extractionStatus: item.extractionStatus ?? 'NONE',
    extraction: item.extraction ?? null,
  };
}

export async function getIseeItem(id: string): Promise<Record<string, any> | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.isee(id), ConsistentRead: true }));
  return Item && Item.userId ? Item : null;
}

export interface NewIsee {
  id?: string;
  userId: string;
  user: { firstName: string; lastName: string; fiscalCode: string; email: string | null };
  value: number;
  year: number;
  date: string;
  protocollo?: string | null;
  scadenza?: string | null;
  state: 'LOADED' | 'VALIDATED';
  file: { name: string; contentType: string; size: number } | null;
  uploadedBy: 'CITIZEN' | 'OPERATOR';
  uploadedBySub: string;
  excludeVerification?: boolean;
}

export const newIseeId = () => randomUUID();

/**
 * Records an ISEE (its document already stored at iseeDocumentKey(id)) and makes it the user's newest:
 * the previous one is invalidated (part 1 §4), the user's summary and state follow (LOADED while it
 * waits for an operator). UpdateItem, not Put: the document reader may already have written its result
 * on the item, and `extraction`/`extractionStatus` are never overwritten here.
 */
export async function createIsee(input: NewIsee & { id: string }, now = new Date().toISOString()): Promise<Isee> {
  const previous = await newestIseeItem(input.userId);
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
  if (previous && (previous.state === 'LOADED' || previous.state === 'VALIDATED')) {
    await setState(previous.id, 'INVALIDATED', previous.state, now).catch((error) => {
      if (!(error instanceof ConflictError)) throw error;
    });
  }
  await refreshUserSummary(input.userId, now, 1);
  return toIsee(Attributes!);
}

/** Moves an ISEE from one state to another, refused (409) when it is no longer in the expected state. */
async function setState(id: string, state: IseeState, expected: IseeState, now: string, extra: Record<string, unknown> = {}) {
  const names: Record<string, string> = { '#state': 'state' };
  const values: Record<string, unknown> = { ':state': state, ':expected': expected, ':now': now };
  const sets = ['#state = :state', 'updatedAt = :now'];
  Object.entries(extra).forEach(([key, value], index) => {
    if (value === undefined) return;
    names[`#x${index}`] = key;
    values[`:x${index}`] = value;
    sets.push(`#x${index} = :x${index}`);
  });
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.isee(id),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE gsi1pk, gsi1sk`,
        ConditionExpression: 'attribute_exists(userId) AND #state = :expected',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes!;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (!(await getIseeItem(id))) throw new NotFoundError(iseeMessages.notFound);
    throw new ConflictError(iseeMessages.alreadyDecided);
  }
}

/**
 * The operator's decision: state 1 validates, 2 refuses. A conditional write on state = LOADED, so of
 * two operators deciding at once only the first succeeds; the other gets 409 and nothing changes.
 */
export async function decideIsee(id: string, decision: IseeDecision, operatorSub: string, now = new Date().toISOString()) {
  const before = await getIseeItem(id);
  if (!before) throw new NotFoundError(iseeMessages.notFound);
  const after = await setState(id, decision.state === 1 ? 'VALIDATED' : 'REFUSED', 'LOADED', now, {
    valueCents: toCents(decision.value),
    year: decision.year,
    protocollo: decision.protocollo ?? undefined,
    scadenza: decision.scadenza ?? undefined,
    decidedAt: now,
    decidedBySub: operatorSub,
  });
  await refreshUserSummary(after.userId, now, 0);
  return { before: toIsee(before), after: toIsee(after) };
}

/** Deletes an ISEE (operator); the user's summary falls back to the newest remaining one. */
export async function deleteIsee(id: string, now = new Date().toISOString()) {
  const item = await getIseeItem(id);
  if (!item) throw new NotFoundError(iseeMessages.notFound);
  try {
    await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.isee(id), ConditionExpression: 'attribute_exists(userId)' }));
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(iseeMessages.notFound);
    throw error;
  }
  await refreshUserSummary(item.userId, now, -1);
  return item;
}

async function newestIseeItem(userId: string): Promise<Record<string, any> | null> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.iseesOfUser(userId) },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  return Items[0] ?? null;
}

/**
 * The user's record carries the newest ISEE (users list column, delete rule) and the state LOADED
 * while that ISEE waits for an operator; a suspended user stays suspended.
 */
async function refreshUserSummary(userId: string, now: string, countDelta: number) {
  const newest = await newestIseeItem(userId);
  const user = await getUserItem(userId);
  if (!user) return;
  const lastIsee = newest
    ? { id: newest.id, valueCents: newest.valueCents, year: newest.year, state: newest.state, hasFile: !!newest.hasFile }
    : null;
  const state = user.state === 'SUSPEND' ? 'SUSPEND' : newest?.state === 'LOADED' ? 'LOADED' : 'VALIDATED';
  await updateUserFields(userId, { lastIsee, state, iseeCount: Math.max(0, (user.iseeCount ?? 0) + countDelta) }, { now });
}

/** The ISEE of a user, newest first, five per page. */
export const listIseesOfUser = (userId: string, page: { limit?: number; cursor?: string }): Promise<Page<Isee>> =>
  queryPage(
    { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': keys.iseesOfUser(userId) }, ScanIndexForward: false },
    page,
    toIsee,
    ISEE_PAGE_SIZE,
  );

/** ISEE uploaded and not yet validated, oldest first (first come, first served), five per page. */
export const listIseesToVerify = (page: { limit?: number; cursor?: string }): Promise<Page<Isee>> =>
  queryPage(
    { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.iseesToVerify } },
    page,
    toIsee,
    ISEE_PAGE_SIZE,
  );

export const countIseesToVerify = () => countUnder('gsi1', 'gsi1pk', keys.iseesToVerify);

/** True when the user's newest ISEE is VALIDATED: without it a citizen cannot apply to calls (part 2 §4). */
export async function hasValidatedIsee(userId: string): Promise<boolean> {
  return (await newestIseeItem(userId))?.state === 'VALIDATED';
}
