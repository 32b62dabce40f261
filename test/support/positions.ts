import { expect } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from './stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { as } from './api.ts';
import { newUserBody } from './user-body.ts';
import { jobAnswer } from './jobs.ts';
import { iseeDates, type TestMonth } from './months.ts';
import { openCall } from './calls.ts';
import { mypayConfiguration } from './configuration.ts';

type Client = Awaited<ReturnType<typeof as>>;

// The browser tests import it from here too.
export { mypayConfiguration };

const client = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );

/** Writes the stored configuration as is (even incomplete), as an old or hand-edited item would be. */
export async function storeRawConfiguration(values: Record<string, unknown> | null) {
  if (values === null) await client().send(new DeleteCommand({ TableName: TABLE_NAME, Key: keys.configuration }));
  else
    await client().send(
      new PutCommand({
        TableName: TABLE_NAME,
        Item: { ...keys.configuration, values, updatedAt: new Date().toISOString() },
      }),
    );
}

/** Every stored position item of a call's month (straight from the table). */
export async function storedPositions(callId: string, period: string) {
  const { Items = [] } = await client().send(
    new QueryCommand({
      TableName: TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.positionsOfMonth(callId, period) },
      ConsistentRead: true,
    }),
  );
  return Items;
}

/** The operator's client with MyPay's configuration stored (the exports and notices need it). */
export async function operatorWithMyPay(): Promise<Client> {
  const operator = await as('operator');
  const saved = await operator.put('/api/configuration', mypayConfiguration);
  if (saved.status !== 200) throw new Error(`configuration not saved: ${JSON.stringify(saved.json)}`);
  return operator;
}

/** An existing user approved on a call by the operator through the API: a validated ISEE (unless null), the enrolment, its approval. */
export async function approveUser(
  operator: Client,
  callId: string,
  userId: string,
  input: { iseeValue: number | null; weeklyHour: number },
) {
  if (input.iseeValue !== null) {
    const isee = await operator.post(`/api/users/${userId}/isee`, {
      value: input.iseeValue,
      ...iseeDates(),
      protocollo: 'INPS-ISEE-2026-00000003C-00',
      excludeVerification: true,
    });
    if (isee.status !== 201) throw new Error(`ISEE not created: ${JSON.stringify(isee.json)}`);
  }
  // Enrolled and approved with its hours by the operator, through the enrolment API (issue 7).
  const enrolled = await operator.post(`/api/calls/${callId}/enrolments`, { userId });
  if (enrolled.status !== 201) throw new Error(`not enrolled: ${JSON.stringify(enrolled.json)}`);
  const approved = await operator.put(`/api/enrolments/${enrolled.json.id}/state`, {
    state: 2,
    weeklyHour: input.weeklyHour,
  });
  if (approved.status !== 200) throw new Error(`not approved: ${JSON.stringify(approved.json)}`);
}

/**
 * A citizen approved on a call with `weeklyHour` hours: the user, a validated ISEE, the enrolment and its
 * approval are all made by the operator through the API.
 */
export async function approvedSubscriber(
  operator: Client,
  call: { id: string },
  input: { lastName: string; iseeValue: number | null; weeklyHour: number; firstName?: string },
) {
  const body = newUserBody({
    firstName: input.firstName ?? 'Anna',
    lastName: input.lastName,
    email: `${input.lastName.toLowerCase().replace(/\W/g, '')}@example.it`,
  });
  const created = await operator.post('/api/users', body);
  if (created.status !== 201) throw new Error(`user not created: ${JSON.stringify(created.json)}`);
  const userId = created.json.id as string;
  await approveUser(operator, call.id, userId, input);
  return { userId, fiscalCode: body.fiscalCode };
}

/**
 * A new call (of `year`, this year by default) whose approved subscribers are `lastNames`, each with `subscriber`'s
 * ISEE and hours (8,000 € and 3 hours a week by default); no position generated yet.
 */
