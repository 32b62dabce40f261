import { Button, Flex } from '@aws-amplify/ui-react';
import type { Position } from '@domain/payments';
import { isOpen } from '@domain/positions/states';
import { useState } from 'react';
import { CloseReconciliationDialog } from './close-reconciliation-dialog';
import { EditPositionDialog } from './edit-position-dialog';
import { NoticeButtons } from './notice-buttons';

/**
 * The operator's buttons on one payment (operator-admin §2, §5): 'Modifica' (the payment edit modal), the
 * e-mail and IO notices, and 'Chiudi riconciliazione' on a payment to reconcile (issue 21). Delegates see them all disabled (operator-admin §6: edit and IO disabled; hidden is
 * the citizen's rule).
 */
export function PositionActions({
  position,
  reload,
  readOnly = false,
}: {
  position: Position;
  reload: () => void;
  readOnly?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [reconciling, setReconciling] = useState(false);
  // What the last save answered, shown until the reloaded list hands over a newer position: reopened at
  // once, the modal holds the text just saved, not the one the page loaded.
  const [saved, setSaved] = useState<{ over: Position; position: Position }>();
  const current = saved?.over === position ? saved.position : position;
  const answered = (answer: Position) => {
    setSaved({ over: position, position: answer });
    reload();
  };
  return (
    <Flex gap="xs" wrap="wrap" justifyContent="flex-end" alignItems="flex-start">
      <Button
        size="small"
        isDisabled={readOnly || !isOpen(current)}
        onClick={() => setEditing(true)}
        aria-label={`Modifica pagamento ${current.titolo} di ${current.cognome} ${current.nome}`}
      >
        Modifica
      </Button>
      <NoticeButtons position={current} onSent={reload} readOnly={readOnly} />
      {current.riconciliazione && (
        <Button
          size="small"
          isDisabled={readOnly}
          onClick={() => setReconciling(true)}
          aria-label={`Chiudi riconciliazione ${current.titolo} di ${current.cognome} ${current.nome}`}
        >
          Chiudi riconciliazione
        </Button>
      )}
      {editing && (
        <EditPositionDialog
          position={current}
          onClose={() => setEditing(false)}
          onSaved={(answer) => {
            setEditing(false);
            answered(answer);
          }}
        />
      )}
      {reconciling && (
        <CloseReconciliationDialog
          position={current}
          onClose={() => setReconciling(false)}
          onClosed={(answer) => {
            setReconciling(false);
            answered(answer);
          }}
        />
      )}
    </Flex>
  );
}
