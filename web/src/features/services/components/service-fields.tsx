import { Flex, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { inpsBenefits } from '@domain/inps-benefits';
import { readOnlyFieldProps } from '@/components/form-fields';
import { platformFieldLabels } from '@/lib/platform';
import type { ServiceField, ServiceFormErrors, ServiceFormValues } from '../utils/service-form';

export interface ServiceFieldsProps {
  values: ServiceFormValues;
  errors: ServiceFormErrors;
  readOnly?: boolean;
  onChange: (field: ServiceField, value: string) => void;
}

/** Name, MyPay code and description of a service (all required), and the benefit code its INPS queries send (optional). */
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
      <TextField
        {...common('name')}
        label="Nome"
        value={values.name}
        onChange={(event) => onChange('name', event.target.value)}
      />
      <TextField
        {...common('code')}
        label={platformFieldLabels().serviceCode}
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
      <SelectField
        name="inpsBenefitCode"
        label="Prestazione INPS"
        descriptiveText={
          readOnly
            ? undefined
            : 'Il codice della prestazione indicato a INPS quando il Comune consulta l’ISEE per questo servizio. Senza scelta vale quello predefinito del Comune.'
        }
        isDisabled={readOnly}
        hasError={Boolean(errors.inpsBenefitCode)}
        errorMessage={errors.inpsBenefitCode}
        value={values.inpsBenefitCode}
        onChange={(event) => onChange('inpsBenefitCode', event.target.value)}
      >
        <option value="">Predefinita del Comune</option>
        {inpsBenefits.map(([code, label]) => (
          <option key={code} value={code}>
            {code} · {label}
          </option>
        ))}
      </SelectField>
    </Flex>
  );
}