export async function callWithSubscribers(
  operator: Client,
  lastNames: readonly string[],
  subscriber: { iseeValue: number; weeklyHour: number } = { iseeValue: 8000, weeklyHour: 3 },
  { year }: { year?: number } = {},
) {
  const { call } = await openCall(operator, undefined, { year });
  for (const lastName of lastNames) await approvedSubscriber(operator, call, { lastName, ...subscriber });
  return call;
}

/**
 * A call of `month`'s year whose approved subscribers are `lastNames` (each with `subscriber`'s ISEE and hours), with
 * that month's positions generated, one each, and exported; `byName()` reads them from the table by surname.
 */
export async function exportedMonthOf(
  operator: Client,
  month: TestMonth,
  lastNames: readonly string[],
  subscriber: { iseeValue: number; weeklyHour: number },
) {
  const call = await callWithSubscribers(operator, lastNames, subscriber, { year: month.anno });
  expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, month.period)).json).toMatchObject({
    created: lastNames.length,
  });
  await exportMonth(operator, call.id, month.period);
  const byName = async () =>
    Object.fromEntries((await storedPositions(call.id, month.key)).map((p) => [p.cognome as string, p]));
  return { call, byName };
}

/**
 * A month of a call exported to MyPay through the flows (issue 8), waited until the flow is COMPLETATO: the
 * call's positions of that month then have their IUV and NAV (the notices and the checkout need them).
 */
export async function exportMonth(operator: Client, callId: string, period: { mese: number; anno: number }) {
  const started = await operator.post(`/api/calls/${callId}/exports`, period);
  if (started.status !== 201) throw new Error(`export not started: ${JSON.stringify(started.json)}`);
  // A loop rather than expect.poll, so that a beforeAll can call it too.
  const deadline = Date.now() + 30_000;
  for (let step = ''; step !== 'COMPLETATO';) {
    if (Date.now() > deadline) throw new Error(`flow ${started.json.id} still ${step} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    step = (await operator.get(`/api/flows/${started.json.id}`)).json.step;
  }
  return { flowId: started.json.id as string };
}

/**
 * Waits until a flow stops moving: COMPLETATO or ERRORE (or SOSPESO, waiting for MyPay, with `orSuspended`),
 * read every 300 ms as the operator's page reads it; the flow then, or an error after `timeoutMs`.
 */
export async function settledFlow(
  operator: Client,
  flowId: string,
  { timeoutMs = 30_000, orSuspended = false }: { timeoutMs?: number; orSuspended?: boolean } = {},
) {
  const stops = ['COMPLETATO', 'ERRORE', ...(orSuspended ? ['SOSPESO'] : [])];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const flow = (await operator.get(`/api/flows/${flowId}`)).json;
    if (stops.includes(flow.step)) return flow;
    if (Date.now() > until) throw new Error(`flow still at ${flow.step} (${flow.stato})`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/**
 * Maria Rossi (the 'citizen' persona, `mariaId`) on the call: her ISEE of 8,000 € entered by the operator,
 * her enrolment approved with 2 hours a week, and her one position of `period` generated.
 */
export async function mariaWithPosition(
  operator: Client,
  callId: string,
  mariaId: string,
  period: { mese: number; anno: number },
) {
  const isee = await operator.post(`/api/users/${mariaId}/isee`, {
    value: 8000,
    ...iseeDates(),
    protocollo: 'INPS-ISEE-2026-00000003C-00',
    excludeVerification: true,
  });
  expect(isee.status).toBe(201);
  const enrolled = await operator.post(`/api/calls/${callId}/enrolments`, { userId: mariaId });
  expect(enrolled.status).toBe(201);
  expect((await operator.put(`/api/enrolments/${enrolled.json.id}/state`, { state: 2, weeklyHour: 2 })).status).toBe(
    200,
  );
  expect((await jobAnswer(operator, `/api/calls/${callId}/positions/generate`, period)).json.created).toBe(1);
}
