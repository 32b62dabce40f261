import { Alert, Button, Text } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Dialog } from '@/components/dialog';

/** Spec part 2 §8/§9: the operator's confirm or update failure shows for 5 seconds in the corner. */
export const ACTION_ERROR_MS = 5000;

/**
 * Spec part 2 §8, operator confirm or update failure: the server's message in a red alert at the bottom
 * right for 5 s, and a dialog titled 'Errore' with the same message. `show(text)` raises both.
 */
export function useActionError() {
  const [error, setError] = useState<{ text: string; key: number } | null>(null);
  const [dialogText, setDialogText] = useState<string | null>(null);
  const show = useCallback((text: string) => {
    setError({ text, key: Date.now() });
    setDialogText(text);
  }, []);
  return { error, dialogText, show, closeDialog: () => setDialogText(null), clear: () => setError(null) };
}

export function ActionError({ state }: { state: ReturnType<typeof useActionError> }) {
  const { error, clear } = state;
  const corner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!error) return;
    const timer = window.setTimeout(clear, ACTION_ERROR_MS);
    return () => window.clearTimeout(timer);
    // A new error (new key) restarts the 5 seconds.
  }, [error?.key]);
  // The corner alert is a manual popover shown after the 'Errore' dialog opens: both sit in the top layer,
  // the later one above, so the modal's backdrop does not cover it.
  useEffect(() => {
    const element = corner.current;
    if (error && element && !element.matches(':popover-open')) element.showPopover();
  }, [error?.key]);
  return (
    <>
      <Dialog
        open={state.dialogText !== null}
        title="Errore"
        onClose={state.closeDialog}
        actions={<Button onClick={state.closeDialog}>Chiudi</Button>}
      >
        <Text>{state.dialogText}</Text>
      </Dialog>
      {error && (
        <div ref={corner} popover="manual" className="corner-alert" data-testid="action-error">
          <Alert
            key={error.key}
            variation="error"
            heading="Errore"
            role="alert"
            isDismissible
            dismissButtonLabel="Chiudi avviso"
            onDismiss={clear}
          >
            {error.text}
          </Alert>
        </div>
      )}
    </>
  );
}
