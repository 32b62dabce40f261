import { describe, expect, it } from 'vitest';
import {
  dueDate,
  IUD_MAX_LENGTH,
  planMonth,
  positionIud,
  type PlannedSubscription,
  type PositionRecord,
} from '../../functions/domain/debt-positions.ts';
import type { Fee, FeeBand } from '../../functions/domain/fee.ts';
import { currentPeriod, periodSchema, positionsCsvFileName, resolvePeriod } from '../../functions/domain/payments.ts';

const call = {
  id: '7b0c1a52-1e0c-4f7e-9a51-0c2f0d6f4e11',
  name: 'Assistenza domiciliare 2026',
  serviceName: 'Assistenza domiciliare',
};
const march = { mese: 3, anno: 2026 };
const band: FeeBand = { id: 'b', name: 'Fascia', min: 3000.01, max: 20000, percent: 50, fixedCost: 10 };
const due = (amountCents: number): Fee => ({ kind: 'DUE', band, quotaCents: 500, amountCents });
const sub = (userId: string, fee: Fee): PlannedSubscription => ({
  userId,
  fiscalCode: `CF${userId}`.padEnd(16, 'X'),
  firstName: 'Anna',
  lastName: `Neri ${userId}`,
  fee,
  iseeId: `isee-${userId}`,
});

const plan = (existing: PositionRecord[], subscriptions: PlannedSubscription[], now = '2026-03-10T10:00:00.000Z') =>
  planMonth({ call, period: march, existing, subscriptions, now });

/** The positions a first generation makes, as stored. */
const firstRun = (subscriptions: PlannedSubscription[]) => plan([], subscriptions).create;

describe('IUD', () => {
  it('is the same for the same call, citizen and month, and at most 35 characters', () => {
    const iud = positionIud(call.id, 'user-1', march);
    expect(iud).toBe(positionIud(call.id, 'user-1', { mese: 3, anno: 2026 }));
    expect(iud.length).toBeLessThanOrEqual(IUD_MAX_LENGTH);
    expect(iud).toMatch(/^P202603[0-9A-F]{28}$/);
  });

  it('differs when the call, the citizen or the month differs', () => {
    const base = positionIud(call.id, 'user-1', march);
    expect(positionIud(call.id, 'user-2', march)).not.toBe(base);
    expect(positionIud('other-call', 'user-1', march)).not.toBe(base);
    expect(positionIud(call.id, 'user-1', { mese: 4, anno: 2026 })).not.toBe(base);
    expect(positionIud(call.id, 'user-1', { mese: 3, anno: 2027 })).not.toBe(base);
    // The separator keeps ("ab", "c") and ("a", "bc") apart.
    expect(positionIud('ab', 'c', march)).not.toBe(positionIud('a', 'bc', march));
  });

  it('does not collide over 20,000 citizens of one call and month', () => {
    const iuds = new Set(Array.from({ length: 20_000 }, (_, i) => positionIud(call.id, `user-${i}`, march)));
    expect(iuds.size).toBe(20_000);
  });
});

describe('due date: the last day of the month', () => {
  it('handles 30/31-day months and February in leap and common years', () => {
    expect(dueDate({ mese: 3, anno: 2026 })).toBe('2026-03-31');
    expect(dueDate({ mese: 4, anno: 2026 })).toBe('2026-04-30');
    expect(dueDate({ mese: 2, anno: 2024 })).toBe('2024-02-29');
    expect(dueDate({ mese: 2, anno: 2026 })).toBe('2026-02-28');
    expect(dueDate({ mese: 2, anno: 2000 })).toBe('2000-02-29');
    expect(dueDate({ mese: 2, anno: 2100 })).toBe('2100-02-28');
    expect(dueDate({ mese: 12, anno: 2026 })).toBe('2026-12-31');
  });
});

