import { Button, Flex } from '@aws-amplify/ui-react';
import type { Position } from '@domain/payments';
import { useState } from 'react';
import { EditPositionDialog } from './edit-position-dialog';
import { NoticeButtons } from './notice-buttons';

/**
 * The operator's buttons on one payment (operator-admin §2, §5): 'Modifica' (the payment edit modal) and the
 * e-mail and IO notices. Delegates see the notice badges with the buttons disabled and no 'Modifica'.
 */
export function PositionActions({ position, reload, readOnly = false }: { position: Position; reload: () => void; readOnly?: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <Flex gap="xs" wrap="wrap" justifyContent="flex-end" alignItems="flex-start">
      {!readOnly && (
        <Button size="small" isDisabled={position.isPagato || position.annullato} onClick={() => setEditing(true)} aria-label={`Modifica pagamento ${position.titolo} di ${position.cognome} ${position.nome}`}>
          Modifica
        </Button>
      )}
      <NoticeButtons position={position} onSent={reload} readOnly={readOnly} />
      {editing && (
        <EditPositionDialog
          position={position}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            reload();
          }}
        />
      )}
    </Flex>
  );
}
