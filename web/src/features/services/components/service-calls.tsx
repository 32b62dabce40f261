import { Heading, Text, View } from '@aws-amplify/ui-react';
import { useId } from 'react';

export interface ServiceCallsProps {
  serviceId: string;
}

/**
 * The calls (bandi) of a service, under its detail page.
 *
 * TODO(calls issue): the calls API does not exist yet. When it does, list here the service's calls
 * (name, year, state; link to /servizi/visualizza_servizio/dettaglio_sessione?id=) with their
 * own pagination, the empty text 'Nessun bando disponibile per questo servizio.', and the button to
 * /servizi/visualizza_servizio/nuova_sessione?id={serviceId}&name={name} (spec part 2 §2.1).
 * Until then this is a placeholder: it shows no data, real or fake.
 */
export function ServiceCalls({ serviceId }: ServiceCallsProps) {
  const headingId = useId();
  return (
    <View as="section" aria-labelledby={headingId} marginBlockStart="large" data-service-id={serviceId}>
      <Heading level={2} id={headingId}>
        Bandi del servizio
      </Heading>
      <Text marginBlockStart="small">L'elenco dei bandi sarà disponibile a breve.</Text>
    </View>
  );
}
