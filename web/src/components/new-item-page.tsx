import { Flex, Heading } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import type { To } from 'react-router';
import { BackAndConfirmButtons, ConfirmedForm } from './confirmed-form';
import type { ConfirmedFormState } from './form-fields';

export interface NewItemPageProps {
  /** The page title, also the form's name, e.g. 'Nuova fascia ISEE'. */
  title: string;
  /** Where 'Indietro' leads: the list. */
  backTo: To;
  /** What `useConfirmedForm` returns; its `onSaved` decides where a saved item leads. */
  form: ConfirmedFormState;
  /** The confirmation dialog, e.g. 'Inserimento nuova fascia ISEE'. */
  confirmTitle: string;
  confirmMessage: string;
  /** 48rem by default; a form with rows of three fields wants more. */
  maxWidth?: string;
  /** The fields. */
  children: ReactNode;
}

/**
 * A page that creates one item (a band, a service, a user...): title, the fields, 'Indietro' back to the
 * list and 'Conferma', which saves after the confirmation dialog.
 */
export function NewItemPage({
  title,
  backTo,
  form,
  confirmTitle,
  confirmMessage,
  maxWidth = '48rem',
  children,
}: NewItemPageProps) {
  return (
    <Flex direction="column" gap="medium" maxWidth={maxWidth}>
      <Heading level={1}>{title}</Heading>
      <ConfirmedForm
        form={form}
        label={title}
        confirmTitle={confirmTitle}
        confirmMessage={confirmMessage}
        actions={<BackAndConfirmButtons backTo={backTo} isSaving={form.isSaving} />}
      >
        {children}
      </ConfirmedForm>
    </Flex>
  );
}
