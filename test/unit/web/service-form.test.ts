import { describe, expect, it } from 'vitest';
import { messages } from '@domain/messages';
import { ApiError } from '@/lib/api';
import { splitApiError } from '@/components/form-fields/field-errors';
import { emptyServiceForm, serviceFields, validateServiceForm } from '@/features/services/utils/service-form';

describe('new service form', () => {
  it('requires name, MyPay code and description', () => {
    expect(validateServiceForm(emptyServiceForm)).toEqual({
      ok: false,
      errors: { name: messages.required, code: messages.required, description: messages.required },
    });
  });

  it('sends the trimmed texts', () => {
    expect(validateServiceForm({ name: ' Assistenza domiciliare ', code: 'SAD-01', description: 'Aiuto a casa.' })).toEqual({
      ok: true,
      input: { name: 'Assistenza domiciliare', code: 'SAD-01', description: 'Aiuto a casa.' },
    });
  });
});

describe('API failures on a form', () => {
  it('puts field messages beside the fields and nothing in the alert', () => {
    const error = new ApiError(400, messages.invalidRequest, { code: messages.required });
    expect(splitApiError(error, serviceFields)).toEqual({ errors: { code: messages.required }, alert: null });
  });

  it('shows any other failure in the alert', () => {
    const error = new ApiError(409, messages.service.hasCalls);
    expect(splitApiError(error, serviceFields)).toEqual({ errors: {}, alert: messages.service.hasCalls });
  });

  it('keeps the alert when some field messages belong to no field of the form', () => {
    const error = new ApiError(400, messages.invalidRequest, { name: messages.required, other: 'x' });
    expect(splitApiError(error, serviceFields)).toEqual({ errors: { name: messages.required }, alert: messages.invalidRequest });
  });
});
