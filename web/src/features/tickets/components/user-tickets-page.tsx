import { Flex, Heading } from '@aws-amplify/ui-react';
import { useSearchParams } from 'react-router';
import { useBreadcrumbQuery } from '@/components/breadcrumb-query';
import { ButtonLink } from '@/components/button-link';
import { paths } from '@/config/paths';
import { useUserTickets } from '../api/list-user-tickets';
import { TICKET_DETAIL_PATH, TicketsTable, ticketColumns } from './tickets-table';

/** /lista_utenti/dati_utente/ticket?userId=: a user's tickets, newest first, and 'Nuovo ticket'. */
export function UserTicketsPage() {
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const list = useUserTickets(userId);
  useBreadcrumbQuery({ citizen: userId });
  return (
    <Flex direction="column" gap="medium">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1}>Ticket utente</Heading>
        <Flex gap="small">
          <ButtonLink to={`${paths.userRecord}?citizen=${encodeURIComponent(userId)}`}>Torna ai dati utente</ButtonLink>
          <ButtonLink to={`${TICKET_DETAIL_PATH}?userId=${encodeURIComponent(userId)}`} variation="primary">
            Nuovo ticket
          </ButtonLink>
        </Flex>
      </Flex>
      <TicketsTable
        list={list}
        caption="Ticket dell’utente"
        columns={ticketColumns()}
        emptyText="L’utente non ha ticket."
      />
    </Flex>
  );
}
