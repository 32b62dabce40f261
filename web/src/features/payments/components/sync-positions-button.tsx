import { Button } from '@aws-amplify/ui-react';
import { SYNC_POLL_MS, type SyncStatus } from '@domain/payments';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/dialog';
import { PageAlert } from '@/components/page-alert';
import { getPositionsSync } from '../api/get-positions-sync';
import { startPositionsSync } from '../api/start-positions-sync';

export const SYNC_QUESTION = 'Sei sicuro di voler procedere con il ricalcolo delle posizioni debitorie?';
export const SYNC_RUNNING_LABEL = 'Importazione in corso...';

/**
 * 'Sincronizza' (operator-admin §2 Payment list): after the confirmation it starts the recalculation of the
 * call's unpaid debt positions, which runs in the background. While it runs the button is disabled and
 * reads 'Importazione in corso...', and the import status is asked every 10 s (§9); it comes back when
 * done. The status is asked on mount too, so a reload (or another operator's click) shows a running one.
 */
export function SyncPositionsButton({ callId, onDone }: { callId: string; onDone?: () => void }) {
  const [status, setStatus] = useState<SyncStatus | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = status?.isUpdating ?? false;

  useEffect(() => {
    let current = true;
    getPositionsSync(callId).then(
      (answer) => current && setStatus(answer),
      () => undefined, // 'Other failures in these screens: only logged' (§8); the button stays usable.
    );
    return () => {
      current = false;
    };
  }, [callId]);

  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => {
      getPositionsSync(callId).then(
        (answer) => {
          setStatus(answer);
          if (!answer.isUpdating) {
            if (answer.state === 'FAILED') setError(answer.error);
            onDone?.();
          }
        },
        // A failed poll keeps the button waiting: the next one tries again.
        () => setStatus((previous) => (previous ? { ...previous } : previous)),
      );
    }, SYNC_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [callId, running, status, onDone]);

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      setStatus(await startPositionsSync(callId));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStarting(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <Button variation="primary" colorTheme="success" isDisabled={running || starting} onClick={() => setConfirming(true)}>
        {running ? SYNC_RUNNING_LABEL : 'Sincronizza'}
      </Button>
      <ConfirmDialog open={confirming} title="Sincronizza" message={SYNC_QUESTION} busy={starting} onConfirm={() => void start()} onCancel={() => setConfirming(false)} />
      <PageAlert message={error} onDismiss={() => setError(null)} />
    </>
  );
}
