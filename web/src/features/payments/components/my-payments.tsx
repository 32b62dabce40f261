import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import type { PaymentReturn } from '@domain/position-payment';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { formatDateTime } from '@/lib/dates';
import { useAsync, useAsyncAction } from '@/components/use-async';
import { getMyPositions, paymentReturn, payPosition } from '../api/my-positions';
import { PositionsTable } from './positions-table';

/** Where the browser goes to pay (MyPay's checkout); a seam for tests. */
export const goToCheckout = (url: string) => window.location.assign(url);

/**
 * The payments section of the citizen's call detail (calls-citizens-roles §2.5): the citizen's own
 * positions of this call with amount, due date, notice number, badge and notice PDF, and 'Paga' on a
 * payable one. Back from MyPay the page carries ?idSession=…&esito=…: the outcome is asked to the
 * server (which asks MyPay, never trusting esito), shown, and the parameters are dropped from the URL.
 */
export function MyPayments({ callId }: { callId: string }) {
  const [params, setParams] = useSearchParams();
  const idSession = params.get('idSession');
  const [outcome, setOutcome] = useState<PaymentReturn | null>(null);
  const back = useAsyncAction(paymentReturn);
  const pay = useAsyncAction(payPosition);
  const positions = useAsync(() => getMyPositions(callId), [callId]);
  const handled = useRef<string | null>(null);
  const { reload } = positions;
  const runReturn = back.run;

  useEffect(() => {
    if (!idSession || handled.current === idSession) return;
    handled.current = idSession;
    void runReturn(idSession).then((answer) => {
      if (answer.ok) setOutcome(answer.data);
      reload();
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('idSession');
          next.delete('esito');
          next.delete('pollingToken');
          return next;
        },
        { replace: true },
      );
    });
  }, [idSession, runReturn, reload, setParams]);

  const startPayment = async (iud: string) => {
    // Back to this page: its path and the call's id only (MyPay's own parameters are added on the way back).
    const returnPath = `${window.location.pathname}?id=${encodeURIComponent(callId)}`;
    const answer = await pay.run(iud, returnPath);
    if (answer.ok) goToCheckout(answer.data.url);
  };

  return (
    <section aria-labelledby="payments-title" className="call-section" id="pagamenti">
      <Heading level={2} id="payments-title">
        Pagamenti
      </Heading>
      <Flex direction="column" gap="small">
        {back.isRunning && <LoadingState label="Verifica dell’esito del pagamento..." />}
        {outcome && (
          <PageAlert
            variation={outcome.esito === 'PAID' ? 'success' : outcome.esito === 'PENDING' ? 'info' : 'warning'}
            message={outcome.message}
            autoHideMs={null}
            onDismiss={() => setOutcome(null)}
          />
        )}
        <PageAlert
          message={back.error?.message ?? pay.error?.message}
          autoHideMs={null}
          onDismiss={() => (back.clearError(), pay.clearError())}
        />
        {positions.error ? (
          <ErrorState message={positions.error.message} />
        ) : !positions.data ? (
          <LoadingState />
        ) : (
          <PositionsTable
            caption="I tuoi pagamenti per questo servizio"
            rows={positions.data}
            emptyText="Non ci sono pagamenti per questo servizio."
            actions={(p) =>
              p.payable ? (
                <Button
                  size="small"
                  variation="primary"
                  onClick={() => void startPayment(p.iud)}
                  isLoading={pay.isRunning}
                  loadingText="Apertura del pagamento..."
                  aria-label={`${p.inCorso ? 'Riprendi il pagamento' : 'Paga'} ${p.titolo}`}
                >
                  {p.inCorso ? 'Riprendi il pagamento' : 'Paga'}
                </Button>
              ) : p.inVerifica && p.checkoutUntil ? (
                <span className="payment-hint">
                  Pagamento in verifica: se hai pagato non pagare di nuovo, sarà registrato appena arriva l’esito. Se
                  non hai completato il pagamento potrai pagare di nuovo dal {formatDateTime(p.checkoutUntil)}.
                </span>
              ) : p.badge === 'Da pagare' && !p.nav ? (
                <span className="payment-hint">Avviso in preparazione</span>
              ) : null
            }
          />
        )}
      </Flex>
    </section>
  );
}
