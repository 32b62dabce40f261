import { Flex, Heading } from '@aws-amplify/ui-react';
import { messages } from '@domain/messages';
import type { Service } from '@domain/services';
import { useNavigate, useSearchParams } from 'react-router';
import { EditableForm, useEditableForm } from '@/components/editable-form';
import { RecordContent } from '@/components/record-content';
import { paths } from '@/config/paths';
import { ServiceCallsList } from '@/features/calls';
import { useService } from '@/features/services/api/get-service';
import { updateService } from '@/features/services/api/update-service';
import { serviceFields, serviceToForm, validateServiceForm } from '@/features/services/utils/service-form';
import { ServiceFields } from '@/features/services/components/service-fields';

/**
 * /servizi/visualizza_servizio?id={id}: the service, read-only until 'Modifica'; 'Indietro' goes
 * back to read-only, 'Conferma' saves after the dialog and returns to /servizi. Below, its calls.
 */
export function ServiceDetailPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const service = useService(id);
  const loaded = service.data && service.data.id === id ? service.data : undefined;
  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>{loaded?.name ?? 'Dettaglio servizio'}</Heading>
      <RecordContent
        id={id}
        record={service}
        missingMessage={messages.service.notFound}
        backTo={paths.services}
        backLabel="Torna ai servizi"
      >
        {(record) => (
          <>
            <ServiceForm key={record.id} service={record} />
            <ServiceCallsList serviceId={record.id} serviceName={record.name} />
          </>
        )}
      </RecordContent>
    </Flex>
  );
}

function ServiceForm({ service }: { service: Service }) {
  const navigate = useNavigate();
  const form = useEditableForm({
    initialValues: serviceToForm(service),
    fields: serviceFields,
    validate: validateServiceForm,
    save: (input) => updateService(service.id, input),
    onSaved: () => navigate(paths.services),
  });
  return (
    <EditableForm
      form={form}
      label="Dati del servizio"
      backTo={paths.services}
      confirmTitle="Modifica servizio"
      confirmMessage="Confermi di voler modificare il servizio?"
    >
      <ServiceFields values={form.values} errors={form.errors} readOnly={!form.editing} onChange={form.setField} />
    </EditableForm>
  );
}
