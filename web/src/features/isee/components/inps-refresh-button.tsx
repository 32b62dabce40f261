import { Button } from '@aws-amplify/ui-react';
import type { InpsFetchResult } from '@domain/isee';
import { useApiMutation } from '@/lib/queries';
import { fetchUserIseeFromInps } from '../api/inps';

/**
 * 'Aggiorna ISEE da INPS' on the user record (operators): asks INPS through PDND for the attestation valid
 * today; `onResult` gets INPS's answer in the operator's words (or the failure), to show and to reload.
 */
export function InpsRefreshButton({
  userId,
  disabled = false,
  onResult,
}: {
  userId: string;
  disabled?: boolean;
  onResult: (message: string, variation: 'success' | 'info' | 'warning' | 'error', result?: InpsFetchResult) => void;
}) {
  const action = useApiMutation(fetchUserIseeFromInps);
  const run = async () => {
    const answer = await action.run(userId);
    if (!answer.ok) return onResult(answer.error.message, 'error');
    const { outcome, message } = answer.data;
    onResult(message, outcome === 'NOT_FOUND' ? 'warning' : outcome === 'REVIEW' ? 'info' : 'success', answer.data);
  };
  return (
    <Button
      isDisabled={disabled}
      isLoading={action.isRunning}
      loadingText="Richiesta a INPS in corso..."
      onClick={() => void run()}
    >
      Aggiorna ISEE da INPS
    </Button>
  );
}
