import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import { useNavigate } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { useConfirmedForm } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { createBand } from '../api/create-band';
import { bandFields, emptyBandForm, validateBandForm } from '../utils/band-form';
import { BandFields } from './band-fields';

/** /fasce/nuova_fascia: a new ISEE band, saved after the confirmation 'Inserimento nuova fascia ISEE'. */
export function NewBandPage() {
  const navigate = useNavigate();
  const form = useConfirmedForm({
    initialValues: emptyBandForm,
    fields: bandFields,
    validate: validateBandForm,
    save: createBand,
    onSaved: () => navigate(paths.bands),
  });

  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>Nuova fascia ISEE</Heading>
      <PageAlert {...form.alert} />
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label="Nuova fascia ISEE">
        <Flex direction="column" gap="large">
          <BandFields values={form.values} errors={form.errors} onChange={form.setField} />
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            <ButtonLink to={paths.bands}>Indietro</ButtonLink>
            <Button type="submit" variation="primary" isDisabled={form.isSaving}>
              Conferma
            </Button>
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog
        {...form.confirm}
        title="Inserimento nuova fascia ISEE"
        message="Confermi di voler inserire la nuova fascia ISEE?"
      />
    </Flex>
  );
}
