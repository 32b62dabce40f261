import { Button, Flex, Heading, Text, TextField } from '@aws-amplify/ui-react';
import { messages } from '@domain/messages';
import { formatEuroCents } from '@domain/money';
import { positionsByFiscalCodeQuerySchema, type PositionView } from '@domain/position-payment';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { CursorPagination, useCursorList } from '@/components/cursor-pagination';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { getPositionsByFiscalCode } from '../api/user-positions';
import { NoticeNumber } from './notice-number';
import { PositionActions } from './position-actions';
import { NoticeLink, paidAmount, PaymentBadge } from './positions-table';
import { formatDay } from '@/lib/dates';

/**
 * /pagamenti ('Pagamenti', operator-admin §2 "Payments of a citizen card list"): a citizen looked up by
 * fiscal code (kept in the query parameter fiscalCode), their payments as cards, 15 per page.
 */
export function PaymentsPage() {
  const [params, setParams] = useSearchParams();
  const fiscalCode = params.get('fiscalCode') ?? '';
  const [typed, setTyped] = useState(fiscalCode);
  const [error, setError] = useState<string>();

  const search = (event: FormEvent) => {
    event.preventDefault();
    const parsed = positionsByFiscalCodeQuerySchema.shape.fiscalCode.safeParse(typed);
    if (!parsed.success) {
      setError(messages.payment.fiscalCode);
      return;
    }
    setError(undefined);
    setParams({ fiscalCode: parsed.data });
  };

  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Pagamenti</Heading>
      <form onSubmit={search} noValidate role="search" aria-label="Cerca i pagamenti di un cittadino">
        <Flex gap="small" alignItems="flex-end" wrap="wrap">
          <TextField
            label="Codice fiscale"
            name="fiscalCode"
            autoComplete="off"
            maxLength={16}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            hasError={Boolean(error)}
            errorMessage={error}
            width="20rem"
          />
          <Button type="submit" variation="primary">
            Cerca
          </Button>
        </Flex>
      </form>
      {fiscalCode ? (
        <PaymentCards fiscalCode={fiscalCode} />
      ) : (
        <Text>Inserisci il codice fiscale del cittadino per vederne i pagamenti.</Text>
      )}
    </Flex>
  );
}

function PaymentCards({ fiscalCode }: { fiscalCode: string }) {
  const list = useCursorList<PositionView>(['payments', 'by-fiscal-code', fiscalCode], (cursor) =>
    getPositionsByFiscalCode(fiscalCode, cursor),
  );
  return (
    <>
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : list.items.length === 0 ? (
        <Text>{messages.payment.noPayments}</Text>
      ) : (
        <ul className="call-cards" aria-label={`Pagamenti di ${fiscalCode.toUpperCase()}`}>
          {list.items.map((p) => (
            <li key={p.iud} className="call-card payment-card">
              <Heading level={2} className="call-card__title">
                {p.titolo}
              </Heading>
              <Text className="call-card__service">
                {p.cognome} {p.nome} · {p.fiscalCode}
              </Text>
              <PaymentBadge position={p} reconciliation />
              <dl className="payment-card__facts">
                <dt>Importo</dt>
                <dd>{formatEuroCents(p.importoDovuto)}</dd>
                <dt>Importo pagato</dt>
                <dd>{paidAmount(p)}</dd>
                <dt>Scadenza</dt>
                <dd>{formatDay(p.dataScadenza)}</dd>
                <dt>Numero avviso</dt>
                <dd>
                  <NoticeNumber nav={p.nav} />
                </dd>
                <dt>Avviso</dt>
                <dd>
                  <NoticeLink position={p} />
                </dd>
              </dl>
              <PositionActions position={p} reload={list.reload} />
            </li>
          ))}
        </ul>
      )}
      <CursorPagination {...list.pagination} label="Paginazione dei pagamenti" />
    </>
  );
}
