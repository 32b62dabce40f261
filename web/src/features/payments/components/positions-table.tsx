import { Badge, Button, Flex, type BadgeProps } from '@aws-amplify/ui-react';
import { formatEuroCents } from '@domain/money';
import {
  RECONCILE_LABEL,
  RECONCILED_LABEL,
  reconciliationTexts,
  type PaymentBadge as PaymentBadgeLabel,
} from '@domain/payments';
import type { PositionView } from '@domain/position-payment';
import { useState, type ReactNode } from 'react';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { NoticeNumber } from './notice-number';
import { formatDateTime, formatDay } from '@/lib/dates';
import { errorMessage } from '@/lib/api';
import { getNoticeLink } from '../api/notice-link';

/** The one colour of each payment badge, wherever a position is listed. */
const badgeVariation: Record<PaymentBadgeLabel, BadgeProps['variation']> = {
  Pagato: 'success',
  'Da pagare': 'warning',
  Annullato: undefined,
};

/**
 * Operator-admin §4: 'Annullato', 'Pagato', 'Da pagare'; 'Pagamento in corso' while a checkout holds it.
 * `reconciliation` (operators): 'Pagamento da riconciliare' with its reason and difference, or 'Pagamento
 * riconciliato' with who closed it, when and the note (issue 21).
 */
export function PaymentBadge({
  position,
  reconciliation = false,
}: {
  position: Pick<PositionView, 'badge'> &
    Partial<Pick<PositionView, 'inCorso' | 'riconciliazione' | 'riconciliazioneChiusa'>>;
  reconciliation?: boolean;
}) {
  const variation = badgeVariation[position.badge];
  const toReconcile = reconciliation ? position.riconciliazione : null;
  const closed = reconciliation ? position.riconciliazioneChiusa : null;
  return (
    <Flex direction="column" gap="xxs" alignItems="flex-start">
      <Badge variation={variation} className="payment-badge">
        {position.badge}
      </Badge>
      {position.inCorso && position.badge === 'Da pagare' && (
        <Badge variation="info" className="payment-badge">
          Pagamento in corso
        </Badge>
      )}
      {toReconcile && (
        <>
          <Badge variation="error" className="payment-badge" data-testid="reconcile-badge">
            {RECONCILE_LABEL}
          </Badge>
          <span className="reconcile-note">
            {reconciliationTexts[toReconcile.motivo]}: differenza {formatEuroCents(toReconcile.differenza)}
          </span>
        </>
      )}
      {closed && !toReconcile && (
        <>
          <Badge className="payment-badge" data-testid="reconciled-badge">
            {RECONCILED_LABEL}
          </Badge>
          <span className="reconcile-note">
            {reconciliationTexts[closed.motivo]}, differenza {formatEuroCents(closed.differenza)}: riconciliato da{' '}
            {closed.chiusaDa} il {formatDateTime(closed.chiusaIl)}. Nota: {closed.nota}
          </span>
        </>
      )}
    </Flex>
  );
}

/** What was paid (the amount MyPay collected), or '—' while nothing was. */
export const paidAmount = (p: Pick<PositionView, 'isPagato' | 'importoTotalePagato'>) =>
  p.isPagato && p.importoTotalePagato > 0 ? formatEuroCents(p.importoTotalePagato) : '—';

/** The browser downloads the notice from the API's short-lived link (an attachment named avviso-<numero>.pdf). */
const download = (url: string) => window.location.assign(url);

/**
 * The notice PDF: a link of a few minutes when the export brought it back (MyPay), or (pagoPA GPD) the same words
 * asking the API for the notice the portal prints; nothing otherwise. A refusal is shown beside it, in the API's words.
 */
export function NoticeLink({
  position,
}: {
  position: Pick<PositionView, 'iud' | 'noticeUrl' | 'noticeDownload' | 'titolo'>;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = `Avviso PDF: ${position.titolo}`;
  if (position.noticeUrl)
    return (
      <a href={position.noticeUrl} aria-label={label}>
        Avviso PDF
      </a>
    );
  if (!position.noticeDownload) return <>—</>;
  const open = async () => {
    setBusy(true);
    setFailure(null);
    try {
      download((await getNoticeLink(position.iud)).url);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex direction="column" gap="xxs" alignItems="flex-start">
      <Button size="small" variation="link" aria-label={label} isDisabled={busy} onClick={() => void open()}>
        Avviso PDF
      </Button>
      {failure && (
        <span role="alert" className="notice-link__error">
          {failure}
        </span>
      )}
    </Flex>
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
  /** Show 'Pagamento da riconciliare' (the operators' lists). */
  showReconciliation?: boolean;
}

/** Debt positions: period, amount, due date, notice number, badge and notice PDF, and the row's buttons. */
export function PositionsTable({
  caption,
  rows,
  emptyText,
  actions,
  showPayer = false,
  showReconciliation = false,
}: PositionsTableProps) {
  const columns: DataTableColumn<PositionView>[] = [
    { id: 'title', header: 'Pagamento', cell: (p) => p.titolo, isRowHeader: true },
    ...(showPayer
      ? [{ id: 'payer', header: 'Intestatario', cell: (p: PositionView) => `${p.cognome} ${p.nome}` }]
      : []),
    { id: 'amount', header: 'Importo', cell: (p) => formatEuroCents(p.importoDovuto), align: 'end', noWrap: true },
    { id: 'paid', header: 'Importo pagato', cell: paidAmount, align: 'end', noWrap: true },
    { id: 'due', header: 'Scadenza', cell: (p) => formatDay(p.dataScadenza), noWrap: true },
    { id: 'nav', header: 'Numero avviso', cell: (p) => <NoticeNumber nav={p.nav} />, noWrap: true },
    {
      id: 'state',
      header: 'Stato',
      cell: (p) => <PaymentBadge position={p} reconciliation={showReconciliation} />,
      noWrap: true,
    },
    { id: 'notice', header: 'Avviso', cell: (p) => <NoticeLink position={p} />, noWrap: true },
    ...(actions ? [{ id: 'actions', header: 'Azioni', headerHidden: true, cell: actions, noWrap: true }] : []),
  ];
  return <DataTable caption={caption} columns={columns} rows={rows} rowKey={(p) => p.iud} emptyText={emptyText} />;
}
