import { Button, Flex } from '@aws-amplify/ui-react';
import { paymentOutcomeMessages } from '@domain/messages';
import type { ReportingResult } from '@domain/position-payment';
import { useState } from 'react';
import { PageAlert } from '@/components/page-alert';
import { useAsyncAction } from '@/components/use-async';
import { runReporting } from '../api/run-reporting';

export const REPORTING_BUTTON = 'Rendicontazione';

/**
 * 'Rendicontazione' on the operator's call detail (calls-citizens-roles §2.11; issue 8): asks MyPay what
 * was paid and marks those positions paid; 'La rendicontazione è in corso' while it runs (and when MyPay
 * is still preparing its export), then how many were marked.
 */
export function ReportingButton({ callId }: { callId: string }) {
  const action = useAsyncAction(runReporting);
  const [result, setResult] = useState<ReportingResult | null>(null);
  const run = async () => {
    setResult(null);
    const answer = await action.run(callId);
    if (answer.ok) setResult(answer.data);
  };
  return (
    <Flex direction="column" gap="xs">
      <Button onClick={() => void run()} isLoading={action.isRunning} loadingText={paymentOutcomeMessages.reportingInProgress}>
        {REPORTING_BUTTON}
      </Button>
      {result && <PageAlert variation={result.inProgress ? 'info' : 'success'} message={result.message} autoHideMs={null} onDismiss={() => setResult(null)} />}
      <PageAlert message={action.error?.message} autoHideMs={null} onDismiss={action.clearError} />
    </Flex>
  );
}
