import { TextField, type TextFieldProps } from '@aws-amplify/ui-react';
import type { ChangeEvent } from 'react';

export type RestrictedTextFieldProps = Omit<
  TextFieldProps,
  'value' | 'defaultValue' | 'onChange' | 'type' | 'accept'
> & {
  value: string;
  /** Called with the accepted text only: a rejected keystroke never reaches it. */
  onValueChange: (text: string) => void;
  /** Returns the text to keep after a keystroke or paste, or null to ignore the keystroke. */
  filter: (next: string) => string | null;
};

/**
 * A controlled text field that ignores every keystroke its `filter` rejects: the field keeps
 * its previous text and the caret stays where it was.
 */
export function RestrictedTextField({ value, onValueChange, filter, ...props }: RestrictedTextFieldProps) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const typed = input.value;
    const accepted = filter(typed);
    if (accepted === null) {
      // Restore the previous text ourselves so that the caret goes back where it was.
      const caret = Math.max(0, (input.selectionStart ?? typed.length) - (typed.length - value.length));
      input.value = value;
      input.setSelectionRange(caret, caret);
      return;
    }
    if (accepted !== value) onValueChange(accepted);
  };

  return <TextField {...props} type="text" value={value} onChange={onChange} autoComplete="off" />;
}
