import { messages } from '@domain/messages';
import type { PositionView } from '@domain/position-payment';
import type { ReactNode } from 'react';
import { CursorPagination } from '@/components/cursor-pagination';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { useUserPositions } from '../api/user-positions';
import { PositionsTable } from './positions-table';

/**
 * The payments section of the operator's user record (calls-citizens-roles §2.13; operator-admin §2
 * "Payments of one user"): the user's positions with their badges, or 'Non ci sono pagamenti per
 * l'utente selezionato.'. `actions` puts buttons in each row (notices, edit), for operators only.
 */
export function UserPayments({
  userId,
  actions,
}: {
  userId: string;
  actions?: (position: PositionView, reload: () => void) => ReactNode;
}) {
  const list = useUserPositions(userId);
  return (
    <>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <PositionsTable
          caption="Pagamenti dell’utente"
          rows={list.items}
          emptyText={messages.payment.noPayments}
          showReconciliation
          actions={actions ? (position) => actions(position, list.reload) : undefined}
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione dei pagamenti" />
    </>
  );
}
