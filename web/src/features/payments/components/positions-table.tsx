import { Badge } from '@aws-amplify/ui-react';
import { formatEuro, toEuros } from '@domain/money';
import type { PositionView } from '@domain/position-payment';
import type { ReactNode } from 'react';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { NoticeNumber } from './notice-number';

const day = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' });
/** A due date (yyyy-MM-dd) as the citizen reads it. */
export const formatDueDate = (date: string) => day.format(new Date(`${date}T12:00:00Z`));

/** Operator-admin §4: 'Annullato', 'Pagato', 'Da pagare'. */
export function PaymentBadge({ position }: { position: Pick<PositionView, 'badge'> }) {
  const variation = position.badge === 'Pagato' ? 'success' : position.badge === 'Da pagare' ? 'warning' : undefined;
  return (
    <Badge variation={variation} className="payment-badge">
      {position.badge}
    </Badge>
  );
}

/** The notice PDF, when the export brought it back (a link of a few minutes); nothing otherwise. */
export function NoticeLink({ position }: { position: Pick<PositionView, 'noticeUrl' | 'titolo'> }) {
  if (!position.noticeUrl) return <>—</>;
  return (
    <a href={position.noticeUrl} aria-label={`Avviso PDF: ${position.titolo}`}>
      Avviso PDF
    </a>
  );
}

export interface PositionsTableProps {
  caption: string;
  rows: PositionView[];
  emptyText: string;
  /** Buttons of a row (e.g. 'Paga' for the citizen; the operators' notice and edit buttons). */
  actions?: (position: PositionView) => ReactNode;
  /** Show whose position it is (the operators' lists). */
  showPayer?: boolean;
}

/** Debt positions: period, amount, due date, notice number, badge and notice PDF, and the row's buttons. */
export function PositionsTable({ caption, rows, emptyText, actions, showPayer = false }: PositionsTableProps) {
  const columns: DataTableColumn<PositionView>[] = [
    { id: 'title', header: 'Pagamento', cell: (p) => p.titolo, isRowHeader: true },
    ...(showPayer ? [{ id: 'payer', header: 'Intestatario', cell: (p: PositionView) => `${p.cognome} ${p.nome}` }] : []),
    { id: 'amount', header: 'Importo', cell: (p) => formatEuro(toEuros(p.importoDovuto)), align: 'end', noWrap: true },
    { id: 'due', header: 'Scadenza', cell: (p) => formatDueDate(p.dataScadenza), noWrap: true },
    { id: 'nav', header: 'Numero avviso', cell: (p) => <NoticeNumber nav={p.nav} />, noWrap: true },
    { id: 'state', header: 'Stato', cell: (p) => <PaymentBadge position={p} />, noWrap: true },
    { id: 'notice', header: 'Avviso', cell: (p) => <NoticeLink position={p} />, noWrap: true },
    ...(actions ? [{ id: 'actions', header: 'Azioni', headerHidden: true, cell: actions, noWrap: true }] : []),
  ];
  return <DataTable caption={caption} columns={columns} rows={rows} rowKey={(p) => p.iud} emptyText={emptyText} />;
}
