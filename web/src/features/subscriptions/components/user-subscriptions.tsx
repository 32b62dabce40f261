import { subscriptionOperatorLabels, type SubscriptionSummary } from '@domain/subscriptions';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { useUserSubscriptions } from '../api/get-user-subscriptions';
import { formatDay } from '@/lib/dates';

/** The subscriptions of one user on the operator's user record, 3 per page, newest first. */
export function UserSubscriptions({ userId }: { userId: string }) {
  const list = useUserSubscriptions(userId);
  const columns: DataTableColumn<SubscriptionSummary>[] = [
    { id: 'call', header: 'Bando', cell: (s) => s.announcement.name, isRowHeader: true },
    { id: 'service', header: 'Servizio', cell: (s) => s.announcement.service.name },
    { id: 'state', header: 'Stato', cell: (s) => subscriptionOperatorLabels[s.state], noWrap: true },
    { id: 'date', header: 'Data richiesta', cell: (s) => formatDay(s.dataInsert), noWrap: true },
  ];
  return (
    <>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="Iscrizioni dell’utente"
          columns={columns}
          rows={list.items}
          rowKey={(s) => s.id}
          emptyText="L’utente non è iscritto a nessun servizio."
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione delle iscrizioni" />
    </>
  );
}
