import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import type { Service } from '@domain/services';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { useConfirmedDelete } from '@/components/use-confirmed-delete';
import { paths } from '@/config/paths';
import { useDeleteService } from '../api/delete-service';
import { useServices } from '../api/get-services';

/** Long descriptions are cut in the table; the detail page shows them whole. */
const DESCRIPTION_PREVIEW = 160;
const preview = (text: string) => (text.length > DESCRIPTION_PREVIEW ? `${text.slice(0, DESCRIPTION_PREVIEW).trimEnd()}…` : text);

/** /servizi: the services, twenty per page, with detail and delete. */
export function ServicesPage() {
  const services = useServices();
  const deletion = useConfirmedDelete<Service>(useDeleteService(), 'Il servizio è stato eliminato.', services.reload);

  const columns: DataTableColumn<Service>[] = [
    { id: 'code', header: 'Codice', cell: (service) => service.code, noWrap: true },
    { id: 'name', header: 'Titolo', cell: (service) => service.name, isRowHeader: true },
    { id: 'description', header: 'Descrizione', cell: (service) => preview(service.description) },
    {
      id: 'actions',
      header: 'Azioni',
      cell: (service) => (
        <Flex gap="xs" justifyContent="flex-end">
          <ButtonLink to={`${paths.serviceDetail}?id=${encodeURIComponent(service.id)}`} size="small" aria-label={`Dettaglio servizio ${service.name}`}>
            Dettaglio
          </ButtonLink>
          <Button size="small" colorTheme="error" aria-label={`Elimina servizio ${service.name}`} onClick={() => deletion.ask(service)}>
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
          Servizi
        </Heading>
        <ButtonLink to={paths.newService} variation="primary">
          Nuovo servizio
        </ButtonLink>
      </Flex>
      <PageAlert key={deletion.flash.key} {...deletion.flash.props} />
      {services.error ? (
        <ErrorState message={services.error.message} />
      ) : !services.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable caption="Elenco dei servizi" columns={columns} rows={services.items} rowKey={(service) => service.id} emptyText="Non sono presenti servizi" />
      )}
      <CursorPagination {...services.pagination} label="Paginazione dei servizi" />
      <ConfirmDialog
        open={deletion.toDelete !== null}
        title="Elimina Servizio"
        message={
          <>
            <Text>Confermi di voler eliminare il servizio? L'operazione è possibile solo se non sono presenti bandi associati.</Text>
            {deletion.toDelete && <Text fontWeight="bold">{deletion.toDelete.name}</Text>}
          </>
        }
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </Flex>
  );
}
