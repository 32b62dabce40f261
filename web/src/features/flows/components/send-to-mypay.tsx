import { Button, Flex, Text } from '@aws-amplify/ui-react';
import type { Flow } from '@domain/flow-schemas';
import { flowMessages, isFlowRunning } from '@domain/flows';
import { currentPeriod } from '@domain/payments';
import { useEffect, useState } from 'react';
import { ButtonLink } from '@/components/button-link';
import { Dialog } from '@/components/dialog';
import { PeriodPicker } from '@/components/period-picker';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { onPlatform } from '@/lib/platform';
import { getFlow } from '../api/get-flow';
import { startExport } from '../api/start-export';

/** How often the dialog asks where the export stands. */
const POLL_MS = 2000;

/** The current month and year in Rome (the spec's defaults). */
const currentMonth = () => currentPeriod(new Date());

/** The positions the export kept out of the file, each with what to fix in the citizen's record. */
export function HeldBackList({ flow }: { flow: Pick<Flow, 'heldBack'> }) {
  if (!flow.heldBack.length) return null;
  const count = flow.heldBack.length;
  return (
    <details className="held-back">
      <summary>
        {count} {count === 1 ? 'posizione trattenuta' : 'posizioni trattenute'}: dati da correggere prima dell’invio
      </summary>
      <ul>
        {flow.heldBack.map((held) => (
          <li key={held.fiscalCode}>
            {held.cognome} {held.nome} ({held.fiscalCode}): {held.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Where the export stands, as the dialog shows it while it runs and when it ends. */
export function ExportProgress({ flow }: { flow: Flow }) {
  const done = flow.step === 'COMPLETATO';
  return (
    <Flex direction="column" gap="small">
      <dl className="export-progress" aria-live="polite">
        <dt>Fase</dt>
        <dd>{flow.stepLabel}</dd>
        <dt>Stato</dt>
        <dd>{flow.statoLabel}</dd>
        <dt>Posizioni inviate</dt>
        <dd>{flow.num}</dd>
        <dt>Accettate</dt>
        <dd>{flow.accepted ?? '—'}</dd>
        <dt>Scartate</dt>
        <dd>{flow.rejected ?? '—'}</dd>
      </dl>
      {isFlowRunning(flow) && <progress aria-label={onPlatform('Invio a MyPay in corso')} />}
      {done && flow.num > 0 && (
        <PageAlert
          message={onPlatform(flowMessages.started)}
          variation="success"
          autoHideMs={null}
          isDismissible={false}
        />
      )}
      {done && flow.num === 0 && (
        <PageAlert
          message={flow.error ?? flowMessages.nothingToSend}
          variation="info"
          autoHideMs={null}
          isDismissible={false}
        />
      )}
      {flow.step === 'SOSPESO' && (
        <PageAlert
          message={flow.error ?? flowMessages.stillWaiting}
          variation="warning"
          autoHideMs={null}
          isDismissible={false}
        />
      )}
      {flow.step === 'ERRORE' && (
        <PageAlert message={flow.error ?? flow.statoLabel} variation="error" autoHideMs={null} isDismissible={false} />
      )}
      <HeldBackList flow={flow} />
    </Flex>
  );
}

/**
 * 'Invia a MyPay' on the operator's call detail: month and year (the current ones by default), then the
 * export's progress, polled until it ends. Closing the dialog does not stop it: the flow goes on and is
 * on the flows page.
 */
export function SendToMyPay({
  callId,
  onPositionsChanged,
}: {
  callId: string;
  onPositionsChanged?: (period: { mese: number; anno: number }) => void;
}) {
  const [open, setOpen] = useState(false);
  const [period, setPeriod] = useState(currentMonth);
  const [flow, setFlow] = useState<Flow | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** 'Nessuna posizione da inviare per questo mese.': no flow was created, nothing went wrong. */
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!flow || !isFlowRunning(flow)) return;
    const timer = window.setTimeout(() => {
      getFlow(flow.id).then(
        (next) => {
          setFlow(next);
          // The export ended: the call's positions now carry MyPay's IUV and notice number (or its refusal).
          if (!isFlowRunning(next)) onPositionsChanged?.({ mese: next.mese, anno: next.anno });
        },
        (e: Error) => setError(e.message),
      );
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [flow]);

  const close = () => {
    setOpen(false);
    setFlow(null);
    setError(null);
    setNotice(null);
  };
  const send = async () => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const started = await startExport(callId, period);
      setFlow(started);
      // Sending generates the month's positions first: the call's positions change at once.
      onPositionsChanged?.(period);
    } catch (e) {
      const message = (e as Error).message;
      if (message === flowMessages.nothingToSend) setNotice(message);
      else setError(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button onClick={() => setOpen(true)}>{onPlatform('Invia a MyPay')}</Button>
      <Dialog
        open={open}
        title={onPlatform('Invia a MyPay')}
        onClose={close}
        actions={
          flow ? (
            <>
              <ButtonLink to={paths.flows}>Vai ai flussi</ButtonLink>
              <Button onClick={close}>Chiudi</Button>
            </>
          ) : (
            <>
              <Button onClick={close}>Annulla</Button>
              <Button variation="primary" isLoading={busy} onClick={() => void send()}>
                Invia
              </Button>
            </>
          )
        }
      >
        {flow ? (
          <ExportProgress flow={flow} />
        ) : (
          <Flex direction="column" gap="small">
            <Text>
              {onPlatform(
                'Le posizioni debitorie del mese scelto vengono inviate a MyPay; puoi seguire l’invio anche dalla pagina dei flussi.',
              )}
            </Text>
            <Flex gap="small" wrap="wrap">
              <PeriodPicker period={period} onChange={setPeriod} monthLabel="Mese" yearLabel="Anno" />
            </Flex>
          </Flex>
        )}
        <PageAlert message={notice} variation="info" onDismiss={() => setNotice(null)} autoHideMs={null} />
        <PageAlert message={error} onDismiss={() => setError(null)} autoHideMs={null} />
      </Dialog>
    </>
  );
}
