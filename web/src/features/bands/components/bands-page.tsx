import { Button, Flex, Heading, Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { bandLabel, type Band } from '@domain/bands';
import { formatEuro } from '@domain/money';
import { useRef, useState } from 'react';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
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
  const remove = useDeleteBand();
  const flash = useFlashMessage();
  const [toDelete, setToDelete] = useState<Band | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const confirmDelete = async () => {
    if (!toDelete) return;
    const result = await remove.run(toDelete.id);
    setToDelete(null);
    if (result.ok) {
      flash.show('La fascia ISEE è stata rimossa.', 'success');
      bands.reload();
      // The row and its button are gone: the page title takes the focus.
      requestAnimationFrame(() => heading.current?.focus());
    } else {
      // 409: 'La fascia ISEE selezionata è inclusa in un bando in corso.' (spec part 1 §8, 4 seconds).
      flash.show(result.error.message, 'error');
    }
  };

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
          <Button size="small" colorTheme="error" aria-label={`Elimina fascia ${band.name}`} onClick={() => setToDelete(band)}>
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
        <Heading level={1} ref={heading} tabIndex={-1}>
          Fasce ISEE
        </Heading>
        <ButtonLink to={paths.newBand} variation="primary">
          Nuova Fascia
        </ButtonLink>
      </Flex>
      <PageAlert key={flash.key} {...flash.props} />
      {bands.error ? (
        <ErrorState message={bands.error.message} />
      ) : !bands.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable caption="Elenco delle fasce ISEE" columns={columns} rows={bands.items} rowKey={(band) => band.id} emptyText="Non sono presenti range" />
      )}
      <CursorPagination {...bands.pagination} label="Paginazione delle fasce ISEE" />
      <ConfirmDialog
        open={toDelete !== null}
        title="Rimozione Fascia ISEE"
        message={
          <>
            <Text>Confermi di voler rimuovere la fascia ISEE selezionata?</Text>
            {toDelete && <Text fontWeight="bold">{bandLabel(toDelete)}</Text>}
          </>
        }
        busy={remove.isRunning}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </Flex>
  );
}
