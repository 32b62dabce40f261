import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { SYNC_JOB } from '../../functions/domain/jobs.ts';
import { messages, positionOpsMessages } from '../../functions/domain/messages.ts';
import { currentPeriod, periodKey } from '../../functions/domain/payments.ts';
import { subscriptionId } from '../../functions/domain/subscriptions.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';
import { approvedSubscriber, mypayConfiguration, settledFlow, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { gpdClient, gpdIupdOf, onGpd } from '../support/gpd.ts';
import { platformText, resetPlatform } from '../support/platform.ts';
import { pastMonth } from '../support/months.ts';

/**
 * The payment edit modal (PUT /api/positions/{id}) and 'Sincronizza' (the background job 'sync-positions'
 * through the local Step Functions, POST/GET /api/calls/{id}/positions/sync) over the real local stack, on MyPay
 * and (project integration-gpd) on pagoPA GPD.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let delegate: Client;
let citizen: Client;
// A month already past (its due day gone), of the call's year so that 'Sincronizza' looks at it.
const late = pastMonth();
const pastPeriod = late.period;
const simulator = () => inject('myPayEndpoint').replace(/\/pa\/services.*$/, '');

beforeAll(async () => {
  operator = await as('operator');
  delegate = await as('delegate');
  citizen = await as('citizen');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(() => resetPlatform());

/** An open call (7,20 €/h) with Rossi approved for 3 hours a week and a past month generated: Rossi's position. */
async function latePosition() {
  const { call } = await openCall(operator, undefined, { year: late.anno });
  const rossi = await approvedSubscriber(operator, call, { lastName: 'Rossi', iseeValue: 8000, weeklyHour: 3 });
  expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, pastPeriod)).status).toBe(200);
  const [position] = await storedPositions(call.id, late.key);
  // A position is found by its IUD through gsi2, which lists it a moment after the generation.
  await indexesCaughtUp();
  return { call, rossi, position: position! };
}

const stored = async (callId: string, iud: string) =>
  (await storedPositions(callId, late.key)).find((p) => p.iud === iud)!;

