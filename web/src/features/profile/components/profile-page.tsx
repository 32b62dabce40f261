import { Button, Card, Flex, Heading } from '@aws-amplify/ui-react';
import type { User } from '@domain/users';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { useConfirmedForm } from '@/components/form-fields';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { IseeTable } from '@/features/isee';
import { PROFILE_REQUIRED, UserFields, userFields, userToForm, validateProfile } from '@/features/users';
import { updateProfile, useProfile } from '../api/profile';

/** /profilo: read-only until 'Modifica'; names and fiscal code not editable; the uploaded ISEE; ?scroll=true. */
export function ProfilePage() {
  const profile = useProfile();
  const [params] = useSearchParams();
  const iseeCard = useRef<HTMLDivElement>(null);
  const scroll = params.get('scroll') === 'true';
  const loaded = Boolean(profile.data);
  useEffect(() => {
    if (scroll && loaded) iseeCard.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [scroll, loaded]);
  return (
    <Flex direction="column" gap="large">
      <Heading level={1}>Profilo</Heading>
      {profile.error ? <ErrorState message={profile.error.message} /> : !profile.data ? <LoadingState /> : <ProfileForm user={profile.data} />}
      <div ref={iseeCard} id="isee-caricati">
        <Card variation="outlined">
          <Heading level={2} marginBottom="small">
            ISEE caricati
          </Heading>
          <IseeTable />
        </Card>
      </div>
    </Flex>
  );
}

function ProfileForm({ user }: { user: User }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(!user.profileComplete);
  const form = useConfirmedForm({
    initialValues: userToForm(user),
    fields: userFields,
    validate: validateProfile,
    save: updateProfile,
    onSaved: () => navigate(paths.home),
  });
  return (
    <Card variation="outlined">
      {!user.profileComplete && (
        <PageAlert variation="info" heading="Completa il tuo profilo" message="Per usare i servizi del portale completa i tuoi dati: indirizzo, data di nascita ed e-mail." autoHideMs={null} isDismissible={false} />
      )}
      <PageAlert {...form.alert} />
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label="I tuoi dati">
        <Flex direction="column" gap="large">
          <UserFields values={form.values} errors={form.errors} readOnly={!editing} locked={['firstName', 'lastName', 'fiscalCode']} required={PROFILE_REQUIRED} onChange={form.setField} />
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            {editing ? (
              <>
                <Button key="back" onClick={() => { form.reset(userToForm(user)); setEditing(false); }} isDisabled={form.isSaving}>
                  Indietro
                </Button>
                <Button key="confirm" type="submit" variation="primary" isDisabled={form.isSaving}>
                  Conferma
                </Button>
              </>
            ) : (
              <Button key="edit" variation="primary" onClick={() => setEditing(true)}>
                Modifica
              </Button>
            )}
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog {...form.confirm} title="Modifica profilo" message="Confermi di voler salvare i tuoi dati?" />
    </Card>
  );
}
