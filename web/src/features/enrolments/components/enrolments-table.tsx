import { VisuallyHidden } from '@aws-amplify/ui-react';
import { subscriptionOperatorLabels, type SubscriptionState } from '@domain/subscriptions';
import type { ReactNode } from 'react';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import type { EnrolmentRow, EnrolmentSort } from '../api/types';
import {
  EMPTY_TABLE,
  formatFee,
  formatIsee,
  hoursHeader,
  iseeYearHint,
  NO_BAND_TEXT,
  sortDirection,
  toggleSort,
} from '../utils/enrolment-format';
import { formatHours } from '@domain/fee';

const stateIcons: Record<SubscriptionState, string> = { ADDED: '○', VALIDATED: '✓', SUSPENDED: '‖', REFUSED: '✗' };

function StateIcon({ state }: { state: SubscriptionState }) {
  const label = subscriptionOperatorLabels[state];
  return (
    <span className={`enrolment-state enrolment-state--${state.toLowerCase()}`} title={label}>
      <span aria-hidden="true">{stateIcons[state]}</span>
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}

export interface EnrolmentsTableProps {
  rows: EnrolmentRow[];
  serviceName: string;
  sort: EnrolmentSort;
  onSort: (sort: EnrolmentSort) => void;
  /** The row's buttons; none for a delegate (no 'Azioni' column). */
  actions?: (row: EnrolmentRow) => ReactNode;
}

/**
 * The table of 'Iscritti al bando' (spec part 2 §2.11): ranking and ISEE sortable, hours (or rides), the
 * month's cost or why there is none, the state as an icon, and the row's buttons. A row whose latest ISEE
 * is not of the call's year has a red border and says why.
 */
export function EnrolmentsTable({ rows, serviceName, sort, onSort, actions }: EnrolmentsTableProps) {
  const columns: DataTableColumn<EnrolmentRow>[] = [
    {
      id: 'ranking',
      header: 'Graduatoria',
      cell: (r) => (r.rankingScore === null ? '—' : String(r.rankingScore)),
      align: 'end',
      sort: { direction: sortDirection(sort, 'ranking'), onToggle: () => onSort(toggleSort(sort, 'ranking')) },
    },
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.fiscalCode, isRowHeader: true, noWrap: true },
    { id: 'firstName', header: 'Nome', cell: (r) => r.firstName },
    { id: 'lastName', header: 'Cognome', cell: (r) => r.lastName },
    {
      id: 'isee',
      header: 'ISEE',
      noWrap: true,
      sort: { direction: sortDirection(sort, 'isee'), onToggle: () => onSort(toggleSort(sort, 'isee')) },
      cell: (r) => (
        <>
          {formatIsee(r.isee)}
          {r.iseeYearMismatch && (
            <span className="isee-mismatch" title={iseeYearHint(r.isee)}>
              {' '}
              <span aria-hidden="true">⚠</span>
              <VisuallyHidden>{iseeYearHint(r.isee)}</VisuallyHidden>
            </span>
          )}
        </>
      ),
    },
    { id: 'hours', header: hoursHeader(serviceName), cell: (r) => formatHours(r.weeklyHour), align: 'end' },
    {
      id: 'cost',
      header: 'Costo',
      noWrap: true,
      align: 'end',
      cell: (r) =>
        r.fee?.kind === 'NO_BAND' ? (
          <span className="fee-warning" title="Correggi le fasce ISEE del bando">
            {NO_BAND_TEXT}
            <VisuallyHidden>: correggi le fasce ISEE del bando</VisuallyHidden>
          </span>
        ) : (
          formatFee(r.fee, r.isee)
        ),
    },
    { id: 'state', header: 'Stato', cell: (r) => <StateIcon state={r.state} /> },
  ];
  if (actions) columns.push({ id: 'actions', header: 'Azioni', cell: actions, align: 'end' });

  return (
    <DataTable
      caption="Utenti iscritti al bando"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      emptyText={EMPTY_TABLE}
      rowClassName={(r) => (r.iseeYearMismatch ? 'row--isee-mismatch' : undefined)}
    />
  );
}
