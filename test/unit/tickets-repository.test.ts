import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { countSupportMessage, updateTicket, type StoredTicket } from '../../functions/tickets/repository.ts';

/** The conditions that make the ticket rules hold under concurrency: the rest is covered by the use-case tests. */
const dynamo = mockClient(DynamoDBDocumentClient);
const conditionFails = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
beforeEach(() => dynamo.reset());

const ticket: StoredTicket = {
  id: '7', dataApertura: '2026-03-01T09:00:00.000Z', stato: 1, richiedente: 'Maria Rossi', richiedenteCognome: 'Rossi', ultimoAggiornamento: '2026-03-01T10:00:00.000Z',
  categoria: 'Altro', dettagli: 'x', assegnatoA: null, userId: 'u1', fiscalCode: 'RSSMRA85C52H501N', emailUser: 'm@x.it', origin: 'SUPPORT',
};

describe('tickets repository', () => {
  it('writes an edit only while the ticket is open and unchanged since it was read; resolving takes it off the open list', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({ Attributes: { ...ticket, stato: 2 } }).rejectsOnce(conditionFails());
    expect(await updateTicket(ticket, { stato: 2, categoria: 'Altro', dettagli: 'fatto', assegnatoA: 'Laura' }, '2026-03-01T11:00:00.000Z')).toMatchObject({ stato: 2 });
    const input = dynamo.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.ConditionExpression).toBe('attribute_exists(pk) AND #stato IN (:open, :inProgress) AND #upd = :expected');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':open': 0, ':inProgress': 1, ':expected': '2026-03-01T10:00:00.000Z' });
    expect(input.UpdateExpression).toMatch(/ REMOVE gsi1pk, gsi1sk$/);
    expect(await updateTicket(ticket, { stato: 1, categoria: 'Altro', dettagli: 'x', assegnatoA: null }, 'now')).toBeNull();
    expect(dynamo.commandCalls(UpdateCommand)[1].args[0].input.UpdateExpression).not.toContain('REMOVE');
  });

  it('counts a support message only while its window is under the maximum', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFails());
    expect(await countSupportMessage('u1', 'hour', '2026-03-01T10', 5, 1)).toBe(true);
    expect(await countSupportMessage('u1', 'hour', '2026-03-01T10', 5, 1)).toBe(false);
    const input = dynamo.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.Key).toEqual({ pk: 'SUPPORTRATE#u1', sk: 'hour#2026-03-01T10' });
    expect(input.ConditionExpression).toBe('attribute_not_exists(#n) OR #n < :max');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':max': 5, ':one': 1 });
  });
});
