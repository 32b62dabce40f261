import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/adapters/table.ts';
import { runScheduled } from '../../functions/entry/scheduled-jobs.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import {
  approvedSubscriber,
  exportMonth,
  mariaWithPosition,
  mypayConfiguration,
  storedPositions,
} from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { paidOutsidePortal, payOnPlatformPage, resetPlatform } from '../support/platform.ts';
import { billedMonth } from '../support/months.ts';

/**
 * What MyPay collected is recorded without anyone clicking 'Rendicontazione' (issue 34): the schedules' own
 * entry point (functions/entry/scheduled-jobs.ts, which EventBridge Scheduler invokes in the cloud and the local
 * stack's timers here) over the real local stack and the MyPay simulator; in project integration-gpd the same on
 * pagoPA GPD, whose receipts the reporting reads (issue 37).
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let citizen: Client;
const month = billedMonth();
const billed = month.period;

/** The call's reporting, as the operator's page reads it, once the run the schedule started has ended. */
async function reportingEnded(callId: string) {
  let status: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        status = (await operator.get(`/api/calls/${callId}/reporting`)).json;
        return status.state;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe('SUCCEEDED');
  return status;
}

beforeAll(async () => {
  [operator, citizen] = await Promise.all([as('operator'), as('citizen')]);
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(() => resetPlatform());

describe('Rendicontazione by itself', () => {
  it('the daily run records a payment the platform collected: the position reads paid, no operator action', async () => {
    const { call } = await openCall(operator);
    await approvedSubscriber(operator, call, { lastName: 'Pianificati', iseeValue: 8000, weeklyHour: 2 });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).json.created).toBe(1);
    await exportMonth(operator, call.id, billed);
    const [position] = await storedPositions(call.id, month.key);
    await paidOutsidePortal([position!.iud as string]);
    expect((await storedPositions(call.id, month.key))[0]).toMatchObject({ isPagato: false });

    const outcome = JSON.parse(await runScheduled({ kind: 'reporting-daily' }));
    expect(outcome.started).toBeGreaterThanOrEqual(1);
    const status = await reportingEnded(call.id);
    expect(status.result).toMatchObject({ marked: 1, inProgress: false });
    expect((await storedPositions(call.id, month.key))[0]).toMatchObject({
      isPagato: true,
      importoTotalePagato: position!.importoDovuto,
    });

    // The next run: the call has nothing left to pay, or its reporting finds the payment recorded; never twice.
    await runScheduled({ kind: 'reporting-daily' });
    await reportingEnded(call.id);
    const after = (await storedPositions(call.id, month.key))[0]!;
    expect(after).toMatchObject({ isPagato: true, importoTotalePagato: position!.importoDovuto });
    expect(after.pagamenti).toHaveLength(1);
  }, 120_000);

  it('a checkout whose outcome the portal never learnt (the citizen did not come back): its call is reported a few minutes later', async () => {
    const mariaId = (await citizen.get('/api/me')).json.userId;
    const { call } = await openCall(operator);
    await mariaWithPosition(operator, call.id, mariaId, billed);
    await exportMonth(operator, call.id, billed);
    const [position] = await storedPositions(call.id, month.key);

    const paying = await citizen.post(`/api/me/positions/${position!.iud}/pay`, {
      returnPath: `/iscrizioni/visualizza_servizio?id=${call.id}`,
    });
    expect(paying.status).toBe(200);
    // She pays on the platform's page and closes the browser: the portal never hears the outcome.
    await payOnPlatformPage(paying.json.url);

    // The checkout asked for its call's reporting: five minutes, then half an hour later.
    const followUps = (await localTable().partition(keys.reportingFollowUp('', '').pk)).filter(
      (item) => item.callId === call.id,
    );
    expect(followUps).toHaveLength(2);
    // Nothing is due yet: the sweep starts nothing for the call.
    await runScheduled({ kind: 'reporting-follow-ups' });
    expect((await operator.get(`/api/calls/${call.id}/reporting`)).json.state).toBe('NONE');
    // Five minutes go by.
    const first = followUps.sort((a, b) => String(a.sk).localeCompare(String(b.sk)))[0]!;
    await localTable().deleteItem({ pk: first.pk as string, sk: first.sk as string });
    await localTable().putItem({ ...keys.reportingFollowUp('2000-01-01T00:00:00.000Z', call.id), callId: call.id });

    await runScheduled({ kind: 'reporting-follow-ups' });
    expect((await reportingEnded(call.id)).result).toMatchObject({ marked: 1 });
    expect((await storedPositions(call.id, month.key))[0]).toMatchObject({ isPagato: true });
  }, 120_000);
});
