import { iseeStateLabel, type Isee } from '@domain/isee';
import { formatEuro } from '@domain/money';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { useMyIsees, useUserIsees } from '../api/isee';
import { formatDay } from '../utils/isee-form';
import { AttachmentIcon } from './attachment-icon';

export interface IseeTableProps {
  /** The user whose ISEE are listed (operator); without it, the signed-in citizen's own. */
  userId?: string;
  /** Where the detail links live ('/lista_utenti/dati_utente'); no links without it. */
  linkBase?: string;
  /** A delegate sees the list but cannot open the review pages. */
  disabled?: boolean;
}

/** A user's ISEE, five per page: a LOADED row opens verifica_isee, any other visualizza_isee. */
export function IseeTable(props: IseeTableProps) {
  return props.userId ? <UserIsees {...props} userId={props.userId} /> : <Table list={useMyIsees()} {...props} />;
}

function UserIsees(props: IseeTableProps & { userId: string }) {
  return <Table list={useUserIsees(props.userId)} {...props} />;
}

function Table({ list, linkBase, disabled }: IseeTableProps & { list: ReturnType<typeof useMyIsees> }) {
  const columns: DataTableColumn<Isee>[] = [
    { id: 'date', header: 'Data caricamento', cell: (i) => formatDay(i.dataInsert), noWrap: true, isRowHeader: true },
    { id: 'value', header: 'Valore', cell: (i) => formatEuro(i.value), align: 'end', noWrap: true },
    { id: 'year', header: 'Anno', cell: (i) => i.year, noWrap: true },
    { id: 'protocol', header: 'Protocollo', cell: (i) => i.protocollo ?? '—' },
    { id: 'state', header: 'Stato', cell: (i) => iseeStateLabel(i.state), noWrap: true },
    {
      id: 'file',
      header: 'Documento',
      cell: (i) => <AttachmentIcon hasFile={i.hasFile} />,
    },
  ];
  if (linkBase && !disabled) {
    columns.push({
      id: 'actions',
      header: 'Azioni',
      align: 'end',
      noWrap: true,
      cell: (i) => (
        <ButtonLink
          size="small"
          to={`${linkBase}/${i.state === 'LOADED' ? 'verifica_isee' : 'visualizza_isee'}?idIsee=${encodeURIComponent(i.id)}`}
          aria-label={`Dettaglio ISEE del ${formatDay(i.dataInsert)}`}
        >
          {i.state === 'LOADED' ? 'Verifica' : 'Dettaglio'}
        </ButtonLink>
      ),
    });
  }
  return (
    <>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable caption="ISEE caricati" columns={columns} rows={list.items} rowKey={(i) => i.id} emptyText="Non è stato caricato nessun ISEE." />
      )}
      <CursorPagination {...list.pagination} label="Paginazione degli ISEE" />
    </>
  );
}
