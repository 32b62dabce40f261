import { serviceInputSchema, type Service, type ServiceInput } from '@domain/services';
import { fieldErrors } from '@domain/validation';
import { pickFieldErrors, type FieldErrors } from '@/components/form-fields/field-errors';

/** What the service form holds. `code` is the payment-platform (MyPay) code. */
export interface ServiceFormValues {
  name: string;
  code: string;
  description: string;
  /** PrestazioneDaErogare sent to INPS for this service's ISEE queries; '' = the council's default. */
  inpsBenefitCode: string;
}

export type ServiceField = keyof ServiceFormValues;
/** In the order the form shows them (spec: name, payment-platform code, description; then the INPS benefit code, optional). */
export const serviceFields: readonly ServiceField[] = ['name', 'code', 'description', 'inpsBenefitCode'];
export type ServiceFormErrors = FieldErrors<ServiceField>;

export const emptyServiceForm: ServiceFormValues = { name: '', code: '', description: '', inpsBenefitCode: '' };

export const serviceToForm = (service: Service): ServiceFormValues => ({
  name: service.name,
  code: service.code,
  description: service.description,
  inpsBenefitCode: service.inpsBenefitCode ?? '',
});

export type ServiceValidation = { ok: true; input: ServiceInput } | { ok: false; errors: ServiceFormErrors };

/** Checks the form with `serviceInputSchema`, the very schema the API applies (the first three fields required). */
export function validateServiceForm(values: ServiceFormValues): ServiceValidation {
  const result = serviceInputSchema.safeParse({ ...values, inpsBenefitCode: values.inpsBenefitCode || null });
  if (result.success) return { ok: true, input: result.data };
  return { ok: false, errors: pickFieldErrors(fieldErrors(result.error), serviceFields).errors };
}
