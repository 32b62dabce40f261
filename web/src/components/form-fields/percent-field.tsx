import { acceptPercentInput } from './input-filters';
import { RestrictedTextField, type RestrictedTextFieldProps } from './restricted-text-field';

export type PercentFieldProps = Omit<RestrictedTextFieldProps, 'filter' | 'inputMode'>;

/**
 * A percentage from 0 to 100 (up to two decimals): any keystroke that would make it something else
 * is ignored. Convert it with `parsePercentInput` ('' → null).
 */
export function PercentField(props: PercentFieldProps) {
  return <RestrictedTextField {...props} filter={acceptPercentInput} inputMode="decimal" />;
}
