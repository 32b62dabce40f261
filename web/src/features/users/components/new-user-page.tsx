import { useNavigate } from 'react-router';
import { useConfirmedForm } from '@/components/form-fields';
import { NewItemPage } from '@/components/new-item-page';
import { paths } from '@/config/paths';
import { createUser } from '../api/create-user';
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
    <NewItemPage
      title="Nuovo utente"
      backTo={paths.users}
      form={form}
      confirmTitle="Inserimento nuovo utente"
      confirmMessage="Confermi di voler inserire il nuovo utente?"
      maxWidth="64rem"
    >
      <UserFields values={form.values} errors={form.errors} required={NEW_USER_REQUIRED} onChange={form.setField} />
    </NewItemPage>
  );
}
