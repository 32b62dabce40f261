/**
 * How an Amplify field looks while its form is read-only (before 'Modifica'): a grey background, so
 * one sees at a glance that it cannot be typed in. Pass as `inputStyles` to TextField/TextAreaField.
 */
export const readOnlyInputStyles = { backgroundColor: 'var(--amplify-colors-background-secondary)' } as const;

/** The props every field of a form that can be read-only shares. */
export function readOnlyFieldProps(readOnly: boolean) {
  return { isReadOnly: readOnly, inputStyles: readOnly ? readOnlyInputStyles : undefined };
}
