import { describe, expect, it } from 'vitest';
import { bandToForm, emptyBandForm, validateBandForm, type BandFormValues } from '@/features/bands/utils/band-form';

/** The spec's text (part 1 §5), written out: a wrong constant in the code must fail here. */
const REQUIRED = 'Il campo non può essere vuoto!';
/** The portal's own wording for an amount it cannot read (the spec gives none). */
const AMOUNT = 'Inserisci un importo valido, con al massimo due decimali.';

const filled: BandFormValues = { name: 'Fascia A', min: '0', max: '10000,99', percent: '50', fixedCost: '12,50' };

describe('new and edit band form', () => {
  it('says "Il campo non può essere vuoto!" under name, min, max and fixed quota, not under the optional percentage', () => {
    const result = validateBandForm(emptyBandForm);
    expect(result).toEqual({
      ok: false,
      errors: { name: REQUIRED, min: REQUIRED, max: REQUIRED, fixedCost: REQUIRED },
    });
  });

  it('converts the Italian texts into the amounts the API receives', () => {
    expect(validateBandForm(filled)).toEqual({
      ok: true,
      input: { name: 'Fascia A', min: 0, max: 10000.99, percent: 50, fixedCost: 12.5 },
    });
  });

  it('sends no percentage as null', () => {
    const result = validateBandForm({ ...filled, percent: '' });
    expect(result.ok && result.input.percent).toBeNull();
  });

  it('reports a minimum above the maximum on the maximum', () => {
    expect(validateBandForm({ ...filled, min: '20000' })).toEqual({
      ok: false,
      errors: { max: 'Il valore minimo non può superare il valore massimo.' },
    });
  });

  it('rejects malformed amounts with the schema message', () => {
    expect(validateBandForm({ ...filled, min: '-1' })).toEqual({ ok: false, errors: { min: AMOUNT } });
    expect(validateBandForm({ ...filled, fixedCost: ',' })).toEqual({ ok: false, errors: { fixedCost: AMOUNT } });
    expect(validateBandForm({ ...filled, max: '10,005' })).toEqual({ ok: false, errors: { max: AMOUNT } });
  });

  it('reads thousands dots the Italian way', () => {
    const result = validateBandForm({ ...filled, min: '1.000', max: '12.500,50' });
    expect(result.ok && [result.input.min, result.input.max]).toEqual([1000, 12500.5]);
  });

  it('trims the name and refuses a blank one', () => {
    expect(validateBandForm({ ...filled, name: '   ' })).toEqual({ ok: false, errors: { name: REQUIRED } });
  });

  it('shows a saved band in the fields and validates it back unchanged', () => {
    const band = {
      id: 'b1',
      name: 'Fascia B',
      min: 10000.01,
      max: 20000,
      percent: 12.5,
      fixedCost: 1234.5,
      hourlyQuota: 154.31,
    };
    const values = bandToForm(band);
    expect(values).toEqual({ name: 'Fascia B', min: '10000,01', max: '20000', percent: '12,5', fixedCost: '1234,50' });
    expect(validateBandForm(values)).toEqual({
      ok: true,
      input: { name: 'Fascia B', min: 10000.01, max: 20000, percent: 12.5, fixedCost: 1234.5 },
    });
  });
});
