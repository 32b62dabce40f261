import { Button, Text } from '@aws-amplify/ui-react';
import { useAuth } from '@/lib/auth';
import { Dialog } from './dialog';

/** What a visitor who is not signed in reads on asking for a service (spec part 2 §2.2). */
export const LOGIN_NEEDED = 'Per poterti iscrivere ai servizi devi effettuare il login con SPID o CIE.';

/** 'Accesso richiesto': a visitor asked for a service; the way in is SPID or CIE. */
export function LoginRequiredDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { signIn } = useAuth();
  return (
    <Dialog
      open={open}
      title="Accesso richiesto"
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Chiudi</Button>
          <Button variation="primary" onClick={() => void signIn()}>
            Accedi con SPID o CIE
          </Button>
        </>
      }
    >
      <Text>{LOGIN_NEEDED}</Text>
    </Dialog>
  );
}