describe('editing a position (payment edit modal)', () => {
  it('refuses each bad input with its Italian message and changes nothing', async () => {
    const { call, position } = await latePosition();
    const path = `/api/positions/${position.iud}`;
    const cases: Array<[unknown, number, string]> = [
      [{ descrizione: '', importo: 10 }, 400, 'Il campo descrizione è obbligatorio!'],
      [{ importo: 10 }, 400, 'Il campo descrizione è obbligatorio!'],
      [{ descrizione: 'x'.repeat(301), importo: 10 }, 400, 'Il campo Descrizione deve essere massimo 300 caratteri!'],
      [{ descrizione: 'Quota', importo: -1 }, 400, messages.positions.amount],
      [{ descrizione: 'Quota', importo: 'dieci' }, 400, messages.positions.amount],
      [{ descrizione: 'Quota', importo: 1.234 }, 400, messages.positions.amount],
      [{ descrizione: 'Quota' }, 400, messages.positions.amount],
    ];
    for (const [body, status, message] of cases) {
      const answer = await operator.put(path, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(answer.json)).toContain(message);
    }
    const unknown = await operator.put('/api/positions/P202610NONESISTE', { descrizione: 'Quota', importo: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toBe(platformText(positionOpsMessages.notFound));

    // While an export of the call runs (its lock), the position does not change.
    await localTable().putItem({ ...keys.exportLock(call.id), flowId: 'flow-del-test' });
    const locked = await operator.put(path, { descrizione: 'Quota', importo: 10 });
    expect(locked.status).toBe(409);
    expect(locked.json.detail).toBe(platformText(positionOpsMessages.exportRunningEdit));
    await localTable().deleteItem(keys.exportLock(call.id));

    for (const other of [delegate, citizen])
      expect((await other.put(path, { descrizione: 'Quota', importo: 10 })).status).toBe(403);
    expect(await stored(call.id, position.iud)).toEqual(position);
    expect(await localTable().auditOf('position', position.iud)).toHaveLength(1); // the creation only
  });

  it('changes description and amount (euro → cents), audited with before and after', async () => {
    const { call, position } = await latePosition();
    const answer = await operator.put(`/api/positions/${position.iud}`, {
      descrizione: 'Quota ottobre rivista',
      importo: 50.5,
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      iud: position.iud,
      descrizione: 'Quota ottobre rivista',
      importoDovuto: 5050,
      azione: 'I',
      statoExport: 'DA_ESPORTARE',
    });
    expect(await stored(call.id, position.iud)).toMatchObject({
      descrizione: 'Quota ottobre rivista',
      importoDovuto: 5050,
      version: position.version + 1,
    });
    const audit = await localTable().auditOf('position', position.iud);
    expect(audit.at(-1)).toMatchObject({
      action: 'update',
      before: { importoDovuto: position.importoDovuto },
      after: { importoDovuto: 5050 },
      who: { fiscalCode: 'BNCLRA79H61F205F' },
    });
  });

  it('0 cancels a position the platform holds, for good: the next export carries A with the amount MyPay holds (its CSV), and the platform cancels it', async () => {
    const { call, position } = await latePosition();
    const exported = await operator.post(`/api/calls/${call.id}/exports`, pastPeriod);
    expect(exported.status).toBe(201);
    expect((await settledFlow(operator, exported.json.id)).step).toBe('COMPLETATO');
    expect(await stored(call.id, position.iud)).toMatchObject({ statoExport: 'ESPORTATA', codIuv: expect.any(String) });

    const cancelled = await operator.put(`/api/positions/${position.iud}`, {
      descrizione: 'Annullata dall’ufficio',
      importo: 0,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({
      annullato: true,
      importoDovuto: 0,
      azione: 'A',
      statoExport: 'DA_ESPORTARE',
    });

    if (!onGpd()) {
      const csv = await jobAnswer(operator, `/api/calls/${call.id}/positions/csv`, pastPeriod);
      expect(csv.status).toBe(200);
      const content = await (await fetch(csv.json.url as string)).text();
      const row = content.split('\r\n').find((line) => line.includes(position.iud as string));
      expect(row).toBeDefined();
      expect(row!.split(';')).toContain('A');
      // MyPay4 refuses 0.00 for every action (validaElabora): the row carries the amount the position had.
      expect(row!.split(';')).toContain((position.importoDovuto / 100).toFixed(2));
    }

    // Sent to the platform: accepted, and the platform holds the position as cancelled (GPD: INVALID, for good).
    const resent = await operator.post(`/api/calls/${call.id}/exports`, pastPeriod);
    expect(resent.status).toBe(201);
    expect(await settledFlow(operator, resent.json.id)).toMatchObject({
      step: 'COMPLETATO',
      num: 1,
      accepted: 1,
      rejected: 0,
    });
    if (onGpd())
      expect(await gpdClient().getPosition(gpdIupdOf(await stored(call.id, position.iud)))).toMatchObject({
        status: 'INVALID',
      });
    else {
      const state = (await (await fetch(`${simulator()}/admin/state`)).json()) as {
        positions: Record<string, { iud: string; status: string }>;
      };
      expect(Object.values(state.positions).find((p) => p.iud === position.iud)).toMatchObject({
        status: 'ANNULLATO',
      });
    }
    expect(await stored(call.id, position.iud)).toMatchObject({ annullato: true, statoExport: 'ESPORTATA' });

    const again = await operator.put(`/api/positions/${position.iud}`, { descrizione: 'Riapro', importo: 10 });
    expect(again.status).toBe(409);
    expect(again.json.detail).toBe(platformText(positionOpsMessages.final));
    expect(await stored(call.id, position.iud)).toMatchObject({ annullato: true, importoDovuto: 0 });
  });
});

describe('Sincronizza (background job sync-positions)', () => {
  async function waitUntilDone(callId: string) {
    for (let i = 0; i < 200; i++) {
      const status = await operator.get(`/api/calls/${callId}/positions/sync`);
      expect(status.status).toBe(200);
      if (!status.json.isUpdating) return status.json;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('sync never ended');
  }

  it('recalculates the call’s unpaid positions from the current hours in the background; two starts run one job', async () => {
    const { call, rossi, position } = await latePosition();
    expect((await operator.get(`/api/calls/${call.id}/positions/sync`)).json).toMatchObject({
      isUpdating: false,
      state: 'NONE',
    });
    // Rossi now works 5 hours a week: 7,20 × 5 × 31 / 7 = 159,43 €.
    expect(
      (
        await operator.put(`/api/enrolments/${subscriptionId(call.id, rossi.userId)}/state`, {
          state: 2,
          weeklyHour: 5,
        })
      ).status,
    ).toBe(200);

    const [one, two] = await Promise.all([
      operator.post(`/api/calls/${call.id}/positions/sync`, {}),
      operator.post(`/api/calls/${call.id}/positions/sync`, {}),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const refused = one.status === 409 ? one : two;
    expect(refused.json.detail).toBe(platformText(positionOpsMessages.syncRunning));
    expect((one.status === 200 ? one : two).json).toMatchObject({ isUpdating: true, state: 'RUNNING' });

    const done = await waitUntilDone(call.id);
    expect(done).toMatchObject({ isUpdating: false, state: 'SUCCEEDED', error: null });
    expect(done.total).toBeGreaterThanOrEqual(2); // the past month and the current one
    expect(done.done).toBe(done.total);
    expect(await stored(call.id, position.iud)).toMatchObject({ importoDovuto: 15943, version: position.version + 1 });
    const current = periodKey(currentPeriod(new Date()));
    expect(await storedPositions(call.id, current)).toHaveLength(1);
    const audit = await localTable().auditOf('position', position.iud);
    expect(audit.at(-1)).toMatchObject({
      action: 'update',
      after: { importoDovuto: 15943 },
      who: { fiscalCode: 'BNCLRA79H61F205F' },
    });

    // Done: it may start again.
    expect((await operator.post(`/api/calls/${call.id}/positions/sync`, {})).status).toBe(200);
    await waitUntilDone(call.id);
  });

  it('is refused while an export of the call runs (and no export starts while it runs), for an unknown call, and to delegates and citizens', async () => {
    const { call } = await openCall(operator);
    await localTable().putItem({ ...keys.exportLock(call.id), flowId: 'flow-del-test' });
    const locked = await operator.post(`/api/calls/${call.id}/positions/sync`, {});
    expect(locked.status).toBe(409);
    expect(locked.json.detail).toBe(platformText(messages.positions.exportRunning));
    expect((await operator.get(`/api/calls/${call.id}/positions/sync`)).json).toMatchObject({
      isUpdating: false,
      state: 'NONE',
    });
    await localTable().deleteItem(keys.exportLock(call.id));

    // And the other way round: while the recalculation runs, no export of the call starts (nor takes the lock).
    const now = new Date().toISOString();
    await localTable().putItem({
      ...keys.job(SYNC_JOB, call.id),
      id: 'job-test',
      kind: SYNC_JOB,
      key: call.id,
      state: 'RUNNING',
      input: { callId: call.id },
      actor: null,
      cursor: null,
      done: 0,
      total: null,
      error: null,
      startedAt: now,
      updatedAt: now,
      endedAt: null,
    });
    const export_ = await operator.post(`/api/calls/${call.id}/exports`, pastPeriod);
    expect([export_.status, export_.json.detail]).toEqual([409, platformText(positionOpsMessages.syncRunning)]);
    expect(await localTable().item(keys.exportLock(call.id))).toBeUndefined();
    await localTable().putItem({
      ...keys.job(SYNC_JOB, call.id),
      id: 'job-test',
      kind: SYNC_JOB,
      key: call.id,
      state: 'SUCCEEDED',
      input: { callId: call.id },
      actor: null,
      cursor: null,
      done: 1,
      total: 1,
      error: null,
      startedAt: now,
      updatedAt: now,
      endedAt: now,
    });

    expect((await operator.post('/api/calls/nessuno/positions/sync', {})).status).toBe(404);
    expect((await operator.get('/api/calls/nessuno/positions/sync')).status).toBe(404);
    for (const other of [delegate, citizen]) {
      expect((await other.post(`/api/calls/${call.id}/positions/sync`, {})).status).toBe(403);
      expect((await other.get(`/api/calls/${call.id}/positions/sync`)).status).toBe(403);
    }
  });
});
