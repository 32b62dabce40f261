import { describe, expect, it } from 'vitest';
import {
  closeReconciliation,
  create,
  edit,
  guardHolds,
  hold,
  isFinal,
  isOpen,
  positionState,
  recordExportOutcome,
  release,
  restorePayment,
  settle,
  receiptOf,
  type PositionRecord,
  type Transition,
} from '../../functions/domain/positions/index.ts';
import { conditionOf } from '../../functions/positions/repository.ts';
import { applyToStored } from '../support/in-memory-positions.ts';
import { exportedPosition } from '../support/position-records.ts';

/**
 * The debt position's states and transitions (functions/domain/positions): each transition's guard, checked
 * against the stored position it would overwrite. The same guards are the repository's conditions.
 */
const NOW = '2026-03-10T09:00:00.000Z';
const LATER = '2026-03-10T09:10:00.000Z';

const position = (overrides: Partial<PositionRecord> = {}) => exportedPosition(NOW, overrides);
const paid = (p = position()) => ({ ...p, isPagato: true, importoTotalePagato: p.importoDovuto });
const cancelled = (p = position()) => ({ ...p, annullato: true, importoDovuto: 0 });
const heldBy = (session: string, until = '2026-03-10T09:30:00.000Z', p = position()) => ({
  ...p,
  checkoutSession: session,
  checkoutUrl: 'https://mypay.test/x',
  checkoutUntil: until,
});
const receipt = (p: PositionRecord, iur = 'IUR1') => ({
  iud: p.iud,
  iuv: p.codIuv!,
  amountCents: p.importoDovuto,
  paidOn: '2026-03-12',
  iur,
});
const written = (t: Transition, stored: PositionRecord | null) => guardHolds(t.guard, stored);

describe("the position's states", () => {
  it('open is neither paid nor cancelled; paid, cancelled and to reconcile are final; a live checkout holds an open one', () => {
    expect([
      isOpen(position()),
      isOpen(paid()),
      isOpen(cancelled()),
      isOpen({ ...cancelled(), isPagato: true }),
    ]).toEqual([true, false, false, false]);
    expect(isFinal(paid())).toBe(true);
    const now = new Date(LATER);
    expect(positionState(position(), now)).toBe('open');
    expect(positionState(heldBy('s1'), now)).toBe('held');
    expect(positionState(heldBy('s1', '2026-03-10T09:05:00.000Z'), now)).toBe('open'); // expired
    expect(positionState(paid(), now)).toBe('paid');
    expect(positionState(cancelled(), now)).toBe('cancelled');
    expect(positionState({ ...paid(), riconciliazione: { motivo: 'IMPORTO_DIVERSO', differenza: 1 } }, now)).toBe(
      'to-reconcile',
    );
  });
});

