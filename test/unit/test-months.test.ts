import { afterEach, describe, expect, it, vi } from 'vitest';
import { romeDay } from '../../functions/domain/period.ts';
import { isIseeValidFor } from '../../functions/domain/fee.ts';
import { billedMonth, euroDigits, iseeDates, monthFromNow, pastMonth } from '../support/months.ts';

/**
 * The months the money-path tests bill (test/support/months.ts): on whatever day the tests run, the month billed
 * has its due day still ahead (GPD keeps it, MyPay accepts it) and the past month's has gone, in Rome's calendar.
 */
describe('the months the tests bill', () => {
  afterEach(() => vi.useRealTimers());

  it('on 29 November 2026 bills November, due 30/11, and its past month is October', () => {
    const now = new Date('2026-11-29T13:00:00Z');
    expect(billedMonth(now)).toEqual({
      mese: 11,
      anno: 2026,
      period: { mese: 11, anno: 2026 },
      key: '2026-11',
      label: 'Novembre 2026',
      days: 30,
      dueDay: '2026-11-30',
      dueDayItalian: '30/11/2026',
      dueDayEnd: '2026-11-30T22:59:59.000Z',
    });
    expect(pastMonth(1, now)).toMatchObject({ key: '2026-10', label: 'Ottobre 2026', dueDay: '2026-10-31' });
  });

  it('in December bills December; in January bills January and goes back across the year', () => {
    expect(billedMonth(new Date('2026-12-15T09:00:00Z'))).toMatchObject({
      key: '2026-12',
      label: 'Dicembre 2026',
      dueDayItalian: '31/12/2026',
    });
    const january = new Date('2027-01-10T09:00:00Z');
    expect(billedMonth(january)).toMatchObject({ mese: 1, anno: 2027, label: 'Gennaio 2027', dueDay: '2027-01-31' });
    expect(pastMonth(1, january)).toMatchObject({ mese: 12, anno: 2026, label: 'Dicembre 2026' });
    expect([-2, -1, 0].map((offset) => monthFromNow(offset, january).key)).toEqual(['2026-11', '2026-12', '2027-01']);
  });

  it('follows Rome’s calendar, not UTC’s: half past midnight of 1 December in Rome is December', () => {
    expect(billedMonth(new Date('2026-11-30T23:30:00Z')).key).toBe('2026-12');
    expect(billedMonth(new Date('2026-11-30T22:30:00Z')).key).toBe('2026-11');
  });

  it('ends the due day at Rome’s midnight in summer time too, and counts 29 days in a leap February', () => {
    expect(billedMonth(new Date('2027-07-04T10:00:00Z')).dueDayEnd).toBe('2027-07-31T21:59:59.000Z');
    expect(billedMonth(new Date('2028-02-10T10:00:00Z'))).toMatchObject({ days: 29, dueDayItalian: '29/02/2028' });
  });

  it('on every day of two years: the billed month is due today or later, the past one before today, and the ISEE covers both', () => {
    for (let day = 0; day < 731; day++) {
      const now = new Date(Date.UTC(2026, 0, 1, 12) + day * 86_400_000);
      const today = romeDay(now);
      const [billed, past] = [billedMonth(now), pastMonth(1, now)];
      expect(billed.dueDay >= today, today).toBe(true);
      expect(past.dueDay < today, today).toBe(true);
      for (const month of [billed, past, pastMonth(2, now)])
        expect(isIseeValidFor(iseeDates(now), month.anno, month.mese), `${today} ${month.key}`).toBe(true);
    }
  });

  it('reads today from the clock when given no date', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-03-02T08:00:00Z'));
    expect(billedMonth()).toMatchObject({ key: '2027-03', label: 'Marzo 2027' });
    expect(pastMonth()).toMatchObject({ key: '2027-02', days: 28 });
    expect(iseeDates()).toEqual({ year: 2027, date: '2027-01-20T10:00:00.000Z', scadenza: '2027-12-31' });
  });

  it('prints cents as the pages do', () => {
    expect([euroDigits(6171), euroDigits(5000), euroDigits(760)]).toEqual(['61,71', '50,00', '7,60']);
  });
});
