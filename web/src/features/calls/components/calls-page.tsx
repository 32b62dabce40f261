import type { CallSummary } from '@domain/calls';
import { Button, Flex, Heading, TextField } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { useCalls } from '../api/get-calls';
import { CallStateBadge } from './call-state-badge';

export const callDetailLink = (id: string, base: string = paths.callDetail) => `${base}?id=${encodeURIComponent(id)}`;

/** The columns of a list of calls: name, service (where the list mixes services), year, state, 'Dettaglio' to `detailBase`. */
export function callColumns(detailBase: string, withService: boolean): DataTableColumn<CallSummary>[] {
  return [
    { id: 'name', header: 'Nome', cell: (call) => call.name, isRowHeader: true },
    ...(withService ? [{ id: 'service', header: 'Servizio', cell: (call: CallSummary) => call.serviceName }] : []),
    { id: 'year', header: 'Anno', cell: (call) => call.year, noWrap: true },
    { id: 'state', header: 'Stato', cell: (call) => <CallStateBadge state={call.state} />, noWrap: true },
    {
      id: 'actions',
      header: 'Azioni',
      align: 'end',
      noWrap: true,
      cell: (call) => (
        <ButtonLink to={callDetailLink(call.id, detailBase)} size="small" aria-label={`Dettaglio bando ${call.name}`}>
          Dettaglio
        </ButtonLink>
      ),
    },
  ];
}

/**
 * /lista_bandi: the calls, 15 per page, state in upper case, search by name. After a new call the page is
 * opened as /lista_bandi?id=&name= and shows it.
 */
export function CallsPage() {
  const [params, setParams] = useSearchParams();
  const name = params.get('name') ?? '';
  const createdId = params.get('id');
  const [search, setSearch] = useState(name);
  const calls = useCalls(name);
  const [created, setCreated] = useState(createdId ? name : null);

  const columns = callColumns(paths.callDetail, true);

  return (
    <Flex direction="column" gap="medium">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1}>Lista bandi</Heading>
        <ButtonLink to={paths.newCall} variation="primary">
          Nuovo bando
        </ButtonLink>
      </Flex>
      <PageAlert
        message={created ? `Il bando «${created}» è stato creato.` : null}
        variation="success"
        onDismiss={() => setCreated(null)}
      />
      <form
        role="search"
        aria-label="Cerca bandi"
        onSubmit={(event) => {
          event.preventDefault();
          setParams(search.trim() ? { name: search.trim() } : {});
        }}
      >
        <Flex gap="small" alignItems="flex-end" wrap="wrap">
          <TextField
            label="Cerca per nome"
            descriptiveText="L’inizio del nome del bando (maiuscole e accenti non contano)."
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            autoComplete="off"
            width="20rem"
          />
          <Button type="submit">Cerca</Button>
          {name && (
            <Button
              onClick={() => {
                setSearch('');
                setParams({});
              }}
            >
              Mostra tutti
            </Button>
          )}
        </Flex>
      </form>
      {calls.error ? (
        <ErrorState message={calls.error.message} />
      ) : !calls.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="Elenco dei bandi"
          columns={columns}
          rows={calls.items}
          rowKey={(call) => call.id}
          emptyText="Non sono presenti bandi"
        />
      )}
      <CursorPagination {...calls.pagination} label="Paginazione dei bandi" />
    </Flex>
  );
}
