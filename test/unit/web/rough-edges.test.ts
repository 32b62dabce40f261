import { describe, expect, it } from 'vitest';
import { iseeStateLabel, iseeStateShortLabel } from '../../../functions/domain/isee.ts';
import { trailFor } from '../../../web/src/app/layout/breadcrumbs.tsx';
import { recordsFound } from '../../../web/src/features/payments/components/payment-list-page.tsx';
import { formatDateTime } from '../../../web/src/lib/dates.ts';

/** Issue 23: what operators tripped over, in the helpers the screens use. */
describe('the portal’s rough edges', () => {
  it('writes the payment list’s total with the thousands dot, as every other amount', () => {
    expect(recordsFound(3, 107_507, false)).toBe('Record trovati: 3 — Totale: 1.075,07\u00a0€');
    expect(recordsFound(2_000, 609_590, true)).toBe(
      'Record trovati: più di 2.000 — Totale: almeno 6.095,90\u00a0€ (conteggio fermato a 2.000 record: restringi la ricerca per i valori esatti)',
    );
  });

  it('names an ISEE a newer upload replaced in Italian, and shows a state it does not know as it is', () => {
    expect(iseeStateLabel('INVALIDATED')).toBe('SOSTITUITO');
    expect(iseeStateShortLabel('INVALIDATED')).toBe('Sostituito');
    expect(iseeStateLabel('ARCHIVED')).toBe('ARCHIVED');
  });

  it('dates a ticket with the year in full', () => {
    expect(formatDateTime('2026-11-25T13:05:00.000Z')).toBe('25/11/2026, 14:05');
  });

  it('links the trail of a ticket to its citizen’s record and tickets', () => {
    const known = { citizen: 'u-7', userId: 'u-7' };
    expect(trailFor('/lista_utenti/dati_utente/ticket/dettaglio', 'OPERATOR', known)).toEqual([
      { label: 'Home', to: '/' },
      { label: 'Lista utenti', to: '/lista_utenti' },
      { label: 'Dati utente', to: '/lista_utenti/dati_utente?citizen=u-7' },
      { label: 'Ticket utente', to: '/lista_utenti/dati_utente/ticket?userId=u-7' },
      { label: 'Dettaglio ticket' },
    ]);
    // Without the citizen known (the ticket still loading) they are text, never a link without its id.
    expect(trailFor('/lista_utenti/dati_utente/ticket/dettaglio', 'OPERATOR').map((c) => c.to)).toEqual([
      '/',
      '/lista_utenti',
      undefined,
      undefined,
      undefined,
    ]);
  });
});
