import { describe, expect, it } from 'vitest';
import {
  bandFor,
  daysInMonth,
  formatHours,
  iseeExpiry,
  iseeForMonth,
  isRideService,
  monthlyFee,
  type FeeBand,
  type FeeIsee,
} from '../../functions/domain/fee.ts';

const bands: FeeBand[] = [
  { id: 'b1', name: 'Fascia 1', min: 0, max: 6000, percent: 20, fixedCost: 10 },
  { id: 'b2', name: 'Fascia 2', min: 6000.01, max: 15000, percent: 50, fixedCost: 10 },
  { id: 'b3', name: 'Fascia 3', min: 15000.01, max: 40000, percent: null, fixedCost: 12.5 },
];
const fee = (iseeEuro: number | null, weeklyHours: number, year = 2025, month = 3) =>
  monthlyFee({
    isee: iseeEuro === null ? null : { valueCents: Math.round(iseeEuro * 100), state: 'VALIDATED', year },
    bands,
    weeklyHours,
    year,
    month,
  });

describe('monthly fee (design §4)', () => {
  it('is quota × weekly hours × days in month / 7, rounded to the cent (the README example)', () => {
    // Fascia 2: 50% of 10 € = 5 € an hour; 3 hours a week in March (31 days): 5 × 3 × 31 / 7 = 66.428… → 66,43 €
    expect(fee(8000, 3)).toEqual({ kind: 'DUE', band: bands[1], quotaCents: 500, amountCents: 6643 });
  });

  it('uses the fixed cost as the quota when the band has no percentage', () => {
    // 12,50 € × 2 × 30 / 7 = 107.142… → 107,14 € (April)
    expect(fee(20000, 2, 2025, 4)).toMatchObject({ kind: 'DUE', quotaCents: 1250, amountCents: 10714 });
  });

  it('puts a value on a band boundary in the band whose limits include it', () => {
    expect(bandFor(600000, bands)?.name).toBe('Fascia 1');
    expect(bandFor(600001, bands)?.name).toBe('Fascia 2');
    expect(bandFor(1500000, bands)?.name).toBe('Fascia 2');
    expect(bandFor(1500001, bands)?.name).toBe('Fascia 3');
  });

  it('exempts an ISEE of 3000 € or less, and charges from 3000,01 €', () => {
    expect(fee(3000, 3)).toEqual({ kind: 'EXEMPT', amountCents: 0 });
    expect(fee(0, 3)).toEqual({ kind: 'EXEMPT', amountCents: 0 });
    // Fascia 1: 20% of 10 € = 2 € an hour; 2 × 3 × 31 / 7 = 26.571… → 26,57 €
    expect(fee(3000.01, 3)).toMatchObject({ kind: 'DUE', amountCents: 2657 });
  });

  it('says so when there is no validated ISEE or the ISEE is in no band', () => {
    expect(fee(null, 3)).toEqual({ kind: 'NO_ISEE', amountCents: 0 });
    expect(fee(40000.01, 3)).toEqual({ kind: 'NO_BAND', amountCents: 0 });
  });

  it('counts the days of the month, February of a leap year included', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2025, 2)).toBe(28);
    expect(daysInMonth(2025, 12)).toBe(31);
    expect(fee(8000, 3, 2024, 2).amountCents).toBe(6214); // 5 × 3 × 29 / 7 = 62.142…
    expect(fee(8000, 3, 2025, 2).amountCents).toBe(6000); // 5 × 3 × 28 / 7 = 60
  });

  it('charges nothing for zero hours and handles decimal hours', () => {
    expect(fee(8000, 0).amountCents).toBe(0);
    expect(fee(8000, 2.5).amountCents).toBe(5536); // 5 × 2.5 × 31 / 7 = 55.357…
  });

  it('rounds once, at the end: the quota is not rounded first (issue 21)', () => {
    // '33% di 17,77 €' is 5,8641 € an hour: 3 hours a week in a 30-day month are 5,8641 × 3 × 30 / 7 = 75,3956… → 75,40 €.
    // Rounding the quota to 5,86 € first gave 5,86 × 3 × 30 / 7 = 75,34 €.
    const band: FeeBand[] = [{ id: 'q', name: 'Fascia', min: 3000.01, max: 99999, percent: 33, fixedCost: 17.77 }];
    expect(
      monthlyFee({
        isee: { valueCents: 500000, state: 'VALIDATED', year: 2025 },
        bands: band,
        weeklyHours: 3,
        year: 2025,
        month: 4,
      }),
    ).toMatchObject({ amountCents: 7540, quotaCents: 586 });
    // A percentage with decimals and a half cent at the end: 12,5% di 10,00 € = 1,25 €; 1,4 h × 30 / 7 = 7,5 € exactly.
    const half: FeeBand[] = [{ id: 'h', name: 'Fascia', min: 3000.01, max: 99999, percent: 12.5, fixedCost: 10 }];
    expect(
      monthlyFee({
        isee: { valueCents: 500000, state: 'VALIDATED', year: 2025 },
        bands: half,
        weeklyHours: 1.4,
        year: 2025,
        month: 4,
      }).amountCents,
    ).toBe(750);
    // 33,33% di 0,03 € = 0,009999 € an hour; 0,01 h × 31 / 7 = 0,0000442… € → 0,00 €; 7 h × 28 / 7 = 0,279972 € → 0,28 €
    const tiny: FeeBand[] = [{ id: 't', name: 'Fascia', min: 3000.01, max: 99999, percent: 33.33, fixedCost: 0.03 }];
    expect(
      monthlyFee({
        isee: { valueCents: 500000, state: 'VALIDATED', year: 2025 },
        bands: tiny,
        weeklyHours: 0.01,
        year: 2025,
        month: 3,
      }).amountCents,
    ).toBe(0);
    expect(
      monthlyFee({
        isee: { valueCents: 500000, state: 'VALIDATED', year: 2025 },
        bands: tiny,
        weeklyHours: 7,
        year: 2025,
        month: 2,
      }).amountCents,
    ).toBe(28);
  });

  it('rounds half a cent up, exactly', () => {
    const band: FeeBand[] = [{ id: 'c', name: 'Fascia', min: 3000.01, max: 99999, percent: null, fixedCost: 0.29 }];
    // 0,29 € × 1,75 × 30 / 7 = 2,175 € exactly: half a cent, up to 2,18 € (floating point gives 2,17 €)
    expect(
      monthlyFee({
        isee: { valueCents: 500000, state: 'VALIDATED', year: 2025 },
        bands: band,
        weeklyHours: 1.75,
        year: 2025,
        month: 4,
      }).amountCents,
    ).toBe(218);
  });

  it('applies the same rule to rides, for services named taxi', () => {
    expect(isRideService('Servizio Taxi sociale')).toBe(true);
    expect(isRideService('TAXI')).toBe(true);
    expect(isRideService('Assistenza domiciliare')).toBe(false);
    // 4 rides a week at Fascia 2's 5 €: 5 × 4 × 30 / 7 = 85.714… → 85,71 €
    expect(fee(8000, 4, 2025, 6).amountCents).toBe(8571);
  });
});

