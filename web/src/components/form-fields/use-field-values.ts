import { useState } from 'react';

/**
 * A form's text values and their messages: typing in a field clears its message; `bind` gives a field its
 * name, value, message and change handler.
 */
export function useFieldValues<F extends string>(initial: Record<F, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const set = (field: F, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const bind = (field: F) => ({
    name: field,
    value: values[field],
    hasError: !!errors[field],
    errorMessage: errors[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
  });
  return { values, setValues, errors, setErrors, bind };
}
