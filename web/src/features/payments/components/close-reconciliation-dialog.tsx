import { Button, Flex, Text, TextAreaField } from '@aws-amplify/ui-react';
import { formatEuroCents } from '@domain/money';
import {
  RECONCILIATION_NOTE_MAX_LENGTH,
  reconciliationCloseSchema,
  reconciliationTexts,
  type Position,
} from '@domain/payments';
import { fieldErrors } from '@domain/validation';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/dialog';
import { PageAlert } from '@/components/page-alert';
import { useApiMutation } from '@/lib/queries';
import { closeReconciliation } from '../api/close-reconciliation';

/**
 * 'Chiudi riconciliazione' (issue 21): once the office has refunded the citizen or accepted the difference,
 * the operator closes the payment to reconcile with a note (required, at most 500 characters), validated
 * with the API's own schema. The payments MyPay collected stay. A failure reads 'Attenzione.' and the
 * server's message.
 */
export function CloseReconciliationDialog({
  position,
  onClose,
  onClosed,
}: {
  position: Position;
  onClose: () => void;
  onClosed: (closed: Position) => void;
}) {
  const [nota, setNota] = useState('');
  const [error, setError] = useState<string>();
  const save = useApiMutation(closeReconciliation);
  const toReconcile = position.riconciliazione;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = reconciliationCloseSchema.safeParse({ nota });
    if (!parsed.success) {
      setError(fieldErrors(parsed.error).nota);
      return;
    }
    setError(undefined);
    // The copy this dialog was opened on: a close after another operator's change is refused (409).
    const answer = await save.run(position.iud, { nota: parsed.data.nota, updatedAt: position.updatedAt });
    if (answer.ok) onClosed(answer.data);
  };

  return (
    <Dialog
      open
      title="Chiudi riconciliazione"
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose} isDisabled={save.isRunning}>
            Annulla
          </Button>
          <Button
            type="submit"
            form="close-reconciliation-form"
            variation="primary"
            isLoading={save.isRunning}
            loadingText="Salvataggio..."
          >
            Conferma
          </Button>
        </>
      }
    >
      <form id="close-reconciliation-form" onSubmit={(event) => void submit(event)} noValidate>
        <Flex direction="column" gap="medium">
          <Text>
            {position.cognome} {position.nome} ({position.fiscalCode}) · {position.titolo}
          </Text>
          {toReconcile && (
            <Text>
              Motivo: {reconciliationTexts[toReconcile.motivo]}. Pagato {formatEuroCents(position.importoTotalePagato)},
              differenza {formatEuroCents(toReconcile.differenza)}. I pagamenti registrati restano.
            </Text>
          )}
          <TextAreaField
            label="Nota"
            name="nota"
            rows={4}
            isRequired
            value={nota}
            onChange={(event) => {
              setNota(event.target.value);
              setError(undefined);
            }}
            hasError={Boolean(error)}
            errorMessage={error}
            placeholder="Es. Rimborsati 10,00 € il 2/12 con bonifico"
            descriptiveText={`Come è stato riconciliato il pagamento (rimborso, differenza accettata). ${nota.length}/${RECONCILIATION_NOTE_MAX_LENGTH} caratteri`}
          />
          <PageAlert
            heading="Attenzione."
            message={save.error?.message}
            autoHideMs={null}
            onDismiss={save.clearError}
          />
        </Flex>
      </form>
    </Dialog>
  );
}
