import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { splitApiError } from '@/components/form-fields/field-errors';
import { emptyServiceForm, serviceFields, validateServiceForm } from '@/features/services/utils/service-form';

/** The spec's text (part 1 §5, part 2 §5), written out: a wrong constant in the code must fail here. */
const REQUIRED = 'Il campo non può essere vuoto!';
/** The portal's own wording of a 400 with field messages (the spec gives none). */
const INVALID_REQUEST = 'Alcuni dati non sono validi: correggi i campi segnalati.';

describe('new service form', () => {
  it('requires name, MyPay code and description', () => {
    expect(validateServiceForm(emptyServiceForm)).toEqual({
      ok: false,
      errors: { name: REQUIRED, code: REQUIRED, description: REQUIRED },
    });
  });

  it('sends the trimmed texts; no INPS benefit code chosen is the council’s default (null)', () => {
    expect(
      validateServiceForm({
        name: ' Assistenza domiciliare ',
        code: 'SAD-01',
        description: 'Aiuto a casa.',
        inpsBenefitCode: '',
      }),
    ).toEqual({
      ok: true,
      input: { name: 'Assistenza domiciliare', code: 'SAD-01', description: 'Aiuto a casa.', inpsBenefitCode: null },
    });
  });

  it('sends the INPS benefit code chosen, and refuses one that is not in INPS’s list with the message beside the field', () => {
    const values = { name: 'Asilo nido', code: 'NIDO', description: 'Asilo nido comunale.' };
    expect(validateServiceForm({ ...values, inpsBenefitCode: 'A3.03' })).toEqual({
      ok: true,
      input: { ...values, inpsBenefitCode: 'A3.03' },
    });
    expect(validateServiceForm({ ...values, inpsBenefitCode: 'A9.99' })).toEqual({
      ok: false,
      errors: {
        inpsBenefitCode: 'Il codice prestazione INPS deve essere uno dei codici dell’elenco INPS (da A1.01 a Z9.99).',
      },
    });
  });
});

describe('API failures on a form', () => {
  it('puts field messages beside the fields and nothing in the alert', () => {
    const error = new ApiError(400, INVALID_REQUEST, { code: REQUIRED });
    expect(splitApiError(error, serviceFields)).toEqual({ errors: { code: REQUIRED }, alert: null });
  });

  it('shows any other failure in the alert', () => {
    const error = new ApiError(409, 'Il servizio non può essere eliminato perché ha dei bandi associati.');
    expect(splitApiError(error, serviceFields)).toEqual({
      errors: {},
      alert: 'Il servizio non può essere eliminato perché ha dei bandi associati.',
    });
  });

  it('keeps the alert when some field messages belong to no field of the form', () => {
    const error = new ApiError(400, INVALID_REQUEST, { name: REQUIRED, other: 'x' });
    expect(splitApiError(error, serviceFields)).toEqual({ errors: { name: REQUIRED }, alert: INVALID_REQUEST });
  });
});
