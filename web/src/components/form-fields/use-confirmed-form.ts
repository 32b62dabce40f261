import { useCallback, useState, type FormEvent, type RefObject } from 'react';
import { useApiMutation } from '@/lib/queries';
import { splitApiError, type FieldErrors } from './field-errors';
import { useFocusFirstInvalid } from './use-focus-first-invalid';

export type FormValidation<F extends string, I> = { ok: true; input: I } | { ok: false; errors: FieldErrors<F> };

export interface ConfirmedFormOptions<V extends Record<F, unknown>, F extends string, I, R> {
  initialValues: V;
  fields: readonly F[];
  /** Usually the shared zod schema's safeParse, mapped to the form's fields. */
  validate: (values: V) => FormValidation<F, I>;
  /** The API call, run after 'Conferma' in the confirmation dialog. */
  save: (input: I) => Promise<R>;
  onSaved: (result: R) => void;
}

/** What a form's page needs from `useConfirmedForm` to render it (see `ConfirmedForm`). */
export interface ConfirmedFormState {
  formRef: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent) => void;
  isSaving: boolean;
  /** Props for <ConfirmDialog> (title and message are the page's). */
  confirm: { open: boolean; busy: boolean; onConfirm: () => void; onCancel: () => void };
  /** Props for <PageAlert> (kept until closed). */
  alert: { message: string | null; autoHideMs: null; onDismiss: () => void };
}

/**
 * The portal's form flow: submit → validate with the shared schema (messages beside the fields,
 * focus on the first invalid one) → confirmation dialog → API call → `onSaved`. Field messages the API
 * returns go beside the fields; any other failure goes to the form's 'Attenzione' alert.
 */
export function useConfirmedForm<V extends Record<F, unknown>, F extends string, I, R>(
  options: ConfirmedFormOptions<V, F, I, R>,
) {
  const { initialValues, fields, validate, save, onSaved } = options;
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [pending, setPending] = useState<{ input: I } | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const action = useApiMutation(save);

  /** Changing a field clears its message. An update from the field's previous value sees every change before it (two quick clicks). */
  const setField = useCallback(<K extends F>(field: K, value: V[K] | ((previous: V[K]) => V[K])) => {
    setValues((previous) => ({
      ...previous,
      [field]: typeof value === 'function' ? (value as (previous: V[K]) => V[K])(previous[field]) : value,
    }));
    setErrors((previous) => (previous[field] ? { ...previous, [field]: undefined } : previous));
  }, []);

  /** Back to the given values (the saved record), without messages. */
  const reset = useCallback((next: V) => {
    setValues(next);
    setErrors({});
    setAlert(null);
    setPending(null);
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const result = validate(values);
    if (!result.ok) {
      setErrors(result.errors);
      focusFirstInvalid();
      return;
    }
    setErrors({});
    setPending({ input: result.input });
  };

  const onConfirm = async () => {
    if (!pending) return;
    const result = await action.run(pending.input);
    setPending(null);
    if (result.ok) {
      onSaved(result.data);
      return;
    }
    const split = splitApiError(result.error, fields);
    setErrors(split.errors);
    setAlert(split.alert);
    if (Object.keys(split.errors).length > 0) focusFirstInvalid();
  };

  const state = {
    values,
    errors,
    setField,
    reset,
    formRef,
    onSubmit,
    isSaving: action.isRunning,
    /** Props for <ConfirmDialog> (title and message are the page's). */
    confirm: {
      open: pending !== null,
      busy: action.isRunning,
      onConfirm: () => void onConfirm(),
      onCancel: () => setPending(null),
    },
    /** Props for <PageAlert> (kept until closed). */
    alert: { message: alert, autoHideMs: null, onDismiss: () => setAlert(null) },
  };
  return state satisfies ConfirmedFormState;
}
