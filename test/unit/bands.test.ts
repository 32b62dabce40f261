import { describe, expect, it } from 'vitest';
import { bandInputSchema, bandLabel, hourlyQuota } from '../../functions/domain/bands.ts';
import { fieldErrors } from '../../functions/domain/validation.ts';
import { parseItalianAmount } from '../../functions/domain/money.ts';

const valid = { name: 'Fascia 1', min: 0, max: 6000, percent: 10, fixedCost: 20 };
const errorsOf = (input: unknown) => {
  const result = bandInputSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

describe('ISEE band rules', () => {
  it('accepts a complete band, with or without a percentage', () => {
    expect(errorsOf(valid)).toEqual({});
    expect(errorsOf({ ...valid, percent: null })).toEqual({});
    expect(errorsOf({ name: 'Senza percentuale', min: 0, max: 10, fixedCost: 5 })).toEqual({});
  });

  it('asks for every required field with the spec message', () => {
    expect(errorsOf({})).toEqual({
      name: 'Il campo non può essere vuoto!',
      min: 'Il campo non può essere vuoto!',
      max: 'Il campo non può essere vuoto!',
      fixedCost: 'Il campo non può essere vuoto!',
    });
    expect(errorsOf({ ...valid, name: '   ' }).name).toBe('Il campo non può essere vuoto!');
  });

  it('refuses a minimum above the maximum, on the maximum field', () => {
    expect(errorsOf({ ...valid, min: 7000, max: 6000 })).toEqual({
      max: 'Il valore minimo non può superare il valore massimo.',
    });
  });

  it('refuses a percentage outside 0–100', () => {
    expect(errorsOf({ ...valid, percent: 101 }).percent).toBe('La percentuale deve essere compresa tra 0 e 100.');
    expect(errorsOf({ ...valid, percent: -1 }).percent).toBe('La percentuale deve essere compresa tra 0 e 100.');
  });

  it('refuses a malformed quota', () => {
    expect(errorsOf({ ...valid, fixedCost: '20,00' }).fixedCost).toBe(
      'Inserisci un importo valido, con al massimo due decimali.',
    );
    expect(errorsOf({ ...valid, fixedCost: 20.505 }).fixedCost).toBe(
      'Inserisci un importo valido, con al massimo due decimali.',
    );
    expect(errorsOf({ ...valid, fixedCost: -5 }).fixedCost).toBe('Il valore non può essere negativo.');
  });

  it('derives the hourly quota as percent/100 × fixedCost, or the fixed cost alone', () => {
    expect(hourlyQuota({ percent: 30, fixedCost: 20 })).toBe(6);
    expect(hourlyQuota({ percent: null, fixedCost: 20 })).toBe(20);
    expect(hourlyQuota({ percent: 33.33, fixedCost: 17.5 })).toBe(5.83);
  });

  it('labels a band as the spec shows it', () => {
    expect(bandLabel({ name: 'Fascia 2', percent: 30, fixedCost: 20 })).toBe('Fascia 2 (30% di 20,00 €)');
    expect(bandLabel({ name: 'Fascia 5', percent: null, fixedCost: 1234.5 })).toBe('Fascia 5 (1.234,50 €)');
  });
});

describe('Italian amounts typed in a form', () => {
  it('drops the thousands dots and reads the comma as the decimal point', () => {
    expect(parseItalianAmount('1.234,56')).toBe(1234.56);
    expect(parseItalianAmount('+12,5')).toBe(12.5);
    expect(parseItalianAmount('300')).toBe(300);
  });
  it('returns NaN for anything that is not an amount', () => {
    expect(parseItalianAmount('12,345')).toBeNaN();
    expect(parseItalianAmount('abc')).toBeNaN();
    expect(parseItalianAmount('')).toBeNaN();
  });
});
