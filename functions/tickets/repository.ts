import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TICKET_PAGE_SIZE, isOpenTicket, searchKey, type Ticket } from '../domain/tickets.ts';
import type { Page } from '../domain/validation.ts';
import {
  countUnder,
  decodeCursor,
  documentClient,
  encodeCursor,
  queryPage,
  tableName,
  unlessConditionFails,
  type CursorList,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import { expiresAfter, retentionYears } from '../domain/retention.ts';

/** A ticket as stored: the spec's fields plus the requester's surname and fiscal code for the search keys. */
export interface StoredTicket extends Ticket {
  richiedenteCognome: string;
  origin: 'SUPPORT' | 'OPERATOR';
}

export type NewTicket = Omit<StoredTicket, 'id' | 'ultimoAggiornamento' | 'stato'>;
export type TicketChanges = Pick<Ticket, 'stato' | 'categoria' | 'dettagli' | 'assegnatoA'>;
type PageQuery = { limit?: number; cursor?: string };

export const toTicket = (item: StoredItem): Ticket => ({
  id: item.id,
  dataApertura: item.dataApertura,
  stato: item.stato,
  richiedente: item.richiedente,
  ultimoAggiornamento: item.ultimoAggiornamento,
  categoria: item.categoria,
  dettagli: item.dettagli,
  assegnatoA: item.assegnatoA ?? null,
  userId: item.userId,
  fiscalCode: item.fiscalCode ?? null,
  emailUser: item.emailUser ?? null,
});

/**
 * The index attributes that follow from a ticket's fields (README, "Tickets"): open ones on gsi1 (sparse),
 * a user's on gsi2, the search prefixes on gsi3 (surname), gsi4 (fiscal code), gsi5 (category).
 */
function indexAttributes(
  t: Pick<StoredTicket, 'id' | 'dataApertura' | 'stato' | 'userId' | 'richiedenteCognome' | 'fiscalCode' | 'categoria'>,
) {
  const order = `${t.dataApertura}#${t.id}`;
  return {
    ...(isOpenTicket(t.stato) ? { gsi1pk: keys.ticketsOpen, gsi1sk: order } : {}),
    gsi2pk: keys.ticketsOfUser(t.userId),
    gsi2sk: order,
    gsi3pk: keys.ticketsBySurname,
    gsi3sk: `${searchKey(t.richiedenteCognome)}#${order}`,
    ...(t.fiscalCode ? { gsi4pk: keys.ticketsByFiscalCode, gsi4sk: `${t.fiscalCode.toUpperCase()}#${order}` } : {}),
    gsi5pk: keys.ticketsByCategory,
    gsi5sk: `${searchKey(t.categoria)}#${order}`,
  };
}

/** The next ticket number: an atomic counter, so ids are short and say which ticket came first. */
export async function nextTicketId(): Promise<string> {
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.ticketCounter,
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return String(Attributes!.value);
}

export async function createTicket(input: NewTicket, id: string): Promise<StoredTicket> {
  const item: StoredTicket = { ...input, id, stato: 0, ultimoAggiornamento: input.dataApertura };
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      // DynamoDB's TTL deletes the support message once its retention is over (functions/domain/retention.ts).
      Item: {
        ...keys.ticket(id),
        ...item,
        ...indexAttributes(item),
        expiresAt: expiresAfter(new Date(input.dataApertura), retentionYears('supportMessages')),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return item;
}

export async function getTicketItem(id: string): Promise<StoredTicket | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.ticket(id), ConsistentRead: true }),
  );
  return (Item as StoredTicket | undefined) ?? null;
}

/**
 * Writes an edit, conditional on the ticket being still open and unchanged since it was read
 * (`expectedUpdate`): null, and nothing written, otherwise. A ticket leaving the open states leaves gsi1.
 */
