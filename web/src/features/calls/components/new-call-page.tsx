import { Flex, Heading } from '@aws-amplify/ui-react';
import type { CallInput } from '@domain/calls';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { createCall } from '../api/create-call';
import { CallForm, emptyCallForm, type LoadCallChoices } from './call-form';

/**
 * /lista_bandi/nuova_sessione, or /servizi/visualizza_servizio/nuova_sessione?id={serviceId}&name={name}
 * with the service chosen. After saving: /lista_bandi?id=&name= shows the new call.
 */
export function NewCallPage({ loadChoices }: { loadChoices: LoadCallChoices }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const serviceId = params.get('id') ?? '';
  const serviceName = params.get('name') ?? '';
  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>Nuovo bando</Heading>
      <CallForm
        mode="new"
        initialValues={emptyCallForm(serviceId, serviceName)}
        attached={0}
        save={(input) => createCall(input as CallInput)}
        onSaved={(call) =>
          navigate(`${paths.calls}?id=${encodeURIComponent(call.id)}&name=${encodeURIComponent(call.name)}`)
        }
        loadChoices={loadChoices}
        backTo={serviceId ? `${paths.serviceDetail}?id=${encodeURIComponent(serviceId)}` : paths.calls}
      />
    </Flex>
  );
}
