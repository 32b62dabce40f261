import { Button } from '@aws-amplify/ui-react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/dialog';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';

/** The API refused the token: sign in again, or forget the session and go home (spec part 2 §2.2). */
export function SessionExpiredDialog() {
  const { sessionExpired, signIn, endSession } = useAuth();
  const navigate = useNavigate();
  return (
    <Dialog
      open={sessionExpired}
      title="SESSIONE SCADUTA"
      onClose={() => undefined}
      actions={
        <>
          <Button
            onClick={() => {
              endSession();
              navigate(paths.home);
            }}
          >
            Home
          </Button>
          <Button variation="primary" onClick={() => void signIn()}>
            Login
          </Button>
        </>
      }
    >
      <p>Esegui nuovamente il login</p>
    </Dialog>
  );
}
