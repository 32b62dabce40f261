export { AmountField, type AmountFieldProps } from './amount-field';
export { NumberField, type NumberFieldProps } from './number-field';
export { PercentField, type PercentFieldProps } from './percent-field';
export { RestrictedTextField, type RestrictedTextFieldProps } from './restricted-text-field';
export { useFocusFirstInvalid } from './use-focus-first-invalid';
export {
  acceptAmountInput,
  acceptPercentInput,
  formatAmountInput,
  formatNumberInput,
  formatPercentInput,
  isBlockedNumberKey,
  parseNumberInput,
  parsePercentInput,
} from './input-filters';
export { pickFieldErrors, splitApiError, type FieldErrors } from './field-errors';
export {
  useConfirmedForm,
  type ConfirmedFormOptions,
  type ConfirmedFormState,
  type FormValidation,
} from './use-confirmed-form';
export { readOnlyFieldProps, readOnlyInputStyles } from './read-only';
export { useFieldValues } from './use-field-values';
