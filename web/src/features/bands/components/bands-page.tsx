import { Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { bandLabel, type Band } from '@domain/bands';
import { formatEuro } from '@domain/money';
import type { DataTableColumn } from '@/components/data-table';
import { ListPage, rowActionsColumn } from '@/components/list-page';
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
    rowActionsColumn((band) => ({
      detailTo: `${paths.editBand}?range=${encodeURIComponent(band.id)}`,
      detailLabel: `Dettaglio fascia ${band.name}`,
      deleteLabel: `Elimina fascia ${band.name}`,
      onDelete: () => deletion.ask(band),
    })),
  ];

  return (
    <ListPage
      title="Fasce ISEE"
      newItem={{ to: paths.newBand, label: 'Nuova Fascia' }}
      list={bands}
      deletion={deletion}
      table={{ caption: 'Elenco delle fasce ISEE', columns, emptyText: 'Non sono presenti range' }}
      paginationLabel="Paginazione delle fasce ISEE"
      deleteDialog={(band) => ({
        title: 'Rimozione Fascia ISEE',
        message: (
          <>
            <Text>Confermi di voler rimuovere la fascia ISEE selezionata?</Text>
            <Text fontWeight="bold">{bandLabel(band)}</Text>
          </>
        ),
      })}
    />
  );
}
