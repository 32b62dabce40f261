import { Flex, Heading, SelectField, Text } from '@aws-amplify/ui-react';
import { subscriptionListLabels, subscriptionStates, type SubscriptionState } from '@domain/subscriptions';
import { useState } from 'react';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { paths } from '@/config/paths';
import { useMySubscriptions } from '../api/get-my-subscriptions';
import { SubscriptionBadge } from './state-labels';
import { formatLongDay } from '@/lib/dates';

/** /iscrizioni: the citizen's requests as cards, 5 per page, with a state filter. */
export function SubscriptionsPage() {
  const [state, setState] = useState<SubscriptionState | ''>('');
  const list = useMySubscriptions(state);
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Iscrizioni</Heading>
      <SelectField
        label="Stato"
        value={state}
        onChange={(event) => setState(event.target.value as SubscriptionState | '')}
        width="20rem"
      >
        <option value="">Tutti gli stati</option>
        {subscriptionStates.map((value) => (
          <option key={value} value={value}>
            {subscriptionListLabels[value]}
          </option>
        ))}
      </SelectField>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : list.items.length === 0 ? (
        <Text>Non sei iscritto a nessun servizio</Text>
      ) : (
        <ul className="call-cards" aria-label="Le tue iscrizioni">
          {list.items.map((item) => (
            <li key={item.id} className="call-card">
              <Heading level={2} className="call-card__title">
                {item.announcement.name}
              </Heading>
              <Text className="call-card__service">{item.announcement.service.name}</Text>
              <SubscriptionBadge state={item.state} list />
              <Text className="call-card__meta">Richiesta del {formatLongDay(item.dataInsert)}</Text>
              {(item.state === 'VALIDATED' || item.state === 'SUSPENDED') && (
                <ButtonLink
                  to={`${paths.subscriptionCall}?id=${encodeURIComponent(item.announcementId)}#pagamenti`}
                  aria-label={`Pagamenti per ${item.announcement.name}`}
                >
                  Pagamenti
                </ButtonLink>
              )}
              <ButtonLink
                to={`${paths.subscriptionCall}?id=${encodeURIComponent(item.announcementId)}`}
                variation="primary"
                aria-label={`Dettaglio della richiesta per ${item.announcement.name}`}
              >
                Dettaglio
              </ButtonLink>
            </li>
          ))}
        </ul>
      )}
      <CursorPagination {...list.pagination} label="Paginazione delle iscrizioni" />
    </Flex>
  );
}
