import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  edit,
  noPositionsListener,
  planMonth,
  planTransitions,
  settle,
  type PositionRecord,
  type Transition,
} from '../../functions/domain/positions/index.ts';
import type { ExportResults } from '../../functions/adapters/ports/export.ts';
import type { PaymentDeps } from '../../functions/payments/use-cases.ts';
import { localTable, useLocalTable } from '../support/dynamo.ts';

/**
 * The export's write-back fence (functions/positions/repository.ts) against the local DynamoDB, not an
 * in-memory copy (issue 21): Collect batch-writes MyPay's verdicts (BatchWriteItem, no condition) from a read
 * of the month; a citizen's payment recorded between that read and the batch is overwritten by it, and must
 * come back (its receipt on the fence, put back before the fence closes). Nothing MyPay collected is lost.
 */
let repository: typeof import('../../functions/positions/repository.ts');
/** The one writer, with nothing following the positions (the fence is what is tested here). */
let writer: import('../../functions/positions/repository.ts').PositionWriter;
let makePaymentUseCases: typeof import('../../functions/payments/use-cases.ts').makePaymentUseCases;

beforeAll(async () => {
  // The repository binds to its table when it loads: the integration stack's.
  useLocalTable();
  repository = await import('../../functions/positions/repository.ts');
  writer = repository.makePositionWriter(noPositionsListener);
  ({ makePaymentUseCases } = await import('../../functions/payments/use-cases.ts'));
});

const march = { mese: 3, anno: 2026 };

/** Three unpaid positions of a call's March, stored through the repository; MyPay's verdicts for them. */
async function month() {
  const callId = `fence-${randomUUID()}`;
  const plan = planMonth({
    call: { id: callId, name: 'Bando', serviceName: 'Assistenza domiciliare' },
    period: march,
    existing: [],
    subscriptions: ['a', 'b', 'c'].map((id) => ({
      userId: `${id}-${randomUUID()}`,
      fiscalCode: 'RSSMRA85C52H501N',
      firstName: 'Maria',
      lastName: 'Rossi',
      iseeId: null,
      fee: {
        kind: 'DUE' as const,
        band: { id: 'b', name: 'F', min: 0, max: 1, percent: null, fixedCost: 1 },
        quotaCents: 100,
        amountCents: 6643,
      },
    })),
    now: '2026-03-10T09:00:00.000Z',
  });
  await writer.applyTransitions(planTransitions(plan, '2026-03-10T09:00:00.000Z', true));
  // A payment finds its position by IUD through a global index, which lags behind the write (as in DynamoDB).
  for (const position of plan.create) await expect.poll(() => repository.getPositionByIud(position.iud)).not.toBeNull();
  const results: ExportResults = {
    accepted: plan.create.map((p, i) => ({ iud: p.iud, iuv: `0100000000000${i}119`, nav: `30100000000000${i}119` })),
    rejected: [],
  };
  return { callId, positions: plan.create, results };
}

/**
 * Collect's write-back (the real use case on the real repository), running `race` just before its batched
 * write and `afterBatch` once right after it (before the fence's check).
 */
function collect(race: () => Promise<void>, afterBatch: () => Promise<void> = async () => undefined) {
  let checked = false;
  const positions = {
    ...repository,
    ...writer,
    async applyTransitions(transitions: readonly Transition[]) {
      await race();
      return writer.applyTransitions(transitions);
    },
    async writeBackReceipts(monthKey: Parameters<typeof repository.writeBackReceipts>[0]) {
      if (!checked) {
        checked = true;
        await afterBatch();
      }
      return repository.writeBackReceipts(monthKey);
    },
  };
  // recordExportResults needs the positions and the clock only.
  const payments = makePaymentUseCases({ positions, clock: { now: () => new Date() } } as unknown as PaymentDeps);
  return (callId: string, results: ExportResults) =>
    payments.recordExportResults({ callId, ...march, flowId: 'flow-1' }, results);
}

/** A citizen's payment, as the settlement records it: the position read now, the transition settle, recordPayment. */
async function citizenPays(iud: string, iur: string) {
  const before = (await repository.getPositionByIud(iud))!;
  const { transition, effect } = settle(
    before,
    { iud, iuv: before.codIuv ?? '01000000009999919', amountCents: before.importoDovuto, paidOn: '2026-03-12', iur },
    new Date().toISOString(),
  );
  if (!transition) throw new Error(effect.kind);
  expect(await writer.recordPayment(transition)).toBe(true);
}

const item = (p: PositionRecord) =>
  localTable().item({ pk: `CALL#${p.callId}#POSITIONS#2026-03`, sk: `USER#${p.userId}` });
const fence = (callId: string) => localTable().item({ pk: `CALL#${callId}#WRITEBACK#2026-03`, sk: 'WRITEBACK' });

