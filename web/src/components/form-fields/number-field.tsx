import { TextField, type TextFieldProps } from '@aws-amplify/ui-react';
import { isBlockedNumberKey } from './input-filters';

export type NumberFieldProps = Omit<TextFieldProps, 'type' | 'value' | 'defaultValue' | 'onChange' | 'min'> & {
  value: string;
  onValueChange: (text: string) => void;
  /** Lowest value accepted by the browser's spinner and validity; 0 by default. */
  min?: number;
  /** Step of the spinner; 0.01 (cents) by default. */
  step?: number | 'any';
};

/**
 * A native number input (`type="number"`) with a minimum, 0 by default. When the minimum is not
 * negative the minus sign is ignored, and the exponent ('e') and plus sign always are.
 * Convert its text with `parseNumberInput`.
 */
export function NumberField({ value, onValueChange, min = 0, step = 0.01, onKeyDown, ...props }: NumberFieldProps) {
  return (
    <TextField
      {...props}
      type="number"
      inputMode="decimal"
      min={min}
      step={step}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      onKeyDown={(event) => {
        if (isBlockedNumberKey(event.key, min < 0)) event.preventDefault();
        onKeyDown?.(event);
      }}
    />
  );
}
