import { Button, Flex, Heading, TextField } from '@aws-amplify/ui-react';
import { ticketMessages } from '@domain/tickets';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useOpenTickets } from '../api/list-open-tickets';
import { TicketsTable, ticketColumns } from './tickets-table';

/** /lista_ticket: every open ticket (Aperto, In Corso), oldest first; 'Cerca' looks through all tickets. */
export function TicketsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const [error, setError] = useState<string | undefined>();
  const list = useOpenTickets(q);
  const search = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (value && value.length < 2) return setError(ticketMessages.query);
    setError(undefined);
    setParams(value ? { q: value } : {});
  };
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Lista ticket</Heading>
      <form onSubmit={search} role="search" aria-label="Cerca ticket" noValidate>
        <Flex alignItems="flex-end" gap="small" wrap="wrap">
          <TextField
            name="q"
            label="Cerca"
            descriptiveText="Numero del ticket, inizio del codice fiscale o del cognome del richiedente, o della categoria."
            value={text}
            hasError={!!error}
            errorMessage={error}
            onChange={(event) => setText(event.target.value)}
            flex="1"
          />
          <Button type="submit">Cerca</Button>
          {q && (
            <Button
              onClick={() => {
                setText('');
                setParams({});
              }}
            >
              Mostra i ticket aperti
            </Button>
          )}
        </Flex>
      </form>
      <TicketsTable
        list={list}
        caption={q ? `Ticket trovati per "${q}"` : 'Ticket aperti'}
        columns={ticketColumns()}
        emptyText={q ? 'Nessun ticket corrisponde alla ricerca.' : 'Non ci sono ticket aperti.'}
      />
    </Flex>
  );
}
