import { Button, CheckboxField, Flex, Heading, Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { fill, gpdPaymentMessages } from '@domain/messages';
import type { PaymentReturn } from '@domain/position-payment';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { formatDateTime } from '@/lib/dates';
import { useApiQuery, useApiMutation } from '@/lib/queries';
import { getMyPositions, getPaymentOptions, paymentReturn, payPosition, payPositions } from '../api/my-positions';
import { PositionsTable } from './positions-table';

/** Where the browser goes to pay (MyPay's checkout, pagoPA Checkout); a seam for tests. */
export const goToCheckout = (url: string) => window.location.assign(url);

/**
 * The payments section of the citizen's call detail (calls-citizens-roles §2.5): the citizen's own
 * positions of this call with amount, due date, notice number, badge and notice PDF, and 'Paga' on a
 * payable one. Where the platform's checkout takes several notices (pagoPA Checkout on GPD: up to five) the
 * citizen can also tick several months and pay them at once. Back from the checkout the page carries
 * ?idSession=…&esito=…: the outcome is asked to the server (which asks the platform, never trusting esito),
 * shown, and the parameters are dropped from the URL.
 */
export function MyPayments({ callId }: { callId: string }) {
  const [params, setParams] = useSearchParams();
  const idSession = params.get('idSession');
  const [outcome, setOutcome] = useState<PaymentReturn | null>(null);
  const back = useApiMutation(paymentReturn);
  const pay = useApiMutation(payPosition);
  const payMany = useApiMutation(payPositions);
  const positions = useApiQuery(['payments', 'mine', callId], () => getMyPositions(callId));
  const options = useApiQuery(['payments', 'options'], getPaymentOptions);
  const cartSize = options.data?.cartSize ?? 1;
  const [selected, setSelected] = useState<string[]>([]);
  const [tooMany, setTooMany] = useState<string | null>(null);
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

  // Back to this page: its path and the call's id only (the platform's own parameters are added on the way back).
  const returnPath = () => `${window.location.pathname}?id=${encodeURIComponent(callId)}`;
  const startPayment = async (iud: string) => {
    const answer = await pay.run(iud, returnPath());
    if (answer.ok) goToCheckout(answer.data.url);
  };
  const payChosen = async () => {
    if (selected.length > cartSize) return setTooMany(fill(gpdPaymentMessages.cartTooMany, { max: cartSize }));
    if (!selected.length) return setTooMany(gpdPaymentMessages.cartEmpty);
    setTooMany(null);
    const answer = await payMany.run(selected, returnPath());
    if (answer.ok) goToCheckout(answer.data.url);
  };
  const toggle = (iud: string, on: boolean) =>
    setSelected((current) => (on ? [...current.filter((i) => i !== iud), iud] : current.filter((i) => i !== iud)));
  // Several at once only where the checkout takes them, and only months that can be paid now (no checkout running).
  const selectable = (p: { payable: boolean; inCorso: boolean }) => cartSize > 1 && p.payable && !p.inCorso;
  const choosable = (positions.data ?? []).filter(selectable);

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
          message={tooMany ?? back.error?.message ?? pay.error?.message ?? payMany.error?.message}
          autoHideMs={null}
          onDismiss={() => (setTooMany(null), back.clearError(), pay.clearError(), payMany.clearError())}
        />
        {choosable.length > 1 && (
          <Flex direction="row" gap="small" alignItems="center" wrap="wrap">
            <Text>
              Puoi pagare insieme fino a {cartSize} avvisi con pagoPA: seleziona i mesi da pagare nella tabella.
            </Text>
            <Button
              variation="primary"
              onClick={() => void payChosen()}
              isLoading={payMany.isRunning}
              loadingText="Apertura del pagamento..."
            >
              {`Paga gli avvisi selezionati (${selected.length})`}
            </Button>
          </Flex>
        )}
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
                <Flex direction="column" gap="xs" alignItems="flex-start">
                  {choosable.length > 1 && selectable(p) && (
                    <CheckboxField
                      name="avvisi"
                      value={p.iud}
                      // A short label in the table; its full name for a screen reader.
                      label={
                        <>
                          Seleziona<VisuallyHidden> {p.titolo}</VisuallyHidden>
                        </>
                      }
                      checked={selected.includes(p.iud)}
                      onChange={(event) => toggle(p.iud, event.target.checked)}
                    />
                  )}
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
                </Flex>
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
