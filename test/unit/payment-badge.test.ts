import { describe, expect, it } from 'vitest';
import { paymentBadge, sentToIo } from '../../functions/domain/payments.ts';

describe('payment badges (operator-admin §4)', () => {
  it('reads Annullato for a cancelled position or one paid with total 0, Pagato when paid, else Da pagare', () => {
    expect(paymentBadge({ isPagato: true, annullato: false, importoTotalePagato: 0 })).toBe('Annullato');
    expect(paymentBadge({ isPagato: false, annullato: true, importoTotalePagato: 0 })).toBe('Annullato');
    expect(paymentBadge({ isPagato: true, annullato: false, importoTotalePagato: 4550 })).toBe('Pagato');
    expect(paymentBadge({ isPagato: false, annullato: false, importoTotalePagato: 0 })).toBe('Da pagare');
  });

  it('counts a notice as sent to IO only with a message id other than -1', () => {
    expect(sentToIo({ ioId: '01HX2' })).toBe(true);
    expect(sentToIo({ ioId: '-1' })).toBe(false);
    expect(sentToIo({ ioId: null })).toBe(false);
  });
});
