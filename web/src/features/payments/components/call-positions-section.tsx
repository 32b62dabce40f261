import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import { currentPeriod, monthNames, paymentBadge, type Period, type Position } from '@domain/payments';
import { formatEuroCents } from '@domain/money';
import { isOpen } from '@domain/positions/states';
import { useEffect, useRef, useState } from 'react';
import { CursorPagination, useCursorList } from '@/components/cursor-pagination';
import { DataTable } from '@/components/data-table';
import { PeriodPicker } from '@/components/period-picker';
import { PageAlert } from '@/components/page-alert';
import { getPositions } from '../api/get-positions';
import { EditPositionDialog } from './edit-position-dialog';
import { NoticeButtons } from './notice-buttons';
import { PaymentBadge } from './positions-table';
import { SyncPositionsButton } from './sync-positions-button';

/**
 * The call detail's debt positions of one month (operators): amount, description, payment badge and the
 * edit modal per row, with 'Sincronizza' for the whole call. Where the edit and 'Sincronizza' live until
 * the payment list page takes them.
 */
export interface PositionsChange {
  /** A new value for every change (a counter). */
  version: number;
  /** The month the change was made in, shown from then on; none: any month (the one shown is read again). */
  period?: Period;
}

export function CallPositionsSection({
  callId,
  readOnly,
  changed,
}: {
  callId: string;
  readOnly: boolean;
  changed?: PositionsChange;
}) {
  const [period, setPeriod] = useState<Period>(() => currentPeriod(new Date()));
  const [editing, setEditing] = useState<Position | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const list = useCursorList(['payments', 'positions', callId, period], (cursor) =>
    getPositions(callId, period, cursor ?? undefined),
  );

  // An action elsewhere on the page ('Verifica / genera CSV', 'Rendicontazione') changed positions: show them as they are now.
  const { reload } = list;
  const seen = useRef(changed?.version);
  useEffect(() => {
    if (!changed || changed.version === seen.current) return;
    seen.current = changed.version;
    const moved = changed.period && (changed.period.mese !== period.mese || changed.period.anno !== period.anno);
    if (moved) setPeriod(changed.period!);
    else reload();
  }, [changed, period, reload]);

  return (
    <section aria-labelledby="positions-title" className="call-section">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={2} id="positions-title">
          Posizioni debitorie
        </Heading>
        {!readOnly && <SyncPositionsButton callId={callId} onDone={list.reload} />}
      </Flex>
      <Flex gap="small" wrap="wrap" alignItems="flex-end">
        <PeriodPicker
          period={period}
          onChange={setPeriod}
          monthLabel="Mese delle posizioni"
          yearLabel="Anno delle posizioni"
        />
      </Flex>
      <PageAlert message={saved} variation="success" onDismiss={() => setSaved(null)} />
      <PageAlert message={list.error?.message} autoHideMs={null} isDismissible={false} />
      <DataTable
        caption={`Posizioni debitorie di ${monthNames[period.mese - 1]} ${period.anno}`}
        columns={[
          { id: 'name', header: 'Cognome e nome', cell: (p) => `${p.cognome} ${p.nome}`, isRowHeader: true },
          { id: 'cf', header: 'Codice fiscale', cell: (p) => p.fiscalCode, noWrap: true },
          {
            id: 'amount',
            header: 'Importo',
            cell: (p) => formatEuroCents(p.importoDovuto),
            align: 'end',
            noWrap: true,
          },
          { id: 'description', header: 'Descrizione', cell: (p) => p.descrizione },
          {
            id: 'state',
            header: 'Stato',
            cell: (p) => <PaymentBadge position={{ badge: paymentBadge(p) }} />,
          },
          ...(readOnly
            ? []
            : [
                {
                  id: 'actions',
                  header: 'Azioni',
                  headerHidden: true,
                  cell: (p: Position) => (
                    <Flex gap="xs" wrap="wrap" justifyContent="flex-end">
                      <Button
                        size="small"
                        isDisabled={!isOpen(p)}
                        onClick={() => setEditing(p)}
                        aria-label={`Modifica pagamento di ${p.cognome} ${p.nome}`}
                      >
                        Modifica
                      </Button>
                      <NoticeButtons position={p} onSent={() => list.reload()} />
                    </Flex>
                  ),
                },
              ]),
        ]}
        rows={list.items}
        rowKey={(p) => p.iud}
        emptyText={list.isLoaded ? 'Non ci sono pagamenti!' : 'Caricamento...'}
      />
      <CursorPagination {...list.pagination} label="Paginazione delle posizioni" />
      {editing && (
        <EditPositionDialog
          position={editing}
          onClose={() => setEditing(null)}
          onSaved={(position) => {
            setEditing(null);
            setSaved(position.annullato ? 'Posizione debitoria annullata.' : 'Pagamento modificato.');
            list.reload();
          }}
        />
      )}
    </section>
  );
}
