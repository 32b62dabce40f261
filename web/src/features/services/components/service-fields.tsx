import { Flex, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { readOnlyFieldProps } from '@/components/form-fields';
import type { ServiceField, ServiceFormErrors, ServiceFormValues } from '../utils/service-form';

export interface ServiceFieldsProps {
  values: ServiceFormValues;
  errors: ServiceFormErrors;
  readOnly?: boolean;
  onChange: (field: ServiceField, value: string) => void;
}

/** Name, MyPay code and description of a service: all required. */
export function ServiceFields({ values, errors, readOnly = false, onChange }: ServiceFieldsProps) {
  const common = (field: ServiceField) => ({
    name: field,
    ...readOnlyFieldProps(readOnly),
    isRequired: true,
    hasError: Boolean(errors[field]),
    errorMessage: errors[field],
    autoComplete: 'off',
  });
  return (
    <Flex direction="column" gap="medium">
      <TextField {...common('name')} label="Nome" value={values.name} onChange={(event) => onChange('name', event.target.value)} />
      <TextField
        {...common('code')}
        label="Codice MyPay"
        descriptiveText={readOnly ? undefined : 'Il codice del servizio sulla piattaforma dei pagamenti.'}
        value={values.code}
        onChange={(event) => onChange('code', event.target.value)}
      />
      <TextAreaField
        {...common('description')}
        label="Descrizione"
        rows={5}
        value={values.description}
        onChange={(event) => onChange('description', event.target.value)}
      />
    </Flex>
  );
}