describe('planMonth', () => {
  it('creates one position (azione I, to export) per subscription with a fee above zero', () => {
    const result = plan([], [sub('u1', due(6643)), sub('u2', due(1000))]);
    expect(result.create).toHaveLength(2);
    expect(result.create[0]).toMatchObject({
      userId: 'u1',
      iud: positionIud(call.id, 'u1', march),
      importoDovuto: 6643,
      importoTotalePagato: 0,
      isPagato: false,
      annullato: false,
      azione: 'I',
      statoExport: 'DA_ESPORTARE',
      codIuv: null,
      dataScadenza: '2026-03-31',
      titolo: 'Assistenza domiciliare – Marzo 2026',
      mese: 3,
      anno: 2026,
      version: 1,
    });
    // The causale names the service, the month, whose subscription and the call.
    expect(result.create[0]!.descrizione).toBe(
      'Quota Marzo 2026 Assistenza domiciliare - Neri u1 Anna (CFu1XXXXXXXXXXXX) - bando Assistenza domiciliare 2026',
    );
    expect(result).toMatchObject({ update: [], cancel: [], unchanged: [], exempt: 0, skipped: [] });
  });

  it('run twice on the same month with the same data changes nothing and makes no duplicate', () => {
    const subscriptions = [sub('u1', due(6643)), sub('u2', due(1000))];
    const again = plan(firstRun(subscriptions), subscriptions);
    expect(again.create).toEqual([]);
    expect(again.update).toEqual([]);
    expect(again.cancel).toEqual([]);
    expect(again.unchanged).toHaveLength(2);
  });

  it('the same citizen twice in the input gets one position', () => {
    expect(plan([], [sub('u1', due(100)), sub('u1', due(200))]).create).toHaveLength(1);
  });

  it('updates an unpaid position with a different amount: still I before MyPay knows it, M after', () => {
    const [created] = firstRun([sub('u1', due(6643))]);
    const notExported = plan([created!], [sub('u1', due(7000))], '2026-03-11T00:00:00.000Z');
    expect(notExported.update).toHaveLength(1);
    expect(notExported.update[0]!.after).toMatchObject({
      importoDovuto: 7000,
      azione: 'I',
      statoExport: 'DA_ESPORTARE',
      version: 2,
      updatedAt: '2026-03-11T00:00:00.000Z',
    });

    const exported: PositionRecord = {
      ...created!,
      statoExport: 'ESPORTATA',
      exportedAt: '2026-03-10T12:00:00.000Z',
      codIuv: '01000000001234519',
      nav: '301000000001234519',
    };
    const afterExport = plan([exported], [sub('u1', due(7000))]);
    expect(afterExport.update[0]!.after).toMatchObject({
      importoDovuto: 7000,
      azione: 'M',
      statoExport: 'DA_ESPORTARE',
      codIuv: '01000000001234519',
    });
  });

  it('leaves a paid position alone, whatever the new amount (even 0)', () => {
    const [created] = firstRun([sub('u1', due(6643))]);
    const paid: PositionRecord = {
      ...created!,
      isPagato: true,
      importoTotalePagato: 6643,
      exportedAt: '2026-03-10T12:00:00.000Z',
    };
    for (const fee of [due(9999), { kind: 'EXEMPT', amountCents: 0 } as Fee]) {
      const result = plan([paid], [sub('u1', fee)]);
      expect(result.update).toEqual([]);
      expect(result.cancel).toEqual([]);
      expect(result.unchanged).toEqual([paid]);
    }
  });

  it('cancels an unpaid position whose amount is now 0 (A to send when MyPay knows it, nothing otherwise)', () => {
    const [created] = firstRun([sub('u1', due(6643))]);
    const exported: PositionRecord = {
      ...created!,
      statoExport: 'ESPORTATA',
      exportedAt: '2026-03-10T12:00:00.000Z',
      codIuv: '01000000001234519',
    };
    const result = plan([exported], [sub('u1', { kind: 'EXEMPT', amountCents: 0 })]);
    expect(result.cancel[0]!.after).toMatchObject({
      importoDovuto: 0,
      annullato: true,
      azione: 'A',
      statoExport: 'DA_ESPORTARE',
    });

    const zeroHours = plan([created!], [sub('u1', due(0))]);
    expect(zeroHours.cancel[0]!.after).toMatchObject({ annullato: true, azione: 'A', statoExport: 'NESSUNA' });
  });

  it('never reopens a cancelled position, and says so when a fee is due again', () => {
    const [created] = firstRun([sub('u1', due(6643))]);
    const cancelled = plan([created!], [sub('u1', due(0))]).cancel[0]!.after;
    const result = plan([cancelled], [sub('u1', due(5000))]);
    expect(result.create).toEqual([]);
    expect(result.update).toEqual([]);
    expect(result.unchanged).toEqual([cancelled]);
    expect(result.skipped).toEqual([
      {
        fiscalCode: 'CFu1XXXXXXXXXXXX',
        cognome: 'Neri u1',
        nome: 'Anna',
        reason: 'Posizione annullata: non può essere riaperta',
      },
    ]);
    // Still exempt: nothing to report.
    expect(plan([cancelled], [sub('u1', due(0))]).skipped).toEqual([]);
  });

  it('makes no position for an exempt ISEE (≤ 3000 €) or 0 hours, and counts them', () => {
    const result = plan([], [sub('u1', { kind: 'EXEMPT', amountCents: 0 }), sub('u2', due(0))]);
    expect(result.create).toEqual([]);
    expect(result.exempt).toBe(2);
    expect(result.skipped).toEqual([]);
  });

  it('skips, with the reason, a subscription without validated ISEE or outside every band, and leaves its position as it is', () => {
    const [created] = firstRun([sub('u1', due(6643))]);
    const result = plan(
      [created!],
      [sub('u1', { kind: 'NO_ISEE', amountCents: 0 }), sub('u2', { kind: 'NO_BAND', amountCents: 0 })],
    );
    expect(result.create).toEqual([]);
    expect(result.cancel).toEqual([]);
    expect(result.unchanged).toEqual([created]);
    expect(result.skipped.map((s) => [s.fiscalCode, s.reason])).toEqual([
      ['CFu1XXXXXXXXXXXX', 'ISEE scaduto o mancante'],
      ['CFu2XXXXXXXXXXXX', 'Il valore ISEE non rientra in nessuna fascia del bando'],
    ]);
  });

  it('leaves (and reports) an unpaid position whose subscription is no longer approved; a paid one is not reported', () => {
    const [a, b] = firstRun([sub('u1', due(100)), sub('u2', due(200))]);
    const paidB = { ...b!, isPagato: true, importoTotalePagato: 200 };
    const result = plan([a!, paidB], []);
    expect(result.cancel).toEqual([]);
    expect(result.unchanged).toHaveLength(2);
    expect(result.skipped).toEqual([
      {
        fiscalCode: a!.fiscalCode,
        cognome: a!.cognome,
        nome: a!.nome,
        reason: 'Iscrizione non più approvata: posizione lasciata invariata',
      },
    ]);
  });

  it('computes a leap February position with the due date of the 29th', () => {
    const [position] = planMonth({
      call,
      period: { mese: 2, anno: 2028 },
      existing: [],
      subscriptions: [sub('u1', due(1234))],
      now: '2028-02-01T00:00:00.000Z',
    }).create;
    expect(position).toMatchObject({ dataScadenza: '2028-02-29', titolo: 'Assistenza domiciliare – Febbraio 2028' });
  });
});

