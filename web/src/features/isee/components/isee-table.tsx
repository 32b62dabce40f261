import { Button, Heading, Text } from '@aws-amplify/ui-react';
import { iseeStateLabel, type Isee } from '@domain/isee';
import { formatEuro } from '@domain/money';
import { useState, type ReactNode } from 'react';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { rowActionsColumn } from '@/components/list-page';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { useConfirmedDelete } from '@/components/use-confirmed-delete';
import { useDeleteIsee } from '../api/delete-isee';
import { useMyIsees } from '../api/list-my-isees';
import { useUserIsees } from '../api/list-user-isees';
import { formatDay } from '@/lib/dates';
import { deleteIseeQuestion } from '../utils/isee-form';
import { AttachmentIcon } from '@/components/attachment-icon';
import { IseeDocumentDialog } from './isee-document-dialog';

export interface IseeTableProps {
  /** The card's title ('ISEE', 'ISEE caricati'); it takes the focus after a delete (the row is gone). */
  title: string;
  /** The user whose ISEE are listed (operator's record); without it, the signed-in citizen's own. */
  userId?: string;
  /** Where the detail links live ('/lista_utenti/dati_utente'); no links without it. */
  linkBase?: string;
  /** A delegate sees the list, cannot open the review pages and finds 'Elimina' disabled. */
  disabled?: boolean;
  /** After a delete (operator's record): the user's summary (state, last ISEE) follows. */
  onDeleted?: () => void;
}

/**
 * A user's ISEE, five per page. On the operator's record a LOADED row opens verifica_isee, any other
 * visualizza_isee, and 'Elimina' asks 'Rimozione ISEE' first; the citizen opens their own documents.
 */
export function IseeTable(props: IseeTableProps) {
  return props.userId ? <UserIsees {...props} userId={props.userId} /> : <MyIsees title={props.title} />;
}

const baseColumns = (documentCell: (i: Isee) => ReactNode): DataTableColumn<Isee>[] => [
  { id: 'date', header: 'Data caricamento', cell: (i) => formatDay(i.dataInsert), noWrap: true, isRowHeader: true },
  { id: 'value', header: 'Valore', cell: (i) => formatEuro(i.value), align: 'end', noWrap: true },
  { id: 'year', header: 'Anno', cell: (i) => i.year, noWrap: true },
  { id: 'protocol', header: 'Protocollo', cell: (i) => i.protocollo ?? '—' },
  { id: 'state', header: 'Stato', cell: (i) => iseeStateLabel(i.state), noWrap: true },
  { id: 'source', header: 'Fonte', cell: (i) => i.sourceLabel },
  { id: 'file', header: 'Documento', cell: documentCell },
];

/** The operator's (or delegate's) view of a user's ISEE, with the confirmed delete. */
function UserIsees({ title, userId, linkBase, disabled = false, onDeleted }: IseeTableProps & { userId: string }) {
  const list = useUserIsees(userId);
  const deletion = useConfirmedDelete<Isee>(useDeleteIsee(), 'L’ISEE è stato rimosso.', () => {
    list.reload();
    onDeleted?.();
  });
  const columns = baseColumns((i) => <AttachmentIcon hasFile={i.hasFile} />);
  const rowName = (i: Isee) => `ISEE ${i.year} di ${formatEuro(i.value)} del ${formatDay(i.dataInsert)}`;
  columns.push(
    rowActionsColumn((i) => ({
      ...(linkBase && !disabled
        ? {
            detailTo: `${linkBase}/${i.state === 'LOADED' ? 'verifica_isee' : 'visualizza_isee'}?idIsee=${encodeURIComponent(i.id)}`,
            detailLabel: `${i.state === 'LOADED' ? 'Verifica' : 'Dettaglio'} ${rowName(i)}`,
            detailText: i.state === 'LOADED' ? 'Verifica' : 'Dettaglio',
          }
        : {}),
      deleteLabel: `Elimina ${rowName(i)}`,
      deleteDisabled: disabled,
      onDelete: () => deletion.ask(i),
    })),
  );
  return (
    <>
      <Heading level={2} marginBottom="small" ref={deletion.heading} tabIndex={-1}>
        {title}
      </Heading>
      <PageAlert key={deletion.flash.key} {...deletion.flash.props} />
      <Table list={list} columns={columns} />
      <ConfirmDialog
        open={deletion.toDelete !== null}
        title="Rimozione ISEE"
        message={deletion.toDelete ? <Text>{deleteIseeQuestion(deletion.toDelete)}</Text> : null}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}

/** The citizen's own ISEE: a document they uploaded opens in the page. */
function MyIsees({ title }: { title: string }) {
  const list = useMyIsees();
  const [open, setOpen] = useState<Isee | null>(null);
  const columns = baseColumns((i) =>
    i.hasFile ? (
      <Button
        size="small"
        onClick={() => setOpen(i)}
        aria-label={`Visualizza documento dell'ISEE ${i.year} di ${formatEuro(i.value)} del ${formatDay(i.dataInsert)}`}
      >
        Visualizza documento
      </Button>
    ) : (
      <AttachmentIcon hasFile={false} />
    ),
  );
  return (
    <>
      <Heading level={2} marginBottom="small">
        {title}
      </Heading>
      <Table list={list} columns={columns} />
      <IseeDocumentDialog isee={open} onClose={() => setOpen(null)} />
    </>
  );
}

function Table({ list, columns }: { list: ReturnType<typeof useMyIsees>; columns: DataTableColumn<Isee>[] }) {
  return (
    <>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="ISEE caricati"
          columns={columns}
          rows={list.items}
          rowKey={(i) => i.id}
          emptyText="Non è stato caricato nessun ISEE."
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione degli ISEE" />
    </>
  );
}
