import { Button } from '@aws-amplify/ui-react';
import { SYNC_POLL_MS, type SyncStatus } from '@domain/payments';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/dialog';
import { PageAlert } from '@/components/page-alert';
import { useJobStatus } from '@/components/use-job-status';
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
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { running, setStatus } = useJobStatus({
    key: callId,
    fetch: () => getPositionsSync(callId),
    isRunning: (answer: SyncStatus) => answer.isUpdating,
    pollMs: SYNC_POLL_MS,
    onEnd: (answer) => {
      if (answer.state === 'FAILED') setError(answer.error);
      onDone?.();
    },
  });

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