describe('the ISEE a month counts (design §4: a DSU is valid until 31 December of its year)', () => {
  const isee = (year: number, extra: Partial<FeeIsee> = {}): FeeIsee => ({
    valueCents: 800_000,
    state: 'VALIDATED',
    year,
    ...extra,
  });
  const feeOf = (value: FeeIsee | null, year: number, month: number) =>
    monthlyFee({ isee: value, bands, weeklyHours: 3, year, month });

  it('bills December with the December ISEE, and does not bill January with it', () => {
    expect(feeOf(isee(2025), 2025, 12)).toMatchObject({ kind: 'DUE', amountCents: 6643 });
    expect(feeOf(isee(2025), 2026, 1)).toEqual({ kind: 'NO_ISEE', amountCents: 0 });
  });

  it('counts the new year’s ISEE from January, also for a month before it arrived', () => {
    expect(feeOf(isee(2026), 2026, 1).kind).toBe('DUE');
    expect(feeOf(isee(2026, { scadenza: '2026-12-31' }), 2026, 3).kind).toBe('DUE');
  });

  it('takes the expiry when it is known, else 31 December of the ISEE’s year', () => {
    expect(iseeExpiry(isee(2025))).toBe('2025-12-31');
    expect(iseeExpiry(isee(2025, { scadenza: '2025-06-30T00:00:00.000Z' }))).toBe('2025-06-30');
    expect(feeOf(isee(2025, { scadenza: '2025-06-30' }), 2025, 6).kind).toBe('DUE');
    expect(feeOf(isee(2025, { scadenza: '2025-06-30' }), 2025, 7).kind).toBe('NO_ISEE');
  });

  it('counts only a validated ISEE', () => {
    expect(feeOf(isee(2026, { state: 'LOADED' }), 2026, 1).kind).toBe('NO_ISEE');
    expect(iseeForMonth(isee(2026, { state: 'REFUSED' }), 2026, 1)).toBeNull();
  });
});

describe('weekly hours as the portal writes them', () => {
  it('uses a decimal comma, at most two decimals, no thousands dot, and a dash for none: the table, the dialogs and the import preview alike', () => {
    expect(formatHours(12.5)).toBe('12,5');
    expect(formatHours(12.25)).toBe('12,25');
    expect(formatHours(0)).toBe('0');
    expect(formatHours(168)).toBe('168');
    expect(formatHours(null)).toBe('—');
  });
});
