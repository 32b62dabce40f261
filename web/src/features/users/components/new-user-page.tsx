import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import { useNavigate } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { useConfirmedForm } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { createUser } from '../api/users';
import { emptyUserForm, userFields, validateNewUser } from '../utils/user-form';
import { NEW_USER_REQUIRED, UserFields } from './user-fields';

/** /lista_utenti/nuovo_utente: the rules of part 2 §5 'New user', a confirmation, then the new user's record. */
export function NewUserPage() {
  const navigate = useNavigate();
  const form = useConfirmedForm({
    initialValues: emptyUserForm,
    fields: userFields,
    validate: validateNewUser,
    save: createUser,
    onSaved: (user) => navigate(`${paths.userRecord}?citizen=${encodeURIComponent(user.id)}`),
  });
  return (
    <Flex direction="column" gap="medium" maxWidth="64rem">
      <Heading level={1}>Nuovo utente</Heading>
      <PageAlert {...form.alert} />
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label="Nuovo utente">
        <Flex direction="column" gap="large">
          <UserFields values={form.values} errors={form.errors} required={NEW_USER_REQUIRED} onChange={form.setField} />
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            <ButtonLink to={paths.users}>Indietro</ButtonLink>
            <Button type="submit" variation="primary" isDisabled={form.isSaving}>
              Conferma
            </Button>
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog {...form.confirm} title="Inserimento nuovo utente" message="Confermi di voler inserire il nuovo utente?" />
    </Flex>
  );
}