export async function updateTicket(
  current: StoredTicket,
  changes: TicketChanges,
  now: string,
): Promise<StoredTicket | null> {
  const next: StoredTicket = { ...current, ...changes, ultimoAggiornamento: now };
  const indexes = indexAttributes(next);
  const fields: Record<string, unknown> = { ...changes, ultimoAggiornamento: now, ...indexes };
  const names: Record<string, string> = { '#stato': 'stato', '#upd': 'ultimoAggiornamento' };
  const values: Record<string, unknown> = { ':open': 0, ':inProgress': 1, ':expected': current.ultimoAggiornamento };
  const sets = Object.entries(fields).map(([key, value], index) => {
    names[`#f${index}`] = key;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  const removes = 'gsi1pk' in indexes ? '' : ' REMOVE gsi1pk, gsi1sk';
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.ticket(current.id),
        UpdateExpression: `SET ${sets.join(', ')}${removes}`,
        ConditionExpression: 'attribute_exists(pk) AND #stato IN (:open, :inProgress) AND #upd = :expected',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return written ? (written.Attributes as StoredTicket) : null;
}

const listOn = (index: string, partition: string, newestFirst: boolean) => ({
  IndexName: index,
  KeyConditionExpression: `${index}pk = :pk`,
  ExpressionAttributeValues: { ':pk': partition },
  ScanIndexForward: !newestFirst,
});

/** Open tickets (0 Aperto, 1 In Corso), oldest first: first come, first served. */
export const listOpenTickets = (page: PageQuery): Promise<Page<Ticket>> =>
  queryPage(listOn('gsi1', keys.ticketsOpen, false), page, toTicket, TICKET_PAGE_SIZE);

export const countOpenTickets = () => countUnder('gsi1', 'gsi1pk', keys.ticketsOpen);

/** A user's tickets, newest first. */
export const listTicketsOfUser = (userId: string, page: PageQuery): Promise<Page<Ticket>> =>
  queryPage(listOn('gsi2', keys.ticketsOfUser(userId), true), page, toTicket, TICKET_PAGE_SIZE);

const prefixList = (
  index: 'gsi3' | 'gsi4' | 'gsi5',
  partition: string,
  prefix: string,
): CursorList & { ScanIndexForward: boolean } => ({
  IndexName: index,
  KeyConditionExpression: `${index}pk = :pk AND begins_with(${index}sk, :prefix)`,
  ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix },
  ScanIndexForward: true,
});

/** Tickets whose requester's fiscal code starts with the prefix (gsi4). */
export const searchByFiscalCode = (prefix: string, page: PageQuery) =>
  queryPage(prefixList('gsi4', keys.ticketsByFiscalCode, prefix), page, toTicket, TICKET_PAGE_SIZE);

/**
 * Tickets whose requester's surname, or whose category, starts with the (normalised) prefix: two prefix
 * Queries (gsi3, gsi5) of one page each, merged without duplicates. The cursor carries both lists' own
 * signed cursors ('' for a list already finished).
 */
export async function searchByText(prefix: string, page: PageQuery): Promise<Page<Ticket>> {
  const lists = [prefixList('gsi3', keys.ticketsBySurname, prefix), prefixList('gsi5', keys.ticketsByCategory, prefix)];
  let cursors: (string | null)[] = [null, null];
  if (page.cursor) {
    try {
      const parsed = JSON.parse(Buffer.from(page.cursor, 'base64url').toString('utf8'));
      if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((c) => typeof c === 'string'))
        cursors = parsed.map((c: string) => c);
      else throw new Error('shape');
    } catch {
      decodeCursor('invalid', lists[0]); // throws the Italian 400 of a bad cursor
    }
  }
  const limit = page.limit ?? TICKET_PAGE_SIZE;
  const results = await Promise.all(
    lists.map(async (list, index) => {
      if (page.cursor && cursors[index] === '') return { items: [] as Ticket[], next: '' };
      const { Items = [], LastEvaluatedKey } = await documentClient.send(
        new QueryCommand({
          TableName: tableName,
          ...list,
          Limit: limit,
          ExclusiveStartKey: decodeCursor(cursors[index] ?? undefined, list),
        }),
      );
      return { items: Items.map(toTicket), next: encodeCursor(LastEvaluatedKey, list) ?? '' };
    }),
  );
  const seen = new Set<string>();
  const items = results.flatMap((r) => r.items).filter((t) => !seen.has(t.id) && !!seen.add(t.id));
  const more = results.some((r) => r.next !== '');
  return {
    items,
    nextCursor: more ? Buffer.from(JSON.stringify(results.map((r) => r.next))).toString('base64url') : null,
  };
}

/**
 * Counts one support message in a rate-limit window, only while the count is under `max` (conditional
 * ADD): false, and nothing counted, when the window is full.
 */
export async function countSupportMessage(
  userId: string,
  window: string,
  key: string,
  max: number,
  expiresAt: number,
): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.supportRate(userId, window, key),
        UpdateExpression: 'ADD #n :one SET expiresAt = :exp',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':exp': expiresAt },
      }),
    ),
  );
  return written !== null;
}

/** Gives back a count taken in a window when a later window refused the message. */
export async function uncountSupportMessage(userId: string, window: string, key: string): Promise<void> {
  await documentClient
    .send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.supportRate(userId, window, key),
        UpdateExpression: 'ADD #n :minus',
        ConditionExpression: 'attribute_exists(#n)',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':minus': -1 },
      }),
    )
    .catch(() => undefined);
}
