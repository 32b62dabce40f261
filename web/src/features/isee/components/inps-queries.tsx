import { Heading, Text } from '@aws-amplify/ui-react';
import type { InpsQuery } from '@domain/inps';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { useMyInpsQueries, useUserInpsQueries } from '../api/inps';
import { formatDateTime } from '@/lib/dates';

/** On the citizen's profile: when the council asked INPS about them, why, and how it ended. */
export function MyInpsQueries() {
  const list = useMyInpsQueries();
  type Row = (typeof list.items)[number];
  const columns: DataTableColumn<Row>[] = [
    { id: 'at', header: 'Data', cell: (q) => formatDateTime(q.at), noWrap: true, isRowHeader: true },
    { id: 'reason', header: 'Motivo', cell: (q) => q.reasonLabel },
    { id: 'result', header: 'Esito', cell: (q) => q.resultLabel },
    { id: 'id', header: 'Identificativo INPS', cell: (q) => q.idRichiesta ?? '—', noWrap: true },
  ];
  return (
    <>
      <Heading level={2} marginBottom="small">
        Richieste del Comune all’INPS
      </Heading>
      <Text marginBottom="small">
        Ogni volta che il Comune chiede il tuo ISEE all’INPS, tramite la Piattaforma Digitale Nazionale Dati, la
        richiesta è registrata qui.
      </Text>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="Richieste del Comune all’INPS"
          columns={columns}
          rows={list.items}
          rowKey={(q) => q.id}
          emptyText="Il Comune non ha mai chiesto il tuo ISEE all’INPS."
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione delle richieste all’INPS" />
    </>
  );
}

/** On the user record (operators): every query about the citizen, with what reference.md says to record. */
export function UserInpsQueries({ userId, reloadKey }: { userId: string; reloadKey?: string }) {
  const list = useUserInpsQueries(userId, reloadKey);
  const columns: DataTableColumn<InpsQuery>[] = [
    { id: 'at', header: 'Data', cell: (q) => formatDateTime(q.at), noWrap: true, isRowHeader: true },
    { id: 'reason', header: 'Motivo', cell: (q) => q.reasonLabel },
    {
      id: 'who',
      header: 'Richiesta da',
      cell: (q) => `${q.who.fullName} (${q.who.role === 'CITIZEN' ? 'cittadino' : 'operatore'})`,
    },
    { id: 'result', header: 'Esito INPS', cell: (q) => `${q.resultLabel} (${q.esito})` },
    { id: 'id', header: 'IdRichiesta', cell: (q) => q.idRichiesta ?? '—', noWrap: true },
    { id: 'service', header: 'Servizio', cell: (q) => q.operation },
    { id: 'benefit', header: 'Prestazione', cell: (q) => `${q.benefitCode} · ${q.applicationState}`, noWrap: true },
    { id: 'application', header: 'Numero domanda', cell: (q) => q.applicationNumber },
    { id: 'purpose', header: 'Finalità PDND', cell: (q) => q.purposeId || '—' },
    { id: 'voucher', header: 'Voucher (jti)', cell: (q) => q.voucherJti ?? '—' },
  ];
  return (
    <>
      <Heading level={2} marginBottom="small">
        Interrogazioni INPS
      </Heading>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="Interrogazioni INPS"
          columns={columns}
          rows={list.items}
          rowKey={(q) => q.id}
          emptyText="Nessuna interrogazione INPS per questo utente."
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione delle interrogazioni INPS" />
    </>
  );
}
