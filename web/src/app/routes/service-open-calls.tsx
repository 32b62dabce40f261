import { Heading, Flex, Text } from '@aws-amplify/ui-react';
import { messages } from '@domain/messages';
import { useSearchParams } from 'react-router';
import { CursorPagination } from '@/components/cursor-pagination';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { paths } from '@/config/paths';
import { CallCards, useServiceOpenCalls } from '@/features/calls';
import { useService } from '@/features/services';

/** /sessione_servizi?id={serviceId}: the service's open calls, 6 per page. */
export function ServiceOpenCallsPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const service = useService(id || null);
  const calls = useServiceOpenCalls(id);

  if (!id || service.error)
    return (
      <ErrorState
        message={service.error?.message ?? messages.service.notFound}
        backTo={paths.home}
        backLabel="Torna alla home"
      />
    );
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>{service.data?.name ?? 'Bandi del servizio'}</Heading>
      {service.data && <Text>{service.data.description}</Text>}
      <Heading level={2}>Bandi aperti</Heading>
      {calls.error ? (
        <ErrorState message={calls.error.message} />
      ) : !calls.isLoaded ? (
        <LoadingState />
      ) : calls.items.length === 0 ? (
        <Text>Al momento non ci sono bandi aperti per questo servizio.</Text>
      ) : (
        <CallCards calls={calls.items} />
      )}
      <CursorPagination {...calls.pagination} label="Paginazione dei bandi aperti" />
    </Flex>
  );
}
