import { Button, Flex } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import type { To } from 'react-router';
import { ButtonLink } from './button-link';
import { ConfirmDialog } from './dialog';
import type { ConfirmedFormState } from './form-fields';
import { PageAlert } from './page-alert';

export interface ConfirmedFormProps {
  /** What `useConfirmedForm` (or `useEditableForm`) returns. */
  form: Pick<ConfirmedFormState, 'formRef' | 'onSubmit' | 'alert' | 'confirm'>;
  /** The form's accessible name, e.g. 'Nuova fascia ISEE'. */
  label: string;
  /** The confirmation dialog, e.g. 'Inserimento nuova fascia ISEE' / 'Confermi di voler inserire la nuova fascia ISEE?'. */
  confirmTitle: string;
  confirmMessage: ReactNode;
  /** The buttons under the fields (one of them submits). */
  actions: ReactNode;
  /** The fields. */
  children: ReactNode;
}

/**
 * The portal's form on the page: the 'Attenzione' alert of a failed save, the fields, the buttons, and the
 * 'Conferma' / 'Annulla' dialog that `useConfirmedForm` opens after a valid submit.
 */
export function ConfirmedForm({ form, label, confirmTitle, confirmMessage, actions, children }: ConfirmedFormProps) {
  return (
    <>
      <PageAlert {...form.alert} />
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label={label}>
        <Flex direction="column" gap="large">
          {children}
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            {actions}
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog {...form.confirm} title={confirmTitle} message={confirmMessage} />
    </>
  );
}

/** 'Indietro' (a link back) and 'Conferma' (submits): the buttons of a form that creates something. */
export function BackAndConfirmButtons({ backTo, isSaving }: { backTo: To; isSaving: boolean }) {
  return (
    <>
      <ButtonLink to={backTo}>Indietro</ButtonLink>
      <Button type="submit" variation="primary" isDisabled={isSaving}>
        Conferma
      </Button>
    </>
  );
}
