import { Flex, Heading } from '@aws-amplify/ui-react';
import { useId } from 'react';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { paths } from '@/config/paths';
import { useServiceCalls } from '../api/get-service-calls';
import { callColumns } from './calls-page';

/** The calls of a service, under its detail page, with the button to a new call for that service. */
export function ServiceCallsList({ serviceId, serviceName }: { serviceId: string; serviceName: string }) {
  const headingId = useId();
  const calls = useServiceCalls(serviceId);
  const columns = callColumns(paths.serviceCallDetail, false);
  return (
    <Flex as="section" aria-labelledby={headingId} direction="column" gap="small" marginBlockStart="large">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={2} id={headingId}>
          Bandi del servizio
        </Heading>
        <ButtonLink
          to={`${paths.serviceNewCall}?id=${encodeURIComponent(serviceId)}&name=${encodeURIComponent(serviceName)}`}
          variation="primary"
        >
          Nuovo bando
        </ButtonLink>
      </Flex>
      {calls.error ? (
        <ErrorState message={calls.error.message} />
      ) : !calls.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption={`Bandi del servizio ${serviceName}`}
          columns={columns}
          rows={calls.items}
          rowKey={(call) => call.id}
          emptyText="Nessun bando disponibile per questo servizio."
        />
      )}
      <CursorPagination {...calls.pagination} label="Paginazione dei bandi del servizio" />
    </Flex>
  );
}
