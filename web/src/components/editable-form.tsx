import { Button } from '@aws-amplify/ui-react';
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import type { To } from 'react-router';
import { ButtonLink } from './button-link';
import { ConfirmedForm } from './confirmed-form';
import { useConfirmedForm, type ConfirmedFormOptions, type ConfirmedFormState } from './form-fields';

/** The first field one can type in or choose from (read-only and disabled ones are skipped). */
const EDITABLE_FIELD =
  'input:not([readonly]):not([disabled]), select:not([disabled]), textarea:not([readonly]):not([disabled])';

export interface EditableFormOptions<V extends Record<F, unknown>, F extends string, I, R> extends ConfirmedFormOptions<
  V,
  F,
  I,
  R
> {
  /** Open in edit mode (a profile that misses required data); read-only by default. */
  startInEditMode?: boolean;
}

/**
 * A saved record's form, read-only until 'Modifica' (spec: bands, services, users, profile). 'Modifica'
 * opens the fields and gives the first editable one the focus; 'Indietro' puts back the saved values,
 * closes the fields and gives the focus back to 'Modifica'; a save closes them too, then `onSaved` runs.
 */
export function useEditableForm<V extends Record<F, unknown>, F extends string, I, R>({
  startInEditMode = false,
  ...options
}: EditableFormOptions<V, F, I, R>) {
  const [editing, setEditing] = useState(startInEditMode);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const form = useConfirmedForm({
    ...options,
    onSaved: (result) => {
      setEditing(false);
      options.onSaved(result);
    },
  });

  const startEditing = () => {
    setEditing(true);
    requestAnimationFrame(() => form.formRef.current?.querySelector<HTMLElement>(EDITABLE_FIELD)?.focus());
  };
  const stopEditing = () => {
    form.reset(options.initialValues);
    setEditing(false);
    requestAnimationFrame(() => editButtonRef.current?.focus());
  };

  return { ...form, editing, startEditing, stopEditing, editButtonRef } satisfies EditableFormState;
}

/** What `EditableForm` needs from `useEditableForm`. */
export interface EditableFormState extends ConfirmedFormState {
  editing: boolean;
  startEditing: () => void;
  stopEditing: () => void;
  editButtonRef: RefObject<HTMLButtonElement | null>;
}

export interface EditableFormProps {
  /** What `useEditableForm` returns. */
  form: EditableFormState;
  /** The form's accessible name. */
  label: string;
  /** The dialog after 'Conferma', e.g. 'Modifica fascia ISEE' / 'Confermi di voler modificare la fascia ISEE?'. */
  confirmTitle: string;
  confirmMessage: string;
  /** Where 'Indietro' leads while the form is read-only (the list); the profile has none. */
  backTo?: To;
  /** More buttons of the read-only view, between 'Indietro' and 'Modifica' (each with a key). */
  readOnlyActions?: ReactNode;
  /** False disables 'Modifica' (a delegate reads only). */
  canEdit?: boolean;
  /** The fields: read-only while `form.editing` is false. */
  children: ReactNode;
}

/** The buttons of a record's form: read-only ['Indietro'] [...] 'Modifica'; editing 'Indietro' 'Conferma'. */
export function EditableForm({
  form,
  label,
  confirmTitle,
  confirmMessage,
  backTo,
  readOnlyActions,
  canEdit = true,
  children,
}: EditableFormProps) {
  // Keys: React must not turn the clicked 'Modifica' button into the submit button (it would submit).
  const actions = form.editing ? (
    <>
      <Button key="back" onClick={form.stopEditing} isDisabled={form.isSaving}>
        Indietro
      </Button>
      <Button key="confirm" type="submit" variation="primary" isDisabled={form.isSaving}>
        Conferma
      </Button>
    </>
  ) : (
    <>
      {backTo !== undefined && (
        <ButtonLink key="list" to={backTo}>
          Indietro
        </ButtonLink>
      )}
      {readOnlyActions}
      <Button key="edit" ref={form.editButtonRef} variation="primary" isDisabled={!canEdit} onClick={form.startEditing}>
        Modifica
      </Button>
    </>
  );
  return (
    <ConfirmedForm
      form={form}
      label={label}
      confirmTitle={confirmTitle}
      confirmMessage={confirmMessage}
      actions={actions}
    >
      {children}
    </ConfirmedForm>
  );
}
