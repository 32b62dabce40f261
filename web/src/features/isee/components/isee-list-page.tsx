import { Card, Flex, Heading } from '@aws-amplify/ui-react';
import type { Isee } from '@domain/isee';
import { formatEuro } from '@domain/money';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { useIseesToVerify } from '../api/list-isees-to-verify';
import { formatDay } from '@/lib/dates';
import { IseeExpirySection } from './isee-expiry-section';

/** /lista_isee: ISEE uploaded and not yet validated, five per page, 'Dettaglio' opens the review. */
export function IseeListPage() {
  const list = useIseesToVerify();
  const columns: DataTableColumn<Isee>[] = [
    { id: 'citizen', header: 'Cittadino', cell: (i) => `${i.user.lastName} ${i.user.firstName}`, isRowHeader: true },
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (i) => i.user.fiscalCode, noWrap: true },
    { id: 'date', header: 'Data caricamento', cell: (i) => formatDay(i.dataInsert), noWrap: true },
    { id: 'value', header: 'Valore dichiarato', cell: (i) => formatEuro(i.value), align: 'end', noWrap: true },
    { id: 'year', header: 'Anno', cell: (i) => i.year, noWrap: true },
    { id: 'source', header: 'Fonte', cell: (i) => i.sourceLabel },
    {
      id: 'actions',
      header: 'Azioni',
      align: 'end',
      noWrap: true,
      cell: (i) => (
        <ButtonLink
          size="small"
          to={`/lista_isee/verifica_isee?idIsee=${encodeURIComponent(i.id)}`}
          aria-label={`Dettaglio ISEE di ${i.user.firstName} ${i.user.lastName}`}
        >
          Dettaglio
        </ButtonLink>
      ),
    },
  ];
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>ISEE da verificare</Heading>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="ISEE da verificare"
          columns={columns}
          rows={list.items}
          rowKey={(i) => i.id}
          emptyText="Non ci sono ISEE da verificare."
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione degli ISEE" />
      <Card variation="outlined">
        <IseeExpirySection />
      </Card>
    </Flex>
  );
}
