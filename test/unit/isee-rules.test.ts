import { describe, expect, it } from 'vitest';
import {
  assertIseeDeletable,
  canMoveIsee,
  decidedState,
  iseeStates,
  supersededState,
} from '../../functions/domain/isee.ts';

describe('ISEE state rules', () => {
  it('confirm (1) validates and refuse (2) refuses an ISEE that waits for review', () => {
    expect(decidedState('LOADED', 1)).toBe('VALIDATED');
    expect(decidedState('LOADED', 2)).toBe('REFUSED');
  });

  it('refuses a second decision (409) whatever the first one was', () => {
    for (const state of ['VALIDATED', 'REFUSED', 'INVALIDATED']) {
      expect(() => decidedState(state, 1)).toThrow(
        expect.objectContaining({
          status: 409,
          message: 'L’ISEE non è più in attesa di verifica: è già stato confermato o rifiutato.',
        }),
      );
    }
  });

  it('a new upload invalidates the previous ISEE while it still counts (LOADED or VALIDATED), nothing else', () => {
    expect(supersededState({ state: 'LOADED' })).toBe('INVALIDATED');
    expect(supersededState({ state: 'VALIDATED' })).toBe('INVALIDATED');
    expect(supersededState({ state: 'REFUSED' })).toBeNull();
    expect(supersededState({ state: 'INVALIDATED' })).toBeNull();
    expect(supersededState(null)).toBeNull();
  });

  it('REFUSED and INVALIDATED are final', () => {
    for (const to of iseeStates) {
      expect(canMoveIsee('REFUSED', to)).toBe(false);
      expect(canMoveIsee('INVALIDATED', to)).toBe(false);
    }
    expect(canMoveIsee('VALIDATED', 'REFUSED')).toBe(false);
  });

  it('an ISEE can be deleted until it has been used to compute a fee', () => {
    for (const state of iseeStates) expect(() => assertIseeDeletable({ state })).not.toThrow();
    expect(() => assertIseeDeletable({ state: 'VALIDATED', feeComputedAt: null })).not.toThrow();
    expect(() => assertIseeDeletable({ state: 'VALIDATED', feeComputedAt: '2026-03-02T10:00:00.000Z' })).toThrow(
      expect.objectContaining({
        status: 409,
        message: 'Non è possibile eliminare un ISEE già usato per calcolare una quota.',
      }),
    );
  });
});
