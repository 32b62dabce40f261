import { Button, Flex, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import { counted } from '@domain/messages';
import { currentPeriod, monthNames, periodSchema, type Period, type PositionsCsv } from '@domain/payments';
import { fieldErrors } from '@domain/validation';
import { useState, type FormEvent } from 'react';
import { DataTable } from '@/components/data-table';
import { Dialog } from '@/components/dialog';
import { PageAlert } from '@/components/page-alert';
import { useApiMutation } from '@/lib/queries';
import { positionsCsv } from '../api/positions-csv';
import { ReportingButton } from './reporting-button';
import { positionsCsvIntro } from '../utils/platform-texts';

export const CSV_BUTTON = 'Verifica / genera CSV';

/**
 * The browser downloads the CSV from the API's short-lived link to the exports bucket; the link answers it
 * as an attachment under the name the API gives (`<nomeMyPay>_<yyyy>_<mm>.csv`), as the flows' files.
 */
const download = (url: string) => window.location.assign(url);

export interface CallPaymentActionsProps {
  callId: string;
  /** Positions were generated (for that month) or marked paid (any month): the page shows them as they are now. */
  onPositionsChanged: (period?: Period) => void;
  /** What 'Rendicontazione' answered, for the page to show under its buttons. */
  onMessage: (text: string, variation: 'success' | 'info' | 'error') => void;
}

/**
 * The payment buttons of the operator's call detail (part 2 §2.11). 'Verifica / genera CSV' asks for the
 * month and year (the current ones by default), generates that month's debt positions and downloads the
 * MyPay import CSV (on pagoPA GPD, the list of what the export will send there), then tells what changed and which
 * citizens were skipped and why.
 */
export function CallPaymentActions({ callId, onPositionsChanged, onMessage }: CallPaymentActionsProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>{CSV_BUTTON}</Button>
      {open && <CsvDialog callId={callId} onClose={() => setOpen(false)} onGenerated={onPositionsChanged} />}
      <ReportingButton
        callId={callId}
        onOutcome={(result, failure) => {
          if (!result) return onMessage(failure ?? '', 'error');
          onMessage(result.message, result.inProgress ? 'info' : 'success');
          if (result.marked > 0) onPositionsChanged();
        }}
      />
    </>
  );
}

function CsvDialog({
  callId,
  onClose,
  onGenerated,
}: {
  callId: string;
  onClose: () => void;
  onGenerated: (period: Period) => void;
}) {
  const now = currentPeriod(new Date());
  const [mese, setMese] = useState(String(now.mese));
  const [anno, setAnno] = useState(String(now.anno));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<PositionsCsv | null>(null);
  const action = useApiMutation(positionsCsv);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = periodSchema.safeParse({ mese, anno: anno.trim() });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setResult(null);
    const answer = await action.run(callId, parsed.data);
    if (answer.ok) {
      setResult(answer.data);
      onGenerated({ mese: answer.data.mese, anno: answer.data.anno });
      download(answer.data.url);
    }
  };

  return (
    <Dialog
      open
      title={CSV_BUTTON}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose} isDisabled={action.isRunning}>
            {result ? 'Chiudi' : 'Annulla'}
          </Button>
          <Button
            type="submit"
            form="positions-csv-form"
            variation="primary"
            isLoading={action.isRunning}
            loadingText="Generazione in corso..."
          >
            Genera e scarica CSV
          </Button>
        </>
      }
    >
      <form id="positions-csv-form" onSubmit={(event) => void submit(event)} noValidate>
        <Flex direction="column" gap="medium">
          <Text>{positionsCsvIntro()}</Text>
          <Flex direction={{ base: 'column', medium: 'row' }} gap="medium">
            <SelectField
              label="Mese"
              name="mese"
              value={mese}
              onChange={(event) => setMese(event.target.value)}
              hasError={Boolean(errors.mese)}
              errorMessage={errors.mese}
              flex="1"
            >
              {monthNames.map((name, index) => (
                <option key={name} value={String(index + 1)}>
                  {name}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Anno"
              name="anno"
              inputMode="numeric"
              maxLength={4}
              autoComplete="off"
              value={anno}
              onChange={(event) => setAnno(event.target.value)}
              hasError={Boolean(errors.anno)}
              errorMessage={errors.anno}
              flex="1"
            />
          </Flex>
          <PageAlert message={action.error?.message} autoHideMs={null} onDismiss={action.clearError} />
          {result && <CsvSummary result={result} />}
        </Flex>
      </form>
    </Dialog>
  );
}

function CsvSummary({ result }: { result: PositionsCsv }) {
  const month = `${monthNames[result.mese - 1]} ${result.anno}`;
  const heldBackCount = result.heldBackCount ?? result.heldBack.length;
  return (
    <Flex direction="column" gap="small" data-testid="csv-summary">
      <PageAlert
        variation="success"
        autoHideMs={null}
        isDismissible={false}
        message={`CSV di ${month} scaricato (${result.fileName}): ${counted(result.rows, ['posizione', 'posizioni'])} da inviare${
          heldBackCount ? `, ${counted(heldBackCount, ['trattenuta', 'trattenute'])} per dati da correggere` : ''
        }.`}
      />
      <Text>
        Posizioni create: {result.created} · aggiornate: {result.updated} · annullate: {result.cancelled} · invariate:{' '}
        {result.unchanged} · esenti (ISEE fino a 3.000 €): {result.exempt}
      </Text>
      {result.heldBack.length > 0 && (
        <DataTable
          caption="Posizioni trattenute (non nel CSV)"
          captionVisible
          columns={[
            { id: 'name', header: 'Cognome e nome', cell: (s) => `${s.cognome} ${s.nome}`, isRowHeader: true },
            { id: 'cf', header: 'Codice fiscale', cell: (s) => s.fiscalCode, noWrap: true },
            { id: 'reason', header: 'Dati da correggere', cell: (s) => s.reason },
          ]}
          rows={result.heldBack}
          rowKey={(s) => s.fiscalCode}
          emptyText=""
        />
      )}
      {result.heldBackUrl && (
        <a href={result.heldBackUrl} download>
          Scarica l’elenco completo delle posizioni trattenute ({heldBackCount})
        </a>
      )}
      {result.skipped.length > 0 && (
        <DataTable
          caption="Iscritti senza posizione"
          captionVisible
          columns={[
            { id: 'name', header: 'Cognome e nome', cell: (s) => `${s.cognome} ${s.nome}`, isRowHeader: true },
            { id: 'cf', header: 'Codice fiscale', cell: (s) => s.fiscalCode, noWrap: true },
            { id: 'reason', header: 'Motivo', cell: (s) => s.reason },
          ]}
          rows={result.skipped}
          rowKey={(s) => s.fiscalCode}
          emptyText=""
        />
      )}
      {result.skippedCount > result.skipped.length && (
        <Text>… e altri {result.skippedCount - result.skipped.length} iscritti senza posizione.</Text>
      )}
    </Flex>
  );
}
