import { Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { messages } from '@domain/messages';
import { statusToggle, type User } from '@domain/users';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { EditableForm, useEditableForm } from '@/components/editable-form';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { RecordContent } from '@/components/record-content';
import { paths } from '@/config/paths';
import { InpsRefreshButton, IseeTable, UserInpsQueries } from '@/features/isee';
import { PositionActions, UserPayments } from '@/features/payments';
import { UserSubscriptions } from '@/features/subscriptions';
import { useAuth } from '@/lib/auth';
import { useUser } from '@/features/users/api/get-user';
import { useSetUserStatus } from '@/features/users/api/set-user-status';
import { updateUser } from '@/features/users/api/update-user';
import { userFields, userToForm, validateUserUpdate } from '@/features/users/utils/user-form';
import { EDIT_USER_REQUIRED, UserFields } from '@/features/users/components/user-fields';

const STATE_LABEL: Record<string, string> = { VALIDATED: 'Attivo', LOADED: 'ISEE da validare', SUSPEND: 'Sospeso' };

/** /lista_utenti/dati_utente?citizen={id}: data and edit, ISEE, subscriptions, status, new ISEE, Ticket. */
export function UserRecordPage() {
  const [params] = useSearchParams();
  const id = params.get('citizen');
  const user = useUser(id);
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Dati utente</Heading>
      {/* Without ?citizen= the access table sends the operator back to /lista_utenti. */}
      <RecordContent
        id={id}
        record={user}
        missingMessage={messages.notFound}
        backTo={paths.users}
        backLabel="Torna alla lista utenti"
      >
        {(loaded) => <UserRecord key={loaded.id} user={loaded} onChanged={user.reload} />}
      </RecordContent>
    </Flex>
  );
}

function UserRecord({ user, onChanged }: { user: User; onChanged: () => void }) {
  const { me } = useAuth();
  const readOnly = me?.role !== 'OPERATOR';
  const [confirmStatus, setConfirmStatus] = useState(false);
  const status = useSetUserStatus();
  const flash = useFlashMessage();
  const form = useEditableForm({
    initialValues: userToForm(user),
    fields: userFields,
    validate: validateUserUpdate,
    save: (input) => updateUser(user.id, input),
    onSaved: () => {
      flash.show('I dati dell’utente sono stati aggiornati.', 'success');
      onChanged();
    },
  });
  // 'Aggiorna ISEE da INPS' records a new ISEE: the ISEE list and the queries are read again.
  const [inpsRun, setInpsRun] = useState(0);
  const toggle = statusToggle(user.state);
  const changeStatus = async () => {
    const result = await status.run(user.id, toggle.suspend);
    setConfirmStatus(false);
    if (result.ok) onChanged();
    else flash.show(result.error.message, 'error');
  };
  const fullName = `${user.firstName} ${user.lastName}`;

  return (
    <Flex direction="column" gap="large">
      <PageAlert key={flash.key} {...flash.props} />
      <Card variation="outlined">
        <Flex direction="column" gap="medium">
          <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
            <Heading level={2}>{fullName}</Heading>
            <Text>
              Stato: <strong>{STATE_LABEL[user.state] ?? user.state}</strong>
            </Text>
          </Flex>
          <EditableForm
            form={form}
            label={`Dati di ${fullName}`}
            backTo={paths.users}
            canEdit={!readOnly}
            confirmTitle="Modifica utente"
            confirmMessage="Confermi di voler modificare i dati dell’utente?"
            readOnlyActions={
              <>
                <Button
                  key="status"
                  onClick={() => setConfirmStatus(true)}
                  isDisabled={readOnly}
                  colorTheme={toggle.suspend ? 'warning' : 'success'}
                >
                  {toggle.label}
                </Button>
                {readOnly ? (
                  <Button key="ticket" isDisabled>
                    Ticket
                  </Button>
                ) : (
                  <ButtonLink key="ticket" to={`${paths.userTickets}?userId=${encodeURIComponent(user.id)}`}>
                    Ticket
                  </ButtonLink>
                )}
                <InpsRefreshButton
                  key="inps"
                  userId={user.id}
                  disabled={readOnly}
                  onResult={(message, variation, result) => {
                    flash.show(message, variation);
                    setInpsRun((n) => n + 1);
                    if (result?.isee) onChanged();
                  }}
                />
                {readOnly ? (
                  <Button key="isee" isDisabled>
                    Nuovo ISEE
                  </Button>
                ) : (
                  <ButtonLink
                    key="isee"
                    to={`/lista_utenti/dati_utente/caricamento_ISEE_operatore?userId=${encodeURIComponent(user.id)}`}
                  >
                    Nuovo ISEE
                  </ButtonLink>
                )}
              </>
            }
          >
            <UserFields
              values={form.values}
              errors={form.errors}
              readOnly={!form.editing}
              required={EDIT_USER_REQUIRED}
              onChange={form.setField}
            />
          </EditableForm>
        </Flex>
      </Card>
      <Card variation="outlined">
        <IseeTable
          key={inpsRun}
          title="ISEE"
          userId={user.id}
          linkBase="/lista_utenti/dati_utente"
          disabled={readOnly}
          onDeleted={onChanged}
        />
      </Card>
      {!readOnly && (
        <Card variation="outlined">
          <UserInpsQueries userId={user.id} reloadKey={String(inpsRun)} />
        </Card>
      )}
      <Card variation="outlined">
        <Heading level={2} marginBottom="small">
          Iscrizioni
        </Heading>
        <UserSubscriptions userId={user.id} />
      </Card>
      <Card variation="outlined">
        <Heading level={2} marginBottom="small">
          Pagamenti
        </Heading>
        <UserPayments
          userId={user.id}
          actions={(position, reload) => <PositionActions position={position} reload={reload} readOnly={readOnly} />}
        />
      </Card>
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
