import { Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { statusToggle, type User } from '@domain/users';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { useConfirmedForm } from '@/components/form-fields';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { ButtonLink } from '@/components/button-link';
import { paths } from '@/config/paths';
import { IseeTable } from '@/features/isee';
import { UserSubscriptions } from '@/features/subscriptions';
import { useAuth } from '@/lib/auth';
import { updateUser, useSetUserStatus, useUser } from '../api/users';
import { userFields, userToForm, validateUserUpdate } from '../utils/user-form';
import { EDIT_USER_REQUIRED, UserFields } from './user-fields';

const STATE_LABEL: Record<string, string> = { VALIDATED: 'Attivo', LOADED: 'ISEE da validare', SUSPEND: 'Sospeso' };

/** /lista_utenti/dati_utente?citizen={id}: data and edit, ISEE, subscriptions, status, new ISEE, Ticket. */
export function UserRecordPage() {
  const [params] = useSearchParams();
  const id = params.get('citizen');
  const user = useUser(id);
  let content;
  if (user.error) content = <ErrorState message={user.error.message} backTo={paths.users} backLabel="Torna alla lista utenti" />;
  else if (!user.data || user.data.id !== id) content = <LoadingState />;
  else content = <UserRecord key={user.data.id} user={user.data} onChanged={user.reload} />;
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Dati utente</Heading>
      {content}
    </Flex>
  );
}

function UserRecord({ user, onChanged }: { user: User; onChanged: () => void }) {
  const { me } = useAuth();
  const readOnly = me?.role !== 'OPERATOR';
  const [editing, setEditing] = useState(false);
  const [confirmStatus, setConfirmStatus] = useState(false);
  const status = useSetUserStatus();
  const flash = useFlashMessage();
  const editButton = useRef<HTMLButtonElement>(null);
  const form = useConfirmedForm({
    initialValues: userToForm(user),
    fields: userFields,
    validate: validateUserUpdate,
    save: (input) => updateUser(user.id, input),
    onSaved: () => {
      setEditing(false);
      flash.show('I dati dell’utente sono stati aggiornati.', 'success');
      onChanged();
    },
  });
  const toggle = statusToggle(user.state);
  const changeStatus = async () => {
    const result = await status.run(user.id, toggle.suspend);
    setConfirmStatus(false);
    if (result.ok) onChanged();
    else flash.show(result.error.message, 'error');
  };
  const stopEditing = () => {
    form.reset(userToForm(user));
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const fullName = `${user.firstName} ${user.lastName}`;

  return (
    <Flex direction="column" gap="large">
      <PageAlert key={flash.key} {...flash.props} />
      <PageAlert {...form.alert} />
      <Card variation="outlined">
        <Flex direction="column" gap="medium">
          <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
            <Heading level={2}>{fullName}</Heading>
            <Text>
              Stato: <strong>{STATE_LABEL[user.state] ?? user.state}</strong>
            </Text>
          </Flex>
          <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label={`Dati di ${fullName}`}>
            <Flex direction="column" gap="large">
              <UserFields values={form.values} errors={form.errors} readOnly={!editing} required={EDIT_USER_REQUIRED} onChange={form.setField} />
              <Flex gap="small" justifyContent="flex-end" wrap="wrap">
                {editing ? (
                  <>
                    <Button key="back" onClick={stopEditing} isDisabled={form.isSaving}>
                      Indietro
                    </Button>
                    <Button key="confirm" type="submit" variation="primary" isDisabled={form.isSaving}>
                      Conferma
                    </Button>
                  </>
                ) : (
                  <>
                    <ButtonLink key="list" to={paths.users}>
                      Indietro
                    </ButtonLink>
                    <Button key="status" onClick={() => setConfirmStatus(true)} isDisabled={readOnly} colorTheme={toggle.suspend ? 'warning' : 'success'}>
                      {toggle.label}
                    </Button>
                    <Button key="ticket" isDisabled title="I ticket arriveranno con la funzione di assistenza.">
                      Ticket
                    </Button>
                    {readOnly ? (
                      <Button key="isee" isDisabled>
                        Nuovo ISEE
                      </Button>
                    ) : (
                      <ButtonLink key="isee" to={`/lista_utenti/dati_utente/caricamento_ISEE_operatore?userId=${encodeURIComponent(user.id)}`}>
                        Nuovo ISEE
                      </ButtonLink>
                    )}
                    <Button key="edit" ref={editButton} variation="primary" isDisabled={readOnly} onClick={() => setEditing(true)}>
                      Modifica
                    </Button>
                  </>
                )}
              </Flex>
            </Flex>
          </form>
        </Flex>
      </Card>
      <Card variation="outlined">
        <Heading level={2} marginBottom="small">
          ISEE
        </Heading>
        <IseeTable userId={user.id} linkBase="/lista_utenti/dati_utente" disabled={readOnly} />
      </Card>
      <Card variation="outlined">
        <Heading level={2} marginBottom="small">
          Iscrizioni
        </Heading>
        <UserSubscriptions userId={user.id} />
      </Card>
      <ConfirmDialog {...form.confirm} title="Modifica utente" message="Confermi di voler modificare i dati dell’utente?" />
      <ConfirmDialog
        open={confirmStatus}
        title="Modifica stato utente"
        message={toggle.message}
        busy={status.isRunning}
        onConfirm={() => void changeStatus()}
        onCancel={() => setConfirmStatus(false)}
      />
    </Flex>
  );
}
