import type { CallSummary } from '@domain/calls';
import { BOARD_SIZE } from '@domain/call-limits';
import { Heading, Text } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
import { ButtonLink } from '@/components/button-link';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api';
import { getOpenCalls } from '../api/get-open-calls';
import { formatLongDay } from '@/lib/dates';

/** Open calls as cards, each linking to its page. */
export function CallCards({ calls, headingLevel = 3 }: { calls: CallSummary[]; headingLevel?: 2 | 3 }) {
  return (
    <ul className="call-cards">
      {calls.map((call) => (
        <li key={call.id} className="call-card">
          <Heading level={headingLevel} className="call-card__title">
            {call.name}
          </Heading>
          <Text className="call-card__service">{call.serviceName}</Text>
          <Text className="call-card__meta">Pubblicato il {formatLongDay(call.dataInsert)}</Text>
          <ButtonLink
            to={`${paths.publicCall}?id=${encodeURIComponent(call.id)}`}
            variation="primary"
            aria-label={`Dettaglio del bando ${call.name}`}
          >
            Dettaglio
          </ButtonLink>
        </li>
      ))}
    </ul>
  );
}

/** 'Bacheca': the first three open calls, newest first (landing page and citizen home). */
export function OpenCallsBoard() {
  const [state, setState] = useState<{ calls: CallSummary[] | null; error: string | null }>({
    calls: null,
    error: null,
  });
  useEffect(() => {
    let current = true;
    getOpenCalls({ limit: BOARD_SIZE }).then(
      (page) => current && setState({ calls: page.items, error: null }),
      (error: unknown) => current && setState({ calls: [], error: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, []);
  return (
    <section className="landing-section" aria-labelledby="bacheca-title" aria-busy={state.calls === null}>
      <Heading level={2} id="bacheca-title">
        Bacheca
      </Heading>
      {state.error && <Text role="alert">{state.error}</Text>}
      {state.calls === null && <Text>Caricamento dei bandi...</Text>}
      {state.calls?.length === 0 && !state.error && <Text>Al momento non ci sono bandi aperti da mostrare.</Text>}
      {state.calls && state.calls.length > 0 && <CallCards calls={state.calls} />}
    </section>
  );
}
