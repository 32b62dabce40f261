import { Flex, SelectField, TextField } from '@aws-amplify/ui-react';
import { countryOptions, provinceOptions } from '@domain/place-options';
import { municipi } from '@domain/users';
import { readOnlyFieldProps } from '@/components/form-fields';
import type { UserField, UserFormErrors, UserFormValues } from '../utils/user-form';

export interface UserFieldsProps {
  values: UserFormValues;
  errors: UserFormErrors;
  readOnly?: boolean;
  /** Fields shown but never editable (the citizen's names and fiscal code). */
  locked?: readonly UserField[];
  /** Which fields are required (a star and aria-required): they differ between the three forms. */
  required: readonly UserField[];
  onChange: (field: UserField, value: string) => void;
}

/** The user's fields, shared by the new-user form, the operator's edit and the citizen's profile. */
export function UserFields({ values, errors, readOnly = false, locked = [], required, onChange }: UserFieldsProps) {
  const common = (field: UserField) => ({
    name: field,
    ...readOnlyFieldProps(readOnly || locked.includes(field)),
    isRequired: required.includes(field),
    hasError: Boolean(errors[field]),
    errorMessage: errors[field],
    value: values[field],
    onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
  });
  const select = (field: UserField) => ({
    ...common(field),
    isDisabled: readOnly || locked.includes(field),
    isReadOnly: undefined,
    inputStyles: undefined,
  });
  const row = { direction: { base: 'column', medium: 'row' }, gap: 'medium' } as const;
  return (
    <Flex direction="column" gap="medium">
      <Flex {...row}>
        <TextField {...common('firstName')} label="Nome" autoComplete="given-name" flex="1" />
        <TextField {...common('lastName')} label="Cognome" autoComplete="family-name" flex="1" />
      </Flex>
      <Flex {...row}>
        <TextField
          {...common('fiscalCode')}
          label="Codice fiscale"
          autoComplete="off"
          maxLength={16}
          flex="1"
          inputStyles={{
            textTransform: 'uppercase',
            ...(readOnly || locked.includes('fiscalCode') ? readOnlyFieldProps(true).inputStyles : {}),
          }}
        />
        <TextField {...common('birthDate')} label="Data di nascita" type="date" autoComplete="bday" flex="1" />
      </Flex>
      <Flex {...row}>
        <TextField {...common('email')} label="E-mail" type="email" autoComplete="email" flex="1" />
        <TextField {...common('emailPec')} label="PEC" type="email" autoComplete="off" flex="1" />
        <TextField
          {...common('phoneNumber')}
          label="Telefono"
          type="tel"
          autoComplete="tel"
          flex="1"
          descriptiveText={readOnly ? undefined : 'Es. +393331234567'}
        />
      </Flex>
      <Flex {...row}>
        <TextField {...common('address')} label="Indirizzo" autoComplete="address-line1" flex="3" />
        <TextField {...common('addressNumber')} label="Numero civico" autoComplete="off" flex="1" />
        <TextField
          {...common('cap')}
          label="CAP"
          inputMode="numeric"
          maxLength={5}
          autoComplete="postal-code"
          flex="1"
        />
      </Flex>
      <Flex {...row}>
        <TextField {...common('city')} label="Città" autoComplete="address-level2" flex="2" />
        <SelectField {...select('country')} label="Provincia" placeholder="Seleziona una provincia" flex="1">
          {provinceOptions.map((p) => (
            <option key={p.code} value={p.code}>
              {p.code} - {p.name}
            </option>
          ))}
        </SelectField>
      </Flex>
      <Flex {...row}>
        <SelectField {...select('nation')} label="Nazione" flex="1">
          {countryOptions.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField {...select('municipioId')} label="Municipio" placeholder="Seleziona un municipio" flex="1">
          {municipi.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </SelectField>
      </Flex>
    </Flex>
  );
}

export const NEW_USER_REQUIRED: readonly UserField[] = [
  'firstName',
  'lastName',
  'birthDate',
  'fiscalCode',
  'address',
  'addressNumber',
  'cap',
  'city',
  'country',
  'nation',
  'municipioId',
];
export const EDIT_USER_REQUIRED: readonly UserField[] = [
  'firstName',
  'lastName',
  'birthDate',
  'fiscalCode',
  'address',
  'addressNumber',
  'cap',
  'city',
  'country',
  'nation',
];
export const PROFILE_REQUIRED: readonly UserField[] = [...EDIT_USER_REQUIRED, 'email'];
