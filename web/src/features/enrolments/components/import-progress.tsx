import { Flex } from '@aws-amplify/ui-react';
import { IMPORT_POLL_MS } from '@domain/enrolment';
import { counted } from '@domain/messages';
import { useCallback, useEffect, useState } from 'react';
import { PageAlert } from '@/components/page-alert';
import { useJobStatus } from '@/components/use-job-status';
import { getImportStatus } from '../api/get-import-status';
import type { ImportStatus } from '../api/types';

const count = new Intl.NumberFormat('it-IT').format;

export const importDoneText = (summary: ImportStatus['summary']) =>
  summary
    ? `Importazione completata: ${counted(summary.add, ['iscrizione aggiunta', 'iscrizioni aggiunte'])}, ${counted(summary.update, ['aggiornata', 'aggiornate'])}, ${counted(summary.remove, ['rimossa', 'rimosse'])}, ${counted(summary.rejected, ['riga scartata', 'righe scartate'])}.`
    : 'Importazione completata.';

/** 'Importazione in corso: 1 riga applicata su 2'. */
export const importProgressText = (done: number, total: number) =>
  `Importazione in corso: ${counted(done, ['riga applicata', 'righe applicate'], count)} su ${count(total)}`;

/**
 * The call's import, applied in the background (functions/jobs, kind 'enrolment-import'): its status is
 * asked on mount (a reload, or a browser closed meanwhile, shows a running one) and every IMPORT_POLL_MS
 * while it runs (not for a delegate: `enabled` false). `started` hands over a run just started from the dialog; `onFinished` reloads the table.
 */
export function useImportStatus(callId: string, onFinished: () => void, enabled = true) {
  const { status, running, setStatus } = useJobStatus({
    key: callId,
    fetch: () => getImportStatus(callId),
    isRunning: (answer: ImportStatus) => answer.isRunning,
    pollMs: IMPORT_POLL_MS,
    onEnd: () => onFinished(),
    enabled,
  });
  /** Only an end seen while this page watched it is announced (not last week's import on mount). */
  const [watched, setWatched] = useState(false);
  useEffect(() => {
    if (running) setWatched(true);
  }, [running]);

  const started = useCallback(
    (answer: ImportStatus) => {
      setWatched(true);
      setStatus(answer);
    },
    [setStatus],
  );
  return { status, running, watched, started, dismiss: () => setWatched(false) };
}

export function ImportProgress({
  status,
  watched,
  onDismiss,
}: {
  status: ImportStatus | null;
  watched: boolean;
  onDismiss: () => void;
}) {
  if (!status || !watched) return null;
  if (status.isRunning) {
    const total = status.total ?? 0;
    const label = total ? importProgressText(status.done, total) : 'Importazione in corso…';
    return (
      <Flex direction="column" gap="xxs" role="status" className="import-progress" data-testid="import-progress">
        <label htmlFor="import-apply-progress">{label}</label>
        <progress id="import-apply-progress" max={total || undefined} value={total ? status.done : undefined} />
      </Flex>
    );
  }
  if (status.state === 'SUCCEEDED')
    return (
      <PageAlert variation="success" autoHideMs={null} message={importDoneText(status.summary)} onDismiss={onDismiss} />
    );
  if (status.state === 'FAILED')
    return (
      <PageAlert autoHideMs={null} message={status.error ?? 'L’importazione non è riuscita.'} onDismiss={onDismiss} />
    );
  return null;
}