describe('each transition and its guard', () => {
  it('create: only where no position is (under the export lock: no condition, batched)', () => {
    const t = create(position());
    expect([written(t, null), written(t, position())]).toEqual([true, false]);
    expect(conditionOf(t.guard).expression).toBe('attribute_not_exists(pk)');
    expect(conditionOf(create(position(), true).guard).expression).toBeUndefined();
  });

  it('edit and cancel: the version read, open, no live checkout', () => {
    const before = position();
    const change = edit(before, 5000, 'Nuova descrizione', LATER);
    expect(change).toMatchObject({
      name: 'edit',
      after: { importoDovuto: 5000, azione: 'M', statoExport: 'DA_ESPORTARE', version: 4 },
    });
    const cancel = edit(before, 0, 'Annullata', LATER);
    expect(cancel).toMatchObject({ name: 'cancel', after: { annullato: true, azione: 'A' } });
    for (const t of [change, cancel]) {
      expect(written(t, before)).toBe(true);
      expect(written(t, { ...before, version: 4 })).toBe(false); // someone wrote meanwhile
      expect(written(t, paid(before))).toBe(false);
      expect(written(t, cancelled(before))).toBe(false);
      expect(written(t, heldBy('s1'))).toBe(false); // a live checkout
      expect(written(t, heldBy('s1', '2026-03-10T09:05:00.000Z'))).toBe(true); // one that expired
      expect(written(t, null)).toBe(false);
    }
  });

  it('hold: the version read, open, not held by another live checkout; the version does not move', () => {
    const t = hold(position(), {
      session: 's2',
      url: 'https://mypay.test/y',
      until: '2026-03-10T09:40:00.000Z',
      now: LATER,
    });
    expect(t.after).toMatchObject({ checkoutSession: 's2', version: 3 });
    expect([
      written(t, position()),
      written(t, heldBy('s1')),
      written(t, paid()),
      written(t, cancelled()),
      written(t, { ...position(), version: 2 }),
    ]).toEqual([true, false, false, false, false]);
  });

  it('release: only while that session holds it, and the hold is gone', () => {
    const t = release(heldBy('s1'), 's1');
    expect([written(t, heldBy('s1')), written(t, heldBy('s2')), written(t, position())]).toEqual([true, false, false]);
    expect(applyToStored(heldBy('s1'), t)).not.toHaveProperty('checkoutSession');
  });

  it('settle: on the version read only, paid or cancelled too (nothing MyPay collected is dropped); the same receipt twice writes nothing', () => {
    const { transition } = settle(cancelled(), receipt(position()), LATER);
    expect(transition?.after).toMatchObject({ isPagato: true, riconciliazione: { motivo: 'ANNULLATA' } });
    expect([
      written(transition!, cancelled()),
      written(transition!, paid(cancelled())),
      written(transition!, { ...cancelled(), version: 9 }),
    ]).toEqual([true, true, false]);
    const again = settle(transition!.after, receipt(position()), LATER);
    expect([again.transition, again.effect.kind]).toEqual([null, 'already-recorded']);
  });

  it('close a reconciliation: the version read, still to reconcile', () => {
    const toReconcile = { ...paid(), riconciliazione: { motivo: 'IMPORTO_DIVERSO' as const, differenza: 100 } };
    const t = closeReconciliation(toReconcile, { nota: 'Rimborsato', chiusaDa: 'Operatore' }, LATER)!;
    expect(t.after).toMatchObject({ riconciliazione: null, riconciliazioneChiusa: { nota: 'Rimborsato' } });
    expect([written(t, toReconcile), written(t, paid()), written(t, { ...toReconcile, version: 4 })]).toEqual([
      true,
      false,
      false,
    ]);
    expect(closeReconciliation(paid(), { nota: 'x', chiusaDa: 'y' }, LATER)).toBeNull();
  });

  it('record an export outcome: batched for an open position without a notice number, else on its IUD unless the verdict is there', () => {
    const outcome = { kind: 'accepted' as const, iuv: '01000000001234519', nav: '301000000001234519', at: LATER };
    const fresh = position({ codIuv: null, nav: null, statoExport: 'DA_ESPORTARE' });
    expect(recordExportOutcome(fresh, outcome)).toMatchObject({
      guard: [{ kind: 'export-lock' }],
      write: 'replace',
      after: { statoExport: 'ESPORTATA', codIuv: outcome.iuv },
    });
    const known = recordExportOutcome(paid(fresh), outcome);
    expect(known.write).toBe('patch');
    expect([
      written(known, paid(fresh)),
      written(known, { ...paid(fresh), iud: 'POTHER' }),
      written(known, paid(position())),
    ]).toEqual([true, false, false]);
  });

  it('restore a payment a write-back batch overwrote: on the version read, only when the position holds fewer payments', () => {
    const { transition } = settle(position(), receipt(position()), LATER);
    const overwritten = { ...position(), statoExport: 'ESPORTATA' as const, version: 5 };
    const restore = restorePayment(overwritten, receiptOf(transition!.after))!;
    expect(applyToStored(overwritten, restore)).toMatchObject({ isPagato: true, version: 6 });
    expect(written(restore, { ...overwritten, version: 6 })).toBe(false);
    expect(restorePayment(transition!.after, receiptOf(transition!.after))).toBeNull();
  });
});

describe('the guards as DynamoDB conditions', () => {
  it('"open" is one condition, wherever a write needs it', () => {
    const change = conditionOf(edit(position(), 1, 'x', LATER).guard);
    expect(change.expression).toBe(
      '#version = :g0version AND isPagato = :g1false AND annullato = :g1false AND (attribute_not_exists(checkoutUntil) OR checkoutUntil = :g2null OR checkoutUntil < :g2now)',
    );
    expect(change.values).toEqual({ ':g0version': 3, ':g1false': false, ':g2null': null, ':g2now': LATER });
    expect(conditionOf([{ kind: 'open' }]).expression).toBe('isPagato = :g0false AND annullato = :g0false');
  });
});
