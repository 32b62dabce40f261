import { Text } from '@aws-amplify/ui-react';
import type { User } from '@domain/users';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { Dialog } from '@/components/dialog';
import { useConfirmedForm } from '@/components/form-fields';
import { NewItemPage } from '@/components/new-item-page';
import { paths } from '@/config/paths';
import { createUser } from '../api/create-user';
import { emptyUserForm, userFields, validateNewUser } from '../utils/user-form';
import { NEW_USER_REQUIRED, UserFields } from './user-fields';

/** A call id from the address (`?callId=`): only an id, never a URL, so the return address cannot lead off the portal. */
export const returnCallId = (value: string | null): string | null =>
  value && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;

/**
 * /lista_utenti/nuovo_utente: the rules of part 2 §5 'New user', a confirmation, then the new user's record.
 * Opened from a call's 'Iscrivi utente' (`?callId=`), it offers going back to the call with the new user
 * ready to enrol (`dettaglio_sessione?id=…&enrolUserId=…`).
 */
export function NewUserPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const callId = returnCallId(params.get('callId'));
  const [created, setCreated] = useState<User | null>(null);
  const recordOf = (user: User) => `${paths.userRecord}?citizen=${encodeURIComponent(user.id)}`;
  const form = useConfirmedForm({
    initialValues: emptyUserForm,
    fields: userFields,
    validate: validateNewUser,
    save: createUser,
    onSaved: (user) => (callId ? setCreated(user) : navigate(recordOf(user))),
  });
  return (
    <>
      <NewItemPage
        title="Nuovo utente"
        backTo={callId ? `${paths.callDetail}?id=${encodeURIComponent(callId)}` : paths.users}
        form={form}
        confirmTitle="Inserimento nuovo utente"
        confirmMessage="Confermi di voler inserire il nuovo utente?"
        maxWidth="64rem"
      >
        <UserFields values={form.values} errors={form.errors} required={NEW_USER_REQUIRED} onChange={form.setField} />
      </NewItemPage>
      <Dialog
        open={created !== null}
        title="Utente inserito"
        onClose={() => created && navigate(recordOf(created))}
        actions={
          created &&
          callId && (
            <>
              <ButtonLink to={recordOf(created)}>Vai alla scheda utente</ButtonLink>
              <ButtonLink
                to={`${paths.callDetail}?id=${encodeURIComponent(callId)}&enrolUserId=${encodeURIComponent(created.id)}`}
                variation="primary"
              >
                Torna al bando e iscrivi l’utente
              </ButtonLink>
            </>
          )
        }
      >
        <Text>
          {created
            ? `${created.firstName} ${created.lastName} è stato inserito. Puoi tornare al bando per iscriverlo.`
            : ''}
        </Text>
      </Dialog>
    </>
  );
}
