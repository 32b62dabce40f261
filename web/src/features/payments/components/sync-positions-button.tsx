import { SYNC_POLL_MS, type SyncStatus } from '@domain/payments';
import { JobStartButton } from '@/components/job-start-button';
import { PageAlert } from '@/components/page-alert';
import { useStartedJob } from '@/components/use-job-status';
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
  const job = useStartedJob({
    key: callId,
    fetch: () => getPositionsSync(callId),
    start: () => startPositionsSync(callId),
    isRunning: (answer: SyncStatus) => answer.isUpdating,
    pollMs: SYNC_POLL_MS,
    onEnd: (answer) => {
      if (answer.state === 'FAILED') job.setError(answer.error);
      onDone?.();
    },
  });
  return (
    <>
      <JobStartButton
        job={job}
        label="Sincronizza"
        runningLabel={SYNC_RUNNING_LABEL}
        question={SYNC_QUESTION}
        colorTheme="success"
      />
      <PageAlert message={job.error} onDismiss={() => job.setError(null)} />
    </>
  );
}
