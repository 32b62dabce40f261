import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import { messages } from '@domain/messages';
import type { Service } from '@domain/services';
import { useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { useConfirmedForm } from '@/components/form-fields';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { useService } from '../api/get-service';
import { updateService } from '../api/update-service';
import { serviceFields, serviceToForm, validateServiceForm } from '../utils/service-form';
import { ServiceCalls } from './service-calls';
import { ServiceFields } from './service-fields';

/**
 * /servizi/visualizza_servizio?id={id}: the service, read-only until 'Modifica'; 'Indietro' goes
 * back to read-only, 'Conferma' saves after the dialog and returns to /servizi. Below, its calls.
 */
export function ServiceDetailPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const service = useService(id);
  const loaded = service.data && service.data.id === id ? service.data : undefined;

  let content;
  if (!id) content = <ErrorState message={messages.service.notFound} backTo={paths.services} backLabel="Torna ai servizi" />;
  else if (service.error) content = <ErrorState message={service.error.message} backTo={paths.services} backLabel="Torna ai servizi" />;
  else if (!loaded) content = <LoadingState />;
  else
    content = (
      <>
        <ServiceForm key={loaded.id} service={loaded} />
        <ServiceCalls serviceId={loaded.id} serviceName={loaded.name} />
      </>
    );

  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>{loaded?.name ?? 'Dettaglio servizio'}</Heading>
      {content}
    </Flex>
  );
}

function ServiceForm({ service }: { service: Service }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const form = useConfirmedForm({
    initialValues: serviceToForm(service),
    fields: serviceFields,
    validate: validateServiceForm,
    save: (input) => updateService(service.id, input),
    onSaved: () => navigate(paths.services),
  });

  const startEditing = () => {
    setEditing(true);
    requestAnimationFrame(() => form.formRef.current?.querySelector<HTMLInputElement>('input')?.focus());
  };
  const stopEditing = () => {
    form.reset(serviceToForm(service));
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <>
      <PageAlert {...form.alert} />
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label="Dati del servizio">
        <Flex direction="column" gap="large">
          <ServiceFields values={form.values} errors={form.errors} readOnly={!editing} onChange={form.setField} />
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            {editing ? (
              <>
                {/* Keys: React must not turn the clicked 'Modifica' button into this submit button (it would submit). */}
                <Button key="back" onClick={stopEditing} isDisabled={form.isSaving}>
                  Indietro
                </Button>
                <Button key="confirm" type="submit" variation="primary" isDisabled={form.isSaving}>
                  Conferma
                </Button>
              </>
            ) : (
              <>
                <ButtonLink key="list" to={paths.services}>
                  Indietro
                </ButtonLink>
                <Button key="edit" ref={editButton} variation="primary" onClick={startEditing}>
                  Modifica
                </Button>
              </>
            )}
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog {...form.confirm} title="Modifica servizio" message="Confermi di voler modificare il servizio?" />
    </>
  );
}