describe('the write-back fence on DynamoDB', () => {
  it('a payment recorded between Collect’s read and its batch is overwritten by the batch, then put back before the fence closes', async () => {
    const { callId, positions, results } = await month();
    const paying = positions[1]!;
    let overwritten: Record<string, unknown> | undefined;
    await collect(
      async () => {
        await citizenPays(paying.iud, 'IUR-DURING');
        expect((await fence(callId))?.receiptCount).toBe(1);
      },
      async () => void (overwritten = await item(paying)),
    )(callId, results);
    // The batch did overwrite it (unpaid again, in the item DynamoDB holds), and the fence's check put it back.
    expect(overwritten).toMatchObject({ isPagato: false, statoExport: 'ESPORTATA' });
    const stored = await item(paying);
    expect(stored).toMatchObject({
      isPagato: true,
      importoTotalePagato: 6643,
      iur: 'IUR-DURING',
      codIuv: results.accepted[1]!.iuv,
      nav: results.accepted[1]!.nav,
      statoExport: 'ESPORTATA',
    });
    expect((stored!.pagamenti as { iur: string }[]).map((p) => p.iur)).toEqual(['IUR-DURING']);
    expect(await item(positions[0]!)).toMatchObject({ isPagato: false, codIuv: results.accepted[0]!.iuv });
    expect(await fence(callId)).toBeUndefined();
  });

  it('two payments of one position during the batch: both stay', async () => {
    const { callId, positions, results } = await month();
    const paying = positions[0]!;
    await collect(async () => {
      await citizenPays(paying.iud, 'IUR-1');
      await citizenPays(paying.iud, 'IUR-2');
    })(callId, results);
    const stored = await item(paying);
    expect((stored!.pagamenti as { iur: string }[]).map((p) => p.iur)).toEqual(['IUR-1', 'IUR-2']);
    expect(stored).toMatchObject({
      importoTotalePagato: 2 * 6643,
      riconciliazione: { motivo: 'PAGATA_PIU_VOLTE', differenza: 6643 },
      codIuv: results.accepted[0]!.iuv,
    });
  });

  it('a payment recorded before the fence opens is read by Collect and never batch-written; one after it closes checks its own write', async () => {
    const { callId, positions, results } = await month();
    await citizenPays(positions[2]!.iud, 'IUR-BEFORE');
    await collect(async () => undefined)(callId, results);
    expect(await item(positions[2]!)).toMatchObject({
      isPagato: true,
      iur: 'IUR-BEFORE',
      codIuv: results.accepted[2]!.iuv,
    });
    await citizenPays(positions[0]!.iud, 'IUR-AFTER');
    expect(await item(positions[0]!)).toMatchObject({
      isPagato: true,
      iur: 'IUR-AFTER',
      codIuv: results.accepted[0]!.iuv,
    });
    expect(await fence(callId)).toBeUndefined();
  });

  it('a position cancelled before the export stays cancelled; money MyPay collected for it during the batch stays, to reconcile', async () => {
    const { callId, positions, results } = await month();
    const cancelled = positions[2]!;
    const before = (await repository.getPositionByIud(cancelled.iud))!;
    // The operator's 'Modifica' with amount 0, as the edit use case writes it.
    expect(await writer.applyTransition(edit(before, 0, 'Annullata', new Date().toISOString()))).toBe(true);
    await collect(async () => {
      const now = (await repository.getPositionByIud(cancelled.iud))!;
      const { transition, effect } = settle(
        now,
        { iud: now.iud, iuv: '01000000009999919', amountCents: 6643, paidOn: '2026-03-12', iur: 'IUR-CANCELLED' },
        new Date().toISOString(),
      );
      if (!transition) throw new Error(effect.kind);
      expect(await writer.recordPayment(transition)).toBe(true);
    })(callId, results);
    expect(await item(cancelled)).toMatchObject({
      annullato: true,
      importoDovuto: 0,
      isPagato: true,
      importoTotalePagato: 6643,
      iur: 'IUR-CANCELLED',
      riconciliazione: { motivo: 'ANNULLATA', differenza: 6643 },
    });
    expect(await item(positions[0]!)).toMatchObject({
      isPagato: false,
      statoExport: 'ESPORTATA',
      codIuv: results.accepted[0]!.iuv,
    });
    expect(await fence(callId)).toBeUndefined();
  });

  it('a restarted Collect (the same verdicts again) changes nothing', async () => {
    const { callId, positions, results } = await month();
    const write = collect(async () => undefined);
    await write(callId, results);
    const once = await Promise.all(positions.map(item));
    expect(once).toEqual(
      positions.map((p, i) =>
        expect.objectContaining({
          iud: p.iud,
          statoExport: 'ESPORTATA',
          codIuv: results.accepted[i]!.iuv,
          version: p.version + 1,
        }),
      ),
    );
    await write(callId, results);
    expect(await Promise.all(positions.map(item))).toEqual(once);
  });
});
