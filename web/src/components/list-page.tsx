import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import type { To } from 'react-router';
import { ButtonLink } from './button-link';
import { CursorPagination, type CursorList } from './cursor-pagination';
import { DataTable, type DataTableColumn, type DataTableProps } from './data-table';
import { ConfirmDialog } from './dialog';
import { ErrorState } from './error-state';
import { LoadingState } from './loading-state';
import { PageAlert } from './page-alert';
import type { ConfirmedDelete } from './use-confirmed-delete';

export interface ListPageProps<T extends { id: string }> {
  /** The page title, e.g. 'Fasce ISEE'. It takes the focus after a delete (the row is gone). */
  title: string;
  /** The button to the new-item page, e.g. 'Nuova Fascia'; none for who cannot create. */
  newItem?: { to: To; label: string };
  /** A search form above the table (users). */
  filters?: ReactNode;
  /** The page of items and its pagination (`useCursorList`). */
  list: CursorList<T>;
  /** The confirmed delete (`useConfirmedDelete`): its outcome shows above the table. */
  deletion: ConfirmedDelete<T>;
  /** The table without its rows: caption, columns, empty text ('Non sono presenti range'), row tint. */
  table: Omit<DataTableProps<T>, 'rows' | 'rowKey'>;
  /** Accessible name of the pagination, e.g. 'Paginazione delle fasce ISEE'. */
  paginationLabel: string;
  /** The delete dialog for an item, e.g. 'Rimozione Fascia ISEE' and its question. */
  deleteDialog: (item: T) => { title: string; message: ReactNode };
}

/**
 * A list page: title and the new-item button, optional filters, the outcome of the last delete, the table
 * (or the spinner, or the error), the cursor pagination and the delete confirmation.
 */
export function ListPage<T extends { id: string }>({
  title,
  newItem,
  filters,
  list,
  deletion,
  table,
  paginationLabel,
  deleteDialog,
}: ListPageProps<T>) {
  const dialog = deletion.toDelete ? deleteDialog(deletion.toDelete) : null;
  return (
    <Flex direction="column" gap="medium">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1} ref={deletion.heading} tabIndex={-1}>
          {title}
        </Heading>
        {newItem && (
          <ButtonLink to={newItem.to} variation="primary">
            {newItem.label}
          </ButtonLink>
        )}
      </Flex>
      {filters}
      <PageAlert key={deletion.flash.key} {...deletion.flash.props} />
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable {...table} rows={list.items} rowKey={(item) => item.id} />
      )}
      <CursorPagination {...list.pagination} label={paginationLabel} />
      <ConfirmDialog
        open={dialog !== null}
        title={dialog?.title ?? ''}
        message={dialog?.message}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </Flex>
  );
}

export interface RowActionsProps {
  /** The item's page ('Dettaglio'); no link without it (e.g. a delegate, who cannot open it). */
  detailTo?: To;
  /** Names the item for screen readers, e.g. 'Dettaglio fascia Fascia 1'. */
  detailLabel?: string;
  /** The link's text, 'Dettaglio' by default (e.g. 'Verifica' for an ISEE waiting for review). */
  detailText?: string;
  /** E.g. 'Elimina fascia Fascia 1'. */
  deleteLabel: string;
  onDelete: () => void;
  /** 'Elimina' shown but not usable (a delegate). */
  deleteDisabled?: boolean;
  /** Why this item cannot be deleted: 'Elimina' is disabled and says why in a tooltip, to the keyboard too. */
  deleteBlockedReason?: string;
}

/** A row's 'Dettaglio' link and 'Elimina' button. */
export function RowActions({
  detailTo,
  detailLabel,
  detailText = 'Dettaglio',
  deleteLabel,
  onDelete,
  deleteDisabled = false,
  deleteBlockedReason,
}: RowActionsProps) {
  return (
    <Flex gap="xs" justifyContent="flex-end">
      {detailTo !== undefined && (
        <ButtonLink to={detailTo} size="small" aria-label={detailLabel}>
          {detailText}
        </ButtonLink>
      )}
      {deleteBlockedReason ? (
        // A disabled button cannot show a tooltip to the keyboard: the wrapper takes the focus and the title.
        <span
          className="tooltip-wrapper"
          role="button"
          aria-disabled="true"
          tabIndex={0}
          title={deleteBlockedReason}
          aria-label={`${deleteLabel}: ${deleteBlockedReason.charAt(0).toLowerCase()}${deleteBlockedReason.slice(1)}`}
        >
          <Button size="small" colorTheme="error" isDisabled tabIndex={-1} aria-hidden="true">
            Elimina
          </Button>
        </span>
      ) : (
        <Button size="small" colorTheme="error" isDisabled={deleteDisabled} aria-label={deleteLabel} onClick={onDelete}>
          Elimina
        </Button>
      )}
    </Flex>
  );
}

/** The last column of a list: the row's actions, right-aligned on one line. */
export function rowActionsColumn<T>(actions: (row: T) => RowActionsProps): DataTableColumn<T> {
  return {
    id: 'actions',
    header: 'Azioni',
    cell: (row) => <RowActions {...actions(row)} />,
    align: 'end',
    noWrap: true,
  };
}
