import { Card, Flex, Heading } from '@aws-amplify/ui-react';
import type { User } from '@domain/users';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { EditableForm, useEditableForm } from '@/components/editable-form';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { IseeTable, MyInpsQueries } from '@/features/isee';
import { PROFILE_REQUIRED, UserFields, userFields, userToForm, validateProfile } from '@/features/users';
import { useProfile } from '@/features/profile/api/get-profile';
import { updateProfile } from '@/features/profile/api/update-profile';

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
      {profile.error ? (
        <ErrorState message={profile.error.message} />
      ) : !profile.data ? (
        <LoadingState />
      ) : (
        <ProfileForm user={profile.data} />
      )}
      <div ref={iseeCard} id="isee-caricati">
        <Card variation="outlined">
          <IseeTable title="ISEE caricati" />
        </Card>
      </div>
      <Card variation="outlined">
        <MyInpsQueries />
      </Card>
    </Flex>
  );
}

function ProfileForm({ user }: { user: User }) {
  const navigate = useNavigate();
  const form = useEditableForm({
    initialValues: userToForm(user),
    fields: userFields,
    validate: validateProfile,
    save: updateProfile,
    onSaved: () => navigate(paths.home),
    // A first-time citizen finds the fields open: the profile misses required data.
    startInEditMode: !user.profileComplete,
  });
  return (
    <Card variation="outlined">
      {!user.profileComplete && (
        <PageAlert
          variation="info"
          heading="Completa il tuo profilo"
          message="Per usare i servizi del portale completa i tuoi dati: indirizzo, data di nascita ed e-mail."
          autoHideMs={null}
          isDismissible={false}
        />
      )}
      <EditableForm
        form={form}
        label="I tuoi dati"
        confirmTitle="Modifica profilo"
        confirmMessage="Confermi di voler salvare i tuoi dati?"
      >
        <UserFields
          values={form.values}
          errors={form.errors}
          readOnly={!form.editing}
          locked={['firstName', 'lastName', 'fiscalCode']}
          required={PROFILE_REQUIRED}
          onChange={form.setField}
        />
      </EditableForm>
    </Card>
  );
}
