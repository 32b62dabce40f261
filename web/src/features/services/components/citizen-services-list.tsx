import type { Service } from '@domain/services';
import { Heading, Text } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
import { ButtonLink } from '@/components/button-link';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api';
import { getServices } from '../api/get-services';
import { ServiceCards } from './service-cards';

/** The citizen's 'Servizi' on the home (up to 100): each service leads to its open calls (/sessione_servizi?id=). */
export function CitizenServices() {
  const [state, setState] = useState<{ items: Service[] | null; error: string | null }>({ items: null, error: null });
  useEffect(() => {
    let current = true;
    getServices({ limit: 100 }).then(
      (page) => current && setState({ items: page.items, error: null }),
      (error: unknown) => current && setState({ items: [], error: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, []);
  return (
    <section className="landing-section" aria-labelledby="servizi-title" aria-busy={state.items === null}>
      <Heading level={2} id="servizi-title">
        Servizi
      </Heading>
      {state.error && <Text role="alert">{state.error}</Text>}
      {state.items?.length === 0 && !state.error && <Text>Non sono presenti servizi</Text>}
      {state.items && state.items.length > 0 && (
        <ServiceCards
          services={state.items}
          action={(service) => (
            <ButtonLink
              to={`${paths.serviceCalls}?id=${encodeURIComponent(service.id)}`}
              variation="primary"
              className="service-card__action"
              aria-label={`Vedi i bandi di ${service.name}`}
            >
              Vedi i bandi
            </ButtonLink>
          )}
        />
      )}
    </section>
  );
}
