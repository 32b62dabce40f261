import { Flex, TextField } from '@aws-amplify/ui-react';
import { AmountField, PercentField, readOnlyFieldProps } from '@/components/form-fields';
import type { BandField, BandFormErrors, BandFormValues } from '../utils/band-form';

export interface BandFieldsProps {
  values: BandFormValues;
  errors: BandFormErrors;
  /** Read-only view of a saved band (the edit page before 'Modifica'). */
  readOnly?: boolean;
  onChange: (field: BandField, value: string) => void;
}

const AMOUNT_HINT = 'Solo cifre e virgola, es. 12500,50.';

/** The five fields of a band, shared by the new and the edit page. Labels as the spec names them. */
export function BandFields({ values, errors, readOnly = false, onChange }: BandFieldsProps) {
  const common = (field: BandField) => ({
    name: field,
    ...readOnlyFieldProps(readOnly),
    hasError: Boolean(errors[field]),
    errorMessage: errors[field],
  });
  const hint = readOnly ? undefined : AMOUNT_HINT;
  return (
    <Flex direction="column" gap="medium">
      <TextField
        {...common('name')}
        label="Nome"
        isRequired
        autoComplete="off"
        value={values.name}
        onChange={(event) => onChange('name', event.target.value)}
      />
      <Flex direction={{ base: 'column', medium: 'row' }} gap="medium">
        {/*
          Spec: "number inputs with minimum 0". Not <input type="number">: Chromium silently drops a typed
          comma there ('1234,56' becomes 123456). These fields take only digits and a decimal comma, so
          nothing below 0 can be typed.
        */}
        <AmountField
          {...common('min')}
          label="Valore minimo (€)"
          descriptiveText={hint}
          isRequired
          flex="1"
          value={values.min}
          onValueChange={(text) => onChange('min', text)}
        />
        <AmountField
          {...common('max')}
          label="Valore massimo (€)"
          descriptiveText={hint}
          isRequired
          flex="1"
          value={values.max}
          onValueChange={(text) => onChange('max', text)}
        />
      </Flex>
      <Flex direction={{ base: 'column', medium: 'row' }} gap="medium">
        <PercentField
          {...common('percent')}
          label="Percentuale (%)"
          descriptiveText={readOnly ? undefined : 'Facoltativa, da 0 a 100.'}
          flex="1"
          value={values.percent}
          onValueChange={(text) => onChange('percent', text)}
        />
        <AmountField
          {...common('fixedCost')}
          label="Quota fissa (€)"
          descriptiveText={hint}
          isRequired
          flex="1"
          value={values.fixedCost}
          onValueChange={(text) => onChange('fixedCost', text)}
        />
      </Flex>
    </Flex>
  );
}
