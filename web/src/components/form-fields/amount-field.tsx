import { acceptAmountInput } from './input-filters';
import { RestrictedTextField, type RestrictedTextFieldProps } from './restricted-text-field';

export type AmountFieldProps = Omit<RestrictedTextFieldProps, 'filter' | 'inputMode'>;

/**
 * An amount in euro typed the Italian way: digits, an optional comma, up to two decimals
 * ('12,50' yes, '12,505' cannot be typed). Convert it with `parseItalianAmount` from `@domain/money`.
 */
export function AmountField(props: AmountFieldProps) {
  return <RestrictedTextField {...props} filter={acceptAmountInput} inputMode="decimal" />;
}
