import { Button } from '@aws-amplify/ui-react';
import type { Flow } from '@domain/flow-schemas';
import { counted } from '@domain/messages';
import type { FlowEmailResult } from '@domain/notice-schemas';
import { useState } from 'react';
import { useJobStatus } from '@/components/use-job-status';
import { emailFlow, getFlowEmail } from '../api/email-flow';

/** While the e-mails go out the button asks how far they are this often. */
export const FLOW_EMAIL_POLL_MS = 3000;

/**
 * 'Invia email' / 'Reinvia email' of a completed flow: starts the background job that e-mails every notice
 * (or joins the one running). While it runs the button is disabled and shows how many went out, asking the
 * progress every FLOW_EMAIL_POLL_MS as 'Sincronizza' does; when done it comes back and `onDone` gets the
 * outcome (the page shows its message). Closing the browser does not stop the job: a flow listed with its
 * `emailJob` running starts in that state and polls.
 */
export function FlowEmailButton({ flow, onDone }: { flow: Flow; onDone: (result: FlowEmailResult | Error) => void }) {
  const [starting, setStarting] = useState(false);
  // Not asked on mount (one request per row of the flows page): a run started here is followed.
  const {
    status: progress,
    running,
    setStatus: setProgress,
  } = useJobStatus({
    key: flow.id,
    fetch: () => getFlowEmail(flow.id),
    isRunning: (answer: FlowEmailResult) => !answer.done,
    pollMs: FLOW_EMAIL_POLL_MS,
    onEnd: onDone,
    askOnMount: false,
    // A run already going when the page loads (started before the browser was reopened) shows at once.
    initial: flow.emailJob
      ? { done: false, sent: flow.emailJob.sent, skipped: 0, failed: 0, message: '', state: 'RUNNING', error: null }
      : null,
  });

  const start = async () => {
    setStarting(true);
    try {
      const answer = await emailFlow(flow.id);
      setProgress(answer);
      if (answer.done) onDone(answer);
    } catch (error) {
      onDone(error as Error);
    } finally {
      setStarting(false);
    }
  };

  // The accessible name starts with the visible text (WCAG 2.5.3), then says which flow.
  const text = running
    ? `Invio in corso... (${counted(progress?.sent ?? 0, ['inviata', 'inviate'])})`
    : flow.isEmailSent
      ? 'Reinvia email'
      : 'Invia email';
  return (
    <Button
      size="small"
      isDisabled={running}
      isLoading={starting}
      loadingText="Invio in corso..."
      aria-label={`${text} del flusso ${flow.announcement.name}`}
      onClick={() => void start()}
    >
      {text}
    </Button>
  );
}
