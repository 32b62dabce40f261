import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/entry/bands.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const call = async (...args: Parameters<typeof apiEvent>) => {
  const result = (await handler(apiEvent(...args), lambdaContext)) as {
    statusCode: number;
    body?: string;
    headers?: Record<string, string>;
  };
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
};
const band = { name: 'Fascia 1', min: 0, max: 6000, percent: 10, fixedCost: 20 };

beforeEach(() => dynamo.reset());

/** What the HTTP layer adds around the use cases (their behaviour: bands-use-cases.test.ts). */
describe('bands handler', () => {
  it('refuses a delegate and a citizen with 403 and writes nothing', async () => {
    for (const claims of [claimsOf.delegate, claimsOf.citizen]) {
      const response = await call('POST /api/bands', { claims, body: band });
      expect(response.statusCode).toBe(403);
      expect(response.json.detail).toBe('Non sei autorizzato a eseguire questa operazione.');
    }
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('asks for a sign-in (401) when the request has no verified claims', async () => {
    const response = await call('DELETE /api/bands/{id}', { pathParameters: { id: 'b1' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers?.['content-type']).toBe('application/problem+json');
  });

  it('answers malformed JSON with 400 and an Italian message', async () => {
    const response = await call('POST /api/bands', { claims: claimsOf.operator, body: '{"name": ' });
    expect(response.statusCode).toBe(400);
    expect(response.json.detail).toBe('Il corpo della richiesta non è un JSON valido.');
  });

  it('answers an oversized body with 413', async () => {
    const response = await call('POST /api/bands', {
      claims: claimsOf.operator,
      body: { ...band, name: 'x'.repeat(70_000) },
    });
    expect(response.statusCode).toBe(413);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('returns the field messages of the shared schema', async () => {
    const response = await call('POST /api/bands', { claims: claimsOf.operator, body: { ...band, min: 9000 } });
    expect(response.statusCode).toBe(400);
    expect(response.json.errors).toEqual({ max: 'Il valore minimo non può superare il valore massimo.' });
  });

  it('answers an unknown band with 404', async () => {
    dynamo.on(GetCommand).resolves({});
    const response = await call('GET /api/bands/{id}', { claims: claimsOf.operator, pathParameters: { id: 'nope' } });
    expect(response.statusCode).toBe(404);
    expect(response.json.detail).toBe('La fascia ISEE selezionata non esiste.');
  });

  it('hides an unexpected failure behind the generic message and a correlation id', async () => {
    dynamo.on(QueryCommand).rejects(new Error('throttled'));
    const response = await call('GET /api/bands');
    expect(response.statusCode).toBe(500);
    expect(response.json).toMatchObject({
      detail: 'Oops qualcosa è andato storto. Riprova più tardi!',
      correlationId: 'aws-req-1',
    });
  });

  it('refuses a forged pagination cursor with 400', async () => {
    const response = await call('GET /api/bands', { query: { cursor: '!!not-a-cursor' } });
    expect(response.statusCode).toBe(400);
    expect(response.json.detail).toBe('Il parametro di paginazione non è valido.');
  });
});
