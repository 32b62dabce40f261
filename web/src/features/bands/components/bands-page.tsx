import { Button, Flex, Heading, Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { bandLabel, type Band } from '@domain/bands';
import { formatEuro } from '@domain/money';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { useConfirmedDelete } from '@/components/use-confirmed-delete';
import { paths } from '@/config/paths';
import { useDeleteBand } from '../api/delete-band';
import { useBands } from '../api/get-bands';

const percentFormat = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });

/** '50%', '12,5%', or a dash (read as 'nessuna') when the band has no percentage. */
function PercentCell({ percent }: { percent: number | null }) {
  if (percent === null) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <VisuallyHidden>nessuna</VisuallyHidden>
      </>
    );
  }
  return <>{percentFormat.format(percent)}%</>;
}

/** /fasce: the ISEE bands, twenty per page, with detail and delete. */
export function BandsPage() {
  const bands = useBands();
  const deletion = useConfirmedDelete<Band>(useDeleteBand(), 'La fascia ISEE è stata rimossa.', bands.reload);

  const columns: DataTableColumn<Band>[] = [
    { id: 'name', header: 'Nome', cell: (band) => band.name, isRowHeader: true },
    { id: 'min', header: 'Da', cell: (band) => formatEuro(band.min), align: 'end', noWrap: true },
    { id: 'max', header: 'A', cell: (band) => formatEuro(band.max), align: 'end', noWrap: true },
    { id: 'percent', header: '%', cell: (band) => <PercentCell percent={band.percent} />, align: 'end', noWrap: true },
    { id: 'fixedCost', header: 'Quota', cell: (band) => formatEuro(band.fixedCost), align: 'end', noWrap: true },
    {
      id: 'actions',
      header: 'Azioni',
      cell: (band) => (
        <Flex gap="xs" justifyContent="flex-end">
          <ButtonLink to={`${paths.editBand}?range=${encodeURIComponent(band.id)}`} size="small" aria-label={`Dettaglio fascia ${band.name}`}>
            Dettaglio
          </ButtonLink>
          <Button size="small" colorTheme="error" aria-label={`Elimina fascia ${band.name}`} onClick={() => deletion.ask(band)}>
            Elimina
          </Button>
        </Flex>
      ),
      align: 'end',
      noWrap: true,
    },
  ];

  return (
    <Flex direction="column" gap="medium">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1} ref={deletion.heading} tabIndex={-1}>
          Fasce ISEE
        </Heading>
        <ButtonLink to={paths.newBand} variation="primary">
          Nuova Fascia
        </ButtonLink>
      </Flex>
      <PageAlert key={deletion.flash.key} {...deletion.flash.props} />
      {bands.error ? (
        <ErrorState message={bands.error.message} />
      ) : !bands.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable caption="Elenco delle fasce ISEE" columns={columns} rows={bands.items} rowKey={(band) => band.id} emptyText="Non sono presenti range" />
      )}
      <CursorPagination {...bands.pagination} label="Paginazione delle fasce ISEE" />
      <ConfirmDialog
        open={deletion.toDelete !== null}
        title="Rimozione Fascia ISEE"
        message={
          <>
            <Text>Confermi di voler rimuovere la fascia ISEE selezionata?</Text>
            {deletion.toDelete && <Text fontWeight="bold">{bandLabel(deletion.toDelete)}</Text>}
          </>
        }
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </Flex>
  );
}
