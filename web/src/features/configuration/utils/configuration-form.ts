import { configurationFields, type Configuration, type ConfigurationField } from '@domain/configuration';
import { configurationSchema } from '@domain/configuration-schemas';
import { fieldErrors } from '@domain/validation';
import { pickFieldErrors, type FieldErrors } from '@/components/form-fields/field-errors';

/** The form holds texts; flgGeneraIuv is 'true' / 'false' / '' (not chosen). */
export type ConfigurationFormValues = Record<ConfigurationField, string>;
export type ConfigurationFormErrors = FieldErrors<ConfigurationField>;

export const emptyConfigurationForm = Object.fromEntries(
  configurationFields.map((field) => [field, '']),
) as ConfigurationFormValues;

export function configurationToForm(configuration: Configuration | null): ConfigurationFormValues {
  if (!configuration) return emptyConfigurationForm;
  return { ...configuration, flgGeneraIuv: String(configuration.flgGeneraIuv) };
}

export type ConfigurationValidation =
  { ok: true; input: Configuration } | { ok: false; errors: ConfigurationFormErrors };

/** Checks the form with `configurationSchema`, the very schema the API applies (part 2 §5: all eight non-empty). */
export function validateConfigurationForm(values: ConfigurationFormValues): ConfigurationValidation {
  const candidate = {
    ...values,
    flgGeneraIuv: values.flgGeneraIuv === '' ? undefined : values.flgGeneraIuv === 'true',
  };
  const result = configurationSchema.safeParse(candidate);
  if (result.success) return { ok: true, input: result.data };
  return { ok: false, errors: pickFieldErrors(fieldErrors(result.error), configurationFields).errors };
}
