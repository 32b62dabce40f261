import { bandInputSchema, type Band, type BandInput } from '@domain/bands';
import { parseItalianAmount } from '@domain/money';
import { fieldErrors } from '@domain/validation';
import { formatAmountInput, formatPercentInput, parsePercentInput } from '@/components/form-fields/input-filters';
import { pickFieldErrors, type FieldErrors } from '@/components/form-fields/field-errors';

/** What the band form holds: the texts of its five fields. */
export interface BandFormValues {
  name: string;
  /** Amounts in euro typed the Italian way: digits, optional comma, two decimals ('12000,50'). */
  min: string;
  max: string;
  /** '' when the band has no percentage; Italian decimals ('12,5'). */
  percent: string;
  fixedCost: string;
}

export type BandField = keyof BandFormValues;
export const bandFields: readonly BandField[] = ['name', 'min', 'max', 'percent', 'fixedCost'];
export type BandFormErrors = FieldErrors<BandField>;

export const emptyBandForm: BandFormValues = { name: '', min: '', max: '', percent: '', fixedCost: '' };

export function bandToForm(band: Band): BandFormValues {
  return {
    name: band.name,
    min: formatAmountInput(band.min),
    max: formatAmountInput(band.max),
    percent: formatPercentInput(band.percent),
    fixedCost: formatAmountInput(band.fixedCost),
  };
}

/**
 * The form's texts turned into what the schema checks: empty amounts become undefined (so the schema
 * says 'Il campo non può essere vuoto!'), malformed ones NaN, an empty percentage null.
 */
export function bandCandidate(values: BandFormValues): Record<BandField, unknown> {
  return {
    name: values.name,
    min: amount(values.min),
    max: amount(values.max),
    percent: parsePercentInput(values.percent),
    fixedCost: amount(values.fixedCost),
  };
}

const amount = (text: string) => (text.trim() === '' ? undefined : parseItalianAmount(text));

export type BandValidation = { ok: true; input: BandInput } | { ok: false; errors: BandFormErrors };

/** Checks the form with `bandInputSchema`, the very schema the API applies. */
export function validateBandForm(values: BandFormValues): BandValidation {
  const result = bandInputSchema.safeParse(bandCandidate(values));
  if (result.success) return { ok: true, input: { ...result.data, percent: result.data.percent ?? null } };
  return { ok: false, errors: pickFieldErrors(fieldErrors(result.error), bandFields).errors };
}
