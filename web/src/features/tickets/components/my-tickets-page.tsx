import { Flex, Heading, Text } from '@aws-amplify/ui-react';
import { ButtonLink } from '@/components/button-link';
import { paths } from '@/config/paths';
import { useMyTickets } from '../api/list-my-tickets';
import { TicketsTable, ticketColumns } from './tickets-table';

/** 'Le mie segnalazioni' (/supporto/segnalazioni): the citizen's own tickets and their state, newest first. */
export function MyTicketsPage() {
  const list = useMyTickets();
  const columns = [
    ...ticketColumns({ withDetail: false, withRequester: false }).filter((c) => c.id !== 'assegnatoA'),
    {
      id: 'dettagli',
      header: 'Messaggio',
      cell: (t: { dettagli: string }) => <Text className="ticket-message">{t.dettagli}</Text>,
    },
  ];
  return (
    <Flex direction="column" gap="medium">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1}>Le mie segnalazioni</Heading>
        <ButtonLink to={paths.support}>Nuova segnalazione</ButtonLink>
      </Flex>
      <TicketsTable
        list={list}
        caption="Le mie segnalazioni"
        columns={columns}
        emptyText="Non hai ancora inviato segnalazioni."
      />
    </Flex>
  );
}
