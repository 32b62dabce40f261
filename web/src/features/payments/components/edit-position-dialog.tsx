import { Button, Flex, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { DESCRIPTION_MAX_LENGTH, positionEditSchema, type Position } from '@domain/payments';
import { centsToDecimal } from '@domain/money';
import { fieldErrors } from '@domain/validation';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/dialog';
import { PageAlert } from '@/components/page-alert';
import { useApiMutation } from '@/lib/queries';
import { editPosition } from '../api/edit-position';

export const CANCEL_WARNING =
  'Con importo 0 la posizione debitoria viene annullata definitivamente e non potrà essere riaperta. Confermi?';

/**
 * The payment edit modal (operator-admin §5): description (required, at most 300 characters, with a
 * counter) and amount in euro (step 0.01), validated with the API's own schema. An amount of 0 cancels
 * the position for good: the dialog asks to confirm first. A failure reads 'Attenzione.' and the server's
 * message (§8).
 */
export function EditPositionDialog({
  position,
  onClose,
  onSaved,
}: {
  position: Position;
  onClose: () => void;
  onSaved: (saved: Position) => void;
}) {
  const [descrizione, setDescrizione] = useState(position.descrizione);
  const [importo, setImporto] = useState(centsToDecimal(position.importoDovuto));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  /** A field's value and message; typing clears its message; both are locked while the cancellation is asked. */
  const field = (name: 'descrizione' | 'importo', value: string, set: (value: string) => void) => ({
    value,
    onChange: (event: { target: { value: string } }) => {
      set(event.target.value);
      setErrors((previous) => ({ ...previous, [name]: '' }));
    },
    hasError: Boolean(errors[name]),
    errorMessage: errors[name],
    isDisabled: confirmingCancel,
  });
  const save = useApiMutation(editPosition);

  const send = async () => {
    // The copy this dialog was opened on: a save after another operator's is refused (409), not silently applied.
    const answer = await save.run(position.iud, { descrizione, importo, updatedAt: position.updatedAt });
    if (answer.ok) onSaved(answer.data);
    else setConfirmingCancel(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = positionEditSchema.safeParse({ descrizione, importo });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    if (parsed.data.importoCents === 0 && !confirmingCancel) {
      setConfirmingCancel(true);
      return;
    }
    void send();
  };

  return (
    <Dialog
      open
      title="Modifica pagamento"
      onClose={onClose}
      actions={
        <>
          <Button onClick={confirmingCancel ? () => setConfirmingCancel(false) : onClose} isDisabled={save.isRunning}>
            Annulla
          </Button>
          <Button
            type="submit"
            form="edit-position-form"
            variation="primary"
            isLoading={save.isRunning}
            loadingText="Salvataggio..."
          >
            {confirmingCancel ? 'Conferma annullamento' : 'Salva'}
          </Button>
        </>
      }
    >
      <form id="edit-position-form" onSubmit={submit} noValidate>
        <Flex direction="column" gap="medium">
          <Text>
            {position.cognome} {position.nome} ({position.fiscalCode}) · {position.titolo}
          </Text>
          <TextAreaField
            label="Descrizione"
            name="descrizione"
            rows={4}
            {...field('descrizione', descrizione, setDescrizione)}
            descriptiveText={`${descrizione.length}/${DESCRIPTION_MAX_LENGTH} caratteri`}
          />
          <TextField
            label="Importo (€)"
            name="importo"
            type="number"
            inputMode="decimal"
            step="0.01"
            min={0}
            {...field('importo', importo, setImporto)}
            descriptiveText="0 annulla la posizione debitoria."
          />
          {confirmingCancel && (
            <PageAlert
              variation="warning"
              heading="Annullamento"
              message={CANCEL_WARNING}
              autoHideMs={null}
              isDismissible={false}
            />
          )}
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
