import { Button } from '@aws-amplify/ui-react';
import { paymentOutcomeMessages } from '@domain/messages';
import type { ReportingResult } from '@domain/position-payment';
import { useApiMutation } from '@/lib/queries';
import { runReporting } from '../api/run-reporting';

export const REPORTING_BUTTON = 'Rendicontazione';

/**
 * 'Rendicontazione' on the operator's call detail (calls-citizens-roles §2.11; issue 8): asks MyPay what
 * was paid and marks those positions paid; 'La rendicontazione è in corso' while it runs (and when MyPay
 * is still preparing its export), then how many were marked. The button stays in its row: the outcome goes
 * to the page (`onOutcome`), which shows it under the buttons and refreshes the positions it marked.
 */
export function ReportingButton({
  callId,
  onOutcome,
}: {
  callId: string;
  onOutcome: (result: ReportingResult | null, failure?: string) => void;
}) {
  const action = useApiMutation(runReporting);
  const run = async () => {
    const answer = await action.run(callId);
    if (answer.ok) onOutcome(answer.data);
    else onOutcome(null, answer.error.message);
  };
  return (
    <Button
      onClick={() => void run()}
      isLoading={action.isRunning}
      loadingText={paymentOutcomeMessages.reportingInProgress}
    >
      {REPORTING_BUTTON}
    </Button>
  );
}
