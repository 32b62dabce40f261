import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import { useNavigate } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { useConfirmedForm } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { createService } from '../api/create-service';
import { emptyServiceForm, serviceFields, validateServiceForm } from '../utils/service-form';
import { ServiceFields } from './service-fields';

/** /servizi/nuovo_servizio: a new service, saved after the confirmation 'Inserimento nuovo servizio'. */
export function NewServicePage() {
  const navigate = useNavigate();
  const form = useConfirmedForm({
    initialValues: emptyServiceForm,
    fields: serviceFields,
    validate: validateServiceForm,
    save: createService,
    onSaved: () => navigate(paths.services),
  });

  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>Nuovo servizio</Heading>
      <PageAlert {...form.alert} />
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label="Nuovo servizio">
        <Flex direction="column" gap="large">
          <ServiceFields values={form.values} errors={form.errors} onChange={form.setField} />
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            <ButtonLink to={paths.services}>Indietro</ButtonLink>
            <Button type="submit" variation="primary" isDisabled={form.isSaving}>
              Conferma
            </Button>
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog {...form.confirm} title="Inserimento nuovo servizio" message="Confermi di voler inserire il nuovo servizio?" />
    </Flex>
  );
}
