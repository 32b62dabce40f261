import { describe, expect, it } from 'vitest';
import { ioBadge, paymentBadge, sentToIo } from '../../functions/domain/payments.ts';

describe('payment badges (operator-admin §4)', () => {
  it('reads Annullato for a cancelled position or one paid with total 0, Pagato when paid, else Da pagare', () => {
    expect(paymentBadge({ isPagato: true, annullato: false, importoTotalePagato: 0 })).toBe('Annullato');
    expect(paymentBadge({ isPagato: false, annullato: true, importoTotalePagato: 0 })).toBe('Annullato');
    expect(paymentBadge({ isPagato: true, annullato: false, importoTotalePagato: 4550 })).toBe('Pagato');
    expect(paymentBadge({ isPagato: false, annullato: false, importoTotalePagato: 0 })).toBe('Da pagare');
  });

  it('counts a notice as sent to IO only when IO processed the message: accepted is on its way, rejected is not sent', () => {
    expect(sentToIo({ ioId: '01HX2', ioStatus: 'PROCESSED' })).toBe(true);
    expect(sentToIo({ ioId: '01HX2', ioStatus: 'ACCEPTED' })).toBe(false);
    expect(sentToIo({ ioId: '01HX2', ioStatus: 'REJECTED' })).toBe(false);
    expect(sentToIo({ ioId: '-1' })).toBe(false);
    expect(sentToIo({ ioId: null })).toBe(false);
    expect(ioBadge({ ioId: '01HX2', ioStatus: 'THROTTLED' })).toEqual({
      state: 'pending',
      label: 'In consegna su IO',
      reason: null,
    });
    // Sent before statuses were recorded: not known to be delivered, 'Verifica' reads it.
    expect(ioBadge({ ioId: '01HX2' }).state).toBe('pending');
    expect(ioBadge({ ioId: '01HX2', ioStatus: 'REJECTED' })).toMatchObject({
      state: 'not-sent',
      label: 'Non inviato su IO',
      reason: expect.stringContaining('messaggio rifiutato'),
    });
    expect(ioBadge({ ioId: '-1', ioStatus: 'NO_PROFILE' })).toMatchObject({
      state: 'not-sent',
      reason: 'il cittadino non ha attivato l’app IO',
    });
    expect(ioBadge({ ioId: '01HX2', ioStatus: 'FAILED' }).state).toBe('not-sent');
  });
});
