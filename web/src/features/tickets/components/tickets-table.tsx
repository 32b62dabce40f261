import { ticketStateLabel, type Ticket } from '@domain/tickets';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination, type CursorList } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { formatDateTime } from '@/lib/dates';

export const TICKET_DETAIL_PATH = '/lista_utenti/dati_utente/ticket/dettaglio';

/** The spec's columns (part 2 §2.14): id, dataApertura, stato, richiedente, ultimoAggiornamento, categoria, assegnatoA. */
export function ticketColumns({
  withDetail = true,
  withRequester = true,
}: { withDetail?: boolean; withRequester?: boolean } = {}): DataTableColumn<Ticket>[] {
  return [
    { id: 'id', header: 'Id', cell: (t) => t.id, isRowHeader: true, noWrap: true },
    { id: 'dataApertura', header: 'Data apertura', cell: (t) => formatDateTime(t.dataApertura), noWrap: true },
    {
      id: 'stato',
      header: 'Stato',
      cell: (t) => <span className={`ticket-state ticket-state--${t.stato}`}>{ticketStateLabel(t.stato)}</span>,
      noWrap: true,
    },
    ...(withRequester ? [{ id: 'richiedente', header: 'Richiedente', cell: (t: Ticket) => t.richiedente }] : []),
    {
      id: 'ultimoAggiornamento',
      header: 'Ultimo aggiornamento',
      cell: (t) => formatDateTime(t.ultimoAggiornamento),
      noWrap: true,
    },
    { id: 'categoria', header: 'Categoria', cell: (t) => t.categoria },
    { id: 'assegnatoA', header: 'Assegnato a', cell: (t) => t.assegnatoA ?? '—' },
    ...(withDetail
      ? [
          {
            id: 'actions',
            header: 'Azioni',
            align: 'end' as const,
            noWrap: true,
            cell: (t: Ticket) => (
              <ButtonLink
                size="small"
                to={`${TICKET_DETAIL_PATH}?id=${encodeURIComponent(t.id)}`}
                aria-label={`Dettaglio ticket ${t.id} di ${t.richiedente}`}
              >
                Dettaglio
              </ButtonLink>
            ),
          },
        ]
      : []),
  ];
}

export function TicketsTable({
  list,
  caption,
  columns,
  emptyText,
}: {
  list: CursorList<Ticket>;
  caption: string;
  columns: DataTableColumn<Ticket>[];
  emptyText: string;
}) {
  return (
    <>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable caption={caption} columns={columns} rows={list.items} rowKey={(t) => t.id} emptyText={emptyText} />
      )}
      <CursorPagination {...list.pagination} label={`Paginazione: ${caption}`} />
    </>
  );
}
