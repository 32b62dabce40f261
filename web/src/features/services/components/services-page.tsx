import { Text } from '@aws-amplify/ui-react';
import type { Service } from '@domain/services';
import type { DataTableColumn } from '@/components/data-table';
import { ListPage, rowActionsColumn } from '@/components/list-page';
import { useConfirmedDelete } from '@/components/use-confirmed-delete';
import { paths } from '@/config/paths';
import { useDeleteService } from '../api/delete-service';
import { useServices } from '../api/use-services';

/** Long descriptions are cut in the table; the detail page shows them whole. */
const DESCRIPTION_PREVIEW = 160;
const preview = (text: string) =>
  text.length > DESCRIPTION_PREVIEW ? `${text.slice(0, DESCRIPTION_PREVIEW).trimEnd()}…` : text;

/** /servizi: the services, twenty per page, with detail and delete. */
export function ServicesPage() {
  const services = useServices();
  const deletion = useConfirmedDelete<Service>(useDeleteService(), 'Il servizio è stato eliminato.', services.reload);

  const columns: DataTableColumn<Service>[] = [
    { id: 'code', header: 'Codice', cell: (service) => service.code, noWrap: true },
    { id: 'name', header: 'Titolo', cell: (service) => service.name, isRowHeader: true },
    { id: 'description', header: 'Descrizione', cell: (service) => preview(service.description) },
    rowActionsColumn((service) => ({
      detailTo: `${paths.serviceDetail}?id=${encodeURIComponent(service.id)}`,
      detailLabel: `Dettaglio servizio ${service.name}`,
      deleteLabel: `Elimina servizio ${service.name}`,
      onDelete: () => deletion.ask(service),
    })),
  ];

  return (
    <ListPage
      title="Servizi"
      newItem={{ to: paths.newService, label: 'Nuovo servizio' }}
      list={services}
      deletion={deletion}
      table={{ caption: 'Elenco dei servizi', columns, emptyText: 'Non sono presenti servizi' }}
      paginationLabel="Paginazione dei servizi"
      deleteDialog={(service) => ({
        title: 'Elimina Servizio',
        message: (
          <>
            <Text>
              Confermi di voler eliminare il servizio? L'operazione è possibile solo se non sono presenti bandi
              associati.
            </Text>
            <Text fontWeight="bold">{service.name}</Text>
          </>
        ),
      })}
    />
  );
}