describe('period of the request', () => {
  it('defaults to the current month and year in Europe/Rome (midnight of 1 April in Rome is still 31 March in UTC)', () => {
    expect(currentPeriod(new Date('2026-03-31T22:30:00.000Z'))).toEqual({ mese: 4, anno: 2026 });
    expect(currentPeriod(new Date('2026-12-31T23:30:00.000Z'))).toEqual({ mese: 1, anno: 2027 });
    expect(resolvePeriod({}, new Date('2026-03-15T10:00:00Z'))).toEqual({ mese: 3, anno: 2026 });
    expect(resolvePeriod({ mese: 12 }, new Date('2026-03-15T10:00:00Z'))).toEqual({ mese: 12, anno: 2026 });
  });

  it('refuses month 13, month 0 and a year in letters with an Italian message', () => {
    const error = (input: unknown) => periodSchema.safeParse(input).error?.issues[0]?.message;
    expect(error({ mese: 13 })).toBe('Il mese deve essere un numero da 1 a 12.');
    expect(error({ mese: 0 })).toBe('Il mese deve essere un numero da 1 a 12.');
    expect(error({ mese: 2.5 })).toBe('Il mese deve essere un numero da 1 a 12.');
    expect(error({ anno: 'duemila' })).toBe('Inserisci un anno valido di quattro cifre.');
    expect(periodSchema.parse({ mese: '3', anno: '2026' })).toEqual({ mese: 3, anno: 2026 });
    expect(periodSchema.parse({})).toEqual({});
  });

  it('names the CSV after the call’s MyPay name and the month', () => {
    expect(positionsCsvFileName('SERVIZI_SOCIALI', { mese: 3, anno: 2026 })).toBe('SERVIZI_SOCIALI_2026_03.csv');
    expect(positionsCsvFileName('Servizi sociali/2026', { mese: 11, anno: 2026 })).toBe(
      'Servizi_sociali_2026_2026_11.csv',
    );
  });
});
