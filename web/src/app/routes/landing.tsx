import type { Service } from '@domain/services';
import { Alert, Button, Heading, Text } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useState } from 'react';
import { LoginRequiredDialog } from '@/components/login-required-dialog';
import { municipality } from '@/config/municipality';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { PageLoader } from '../layout/page-loader';
import { OpenCallsBoard } from '@/features/calls/components/open-calls-board';
import { getServices } from '@/features/services/api/get-services';
import { ServiceCards } from '@/features/services/components/service-cards';

interface ServicesState {
  items: Service[];
  nextCursor: string | null;
  loading: boolean;
  error: string | null;
}

/** The public list of services, page by page ('Mostra altri servizi'). */
function useServices() {
  const [state, setState] = useState<ServicesState>({ items: [], nextCursor: null, loading: true, error: null });
  const load = useCallback(async (cursor: string | null) => {
    setState((previous) => ({ ...previous, loading: true, error: null }));
    try {
      const page = await getServices({ cursor });
      setState((previous) => ({
        items: cursor ? [...previous.items, ...page.items] : page.items,
        nextCursor: page.nextCursor,
        loading: false,
        error: null,
      }));
    } catch (error) {
      const message = errorMessage(error);
      setState((previous) => ({ ...previous, loading: false, error: message }));
    }
  }, []);
  useEffect(() => {
    void load(null);
  }, [load]);
  return { ...state, loadMore: () => load(state.nextCursor) };
}

/** The anonymous visitor's home: what the portal is for, the notice board and the services (spec part 2 §1). */
export function LandingPage() {
  const { signIn } = useAuth();
  const services = useServices();
  const [loginDialog, setLoginDialog] = useState(false);

  return (
    <div className="portal-page landing">
      <section className="landing-hero" aria-labelledby="landing-title">
        <Heading level={1} id="landing-title">
          Servizi sociali del {municipality.name}
        </Heading>
        <Text className="landing-hero__lead">
          Il portale per chiedere i servizi di assistenza del Comune: iscriviti ai servizi e ai bandi, carica la tua
          attestazione ISEE, consulta i pagamenti e chiedi supporto agli uffici, tutto online.
        </Text>
        <Text>Per accedere ai servizi serve un’identità digitale SPID o la Carta d’Identità Elettronica (CIE).</Text>
        <Button variation="primary" size="large" onClick={() => void signIn()}>
          Accedi con SPID o CIE
        </Button>
      </section>

      <OpenCallsBoard />

      <section className="landing-section" aria-labelledby="servizi-title" aria-busy={services.loading}>
        <Heading level={2} id="servizi-title">
          Servizi
        </Heading>
        {services.error && (
          <Alert variation="error" heading="Attenzione">
            {services.error}
          </Alert>
        )}
        {!services.loading && !services.error && services.items.length === 0 && <Text>Non sono presenti servizi</Text>}
        {services.items.length > 0 && (
          <ServiceCards
            services={services.items}
            action={(service) => (
              <Button
                variation="primary"
                className="service-card__action"
                aria-label={`Richiedi ${service.name}`}
                onClick={() => setLoginDialog(true)}
              >
                Richiedi
              </Button>
            )}
          />
        )}
        {services.loading && <PageLoader label="Caricamento dei servizi..." />}
        {!services.loading && services.nextCursor && (
          <Button onClick={() => void services.loadMore()}>Mostra altri servizi</Button>
        )}
      </section>

      <LoginRequiredDialog open={loginDialog} onClose={() => setLoginDialog(false)} />
    </div>
  );
}
