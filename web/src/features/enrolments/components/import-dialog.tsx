import { Button, CheckboxField, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useId, useRef, useState } from 'react';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { Dialog } from '@/components/dialog';
import { PageAlert } from '@/components/page-alert';
import { errorMessage } from '@/lib/api';
import { applyImport } from '../api/apply-import';
import { importEnrolments } from '../api/import-enrolments';
import type { ImportPreview, ImportRequest, ImportRow, ImportStatus } from '../api/types';
import { fileToBase64 } from '../utils/download';
import { csvFileProblem, hoursHeader } from '../utils/enrolment-format';
import { formatHours } from '@domain/fee';
import { formatEuroCents } from '@domain/money';

/** Rows shown per preview list: a 5,000-row file stays readable; the counts say the rest. */
const PREVIEW_ROWS = 100;

type Phase =
  | { kind: 'choose' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'analysing' }
  | { kind: 'preview'; preview: ImportPreview; request: ImportRequest }
  | { kind: 'applying'; preview: ImportPreview; request: ImportRequest };

export interface ImportDialogProps {
  open: boolean;
  callId: string;
  /** 'Ore' or 'Corse' (taxi services) in the preview. */
  serviceName: string;
  onClose: () => void;
  /** 'Applica' started the background import: the dialog closes and the section follows its progress. */
  onStarted: (status: ImportStatus) => void;
}

const rowColumns = (serviceName: string): DataTableColumn<ImportRow>[] => [
  { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.fiscalCode, isRowHeader: true, noWrap: true },
  { id: 'name', header: 'Cognome e nome', cell: (r) => `${r.lastName} ${r.firstName}` },
  {
    id: 'ranking',
    header: 'Punteggio',
    cell: (r) => (r.rankingScore === null ? '—' : String(r.rankingScore)),
    align: 'end',
  },
  { id: 'hours', header: hoursHeader(serviceName), cell: (r) => formatHours(r.weeklyHour), align: 'end' },
  {
    id: 'isee',
    header: 'ISEE',
    cell: (r) =>
      r.iseeValueCents === null ? '—' : `${formatEuroCents(r.iseeValueCents)}${r.iseeYear ? ` (${r.iseeYear})` : ''}`,
    noWrap: true,
  },
  { id: 'changes', header: 'Modifiche', cell: (r) => r.changes.join(', ') },
];

type Rejected = ImportPreview['rejected'][number];
const rejectedColumns: DataTableColumn<Rejected>[] = [
  { id: 'line', header: 'Riga', cell: (r) => String(r.line), isRowHeader: true, align: 'end' },
  { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.fiscalCode ?? '—', noWrap: true },
  { id: 'reason', header: 'Motivo', cell: (r) => r.reason },
];

type DifferentNames = ImportPreview['differentNames'][number];
const differentNamesColumns: DataTableColumn<DifferentNames>[] = [
  { id: 'line', header: 'Riga', cell: (r) => String(r.line), isRowHeader: true, align: 'end' },
  { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.fiscalCode, noWrap: true },
  { id: 'inFile', header: 'Nel file', cell: (r) => r.inFile },
  { id: 'registered', header: 'In anagrafe', cell: (r) => r.registered },
];

function PreviewList<T>({
  title,
  rows,
  columns,
  rowKey,
  hint,
}: {
  title: string;
  rows: T[];
  columns: DataTableColumn<T>[];
  rowKey: (row: T, index: number) => string;
  hint?: string;
}) {
  const shown = rows.slice(0, PREVIEW_ROWS);
  return (
    <section className="import-preview__list">
      <Heading level={3}>{`${title} (${rows.length})`}</Heading>
      {hint && rows.length > 0 && <Text className="form-hint">{hint}</Text>}
      {rows.length > 0 && (
        <>
          <DataTable
            caption={title}
            columns={columns}
            rows={shown}
            rowKey={(row) => rowKey(row, shown.indexOf(row))}
            emptyText=""
          />
          {rows.length > PREVIEW_ROWS && (
            <Text className="form-hint">{`Sono mostrate le prime ${PREVIEW_ROWS} righe su ${rows.length}.`}</Text>
          )}
        </>
      )}
    </section>
  );
}

function Preview({ preview, serviceName }: { preview: ImportPreview; serviceName: string }) {
  const columns = rowColumns(serviceName);
  return (
    <Flex direction="column" gap="small" className="import-preview">
      <Text>{`Righe invariate: ${preview.unchanged}.`}</Text>
      <PreviewList title="Da aggiungere" rows={preview.add} columns={columns} rowKey={(r) => `a-${r.fiscalCode}`} />
      <PreviewList title="Da aggiornare" rows={preview.update} columns={columns} rowKey={(r) => `u-${r.fiscalCode}`} />
      <PreviewList title="Da rimuovere" rows={preview.remove} columns={columns} rowKey={(r) => `r-${r.fiscalCode}`} />
      <PreviewList
        title="Righe scartate"
        rows={preview.rejected}
        columns={rejectedColumns}
        rowKey={(r, i) => `x-${r.line}-${i}`}
      />
      {preview.differentNames.length > 0 && (
        <PreviewList
          title="Nomi diversi dall’anagrafe"
          hint="Il file riporta per questi cittadini un cognome o un nome diverso da quello registrato: l’importazione non cambia l’anagrafe e usa i nomi registrati."
          rows={preview.differentNames}
          columns={differentNamesColumns}
          rowKey={(r) => `n-${r.line}`}
        />
      )}
    </Flex>
  );
}

/**
 * 'Importa CSV': a .csv file, the options 'Aggiorna ISEE' and 'Rimuovi iscrizioni non presenti nel file',
 * 'Anteprima' (upload progress, then the analysis), the preview of every effect, and only then 'Applica'.
 */
export function ImportDialog({ open, callId, serviceName, onClose, onStarted }: ImportDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [updateIsees, setUpdateIsees] = useState(false);
  const [removeOld, setRemoveOld] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const fileErrorId = useId();

  const reset = () => {
    setFile(null);
    setFileError(null);
    setUpdateIsees(false);
    setRemoveOld(false);
    setPhase({ kind: 'choose' });
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const previewFile = async () => {
    const problem = csvFileProblem(file);
    setFileError(problem);
    setError(null);
    if (problem || !file) return input.current?.focus();
    const request: ImportRequest = {
      fileContentBase64: await fileToBase64(file),
      contentType: 'text/csv',
      updateIsees,
      removeOldSubscriptions: removeOld,
    };
    setPhase({ kind: 'uploading', fraction: 0 });
    try {
      const preview = await importEnrolments(callId, request, (fraction) =>
        setPhase(fraction >= 1 ? { kind: 'analysing' } : { kind: 'uploading', fraction }),
      );
      setPhase({ kind: 'preview', preview, request });
    } catch (failure) {
      setError(errorMessage(failure));
      setPhase({ kind: 'choose' });
    }
  };

  const apply = async () => {
    if (phase.kind !== 'preview') return;
    setPhase({ kind: 'applying', preview: phase.preview, request: phase.request });
    try {
      // Exactly the preview shown is applied (the server stored it); a changed call is refused (409).
      const status = await applyImport(callId, phase.preview.previewId ?? '');
      close();
      onStarted(status);
    } catch (failure) {
      setError(errorMessage(failure));
      setPhase({ kind: 'preview', preview: phase.preview, request: phase.request });
    }
  };

  const working = phase.kind === 'uploading' || phase.kind === 'analysing' || phase.kind === 'applying';
  const actions = (
    <>
      <Button onClick={close} isDisabled={working && phase.kind === 'applying'}>
        Annulla
      </Button>
      {(phase.kind === 'choose' || phase.kind === 'uploading' || phase.kind === 'analysing') && (
        <Button
          variation="primary"
          onClick={() => void previewFile()}
          isLoading={working}
          loadingText="Anteprima in corso..."
        >
          Anteprima
        </Button>
      )}
      {(phase.kind === 'preview' || phase.kind === 'applying') && (
        <>
          <Button onClick={reset} isDisabled={phase.kind === 'applying'}>
            Cambia file
          </Button>
          <Button
            variation="primary"
            onClick={() => void apply()}
            isLoading={phase.kind === 'applying'}
            loadingText="Avvio dell’importazione..."
          >
            Applica
          </Button>
        </>
      )}
    </>
  );

  return (
    <Dialog open={open} title="Importa CSV" onClose={close} wide actions={actions}>
      <Flex direction="column" gap="medium">
        {phase.kind === 'choose' || phase.kind === 'uploading' || phase.kind === 'analysing' ? (
          <>
            <Text className="form-hint">
              Il file deve avere le colonne del template
              (codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee). Nulla viene salvato prima di
              «Applica».
            </Text>
            <Flex direction="column" gap="xxs">
              <label htmlFor="import-file" className="amplify-label">
                File CSV
              </label>
              <input
                id="import-file"
                ref={input}
                type="file"
                accept=".csv,text/csv"
                aria-invalid={fileError !== null}
                aria-describedby={fileError ? fileErrorId : undefined}
                disabled={working}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setFileError(null);
                }}
              />
              {fileError && (
                <Text id={fileErrorId} className="form-error" role="alert">
                  {fileError}
                </Text>
              )}
            </Flex>
            <CheckboxField
              name="updateIsees"
              label="Aggiorna ISEE"
              value="true"
              checked={updateIsees}
              isDisabled={working}
              onChange={(e) => setUpdateIsees(e.target.checked)}
            />
            <CheckboxField
              name="removeOldSubscriptions"
              label="Rimuovi iscrizioni non presenti nel file"
              value="true"
              checked={removeOld}
              isDisabled={working}
              onChange={(e) => setRemoveOld(e.target.checked)}
            />
            {phase.kind === 'uploading' && (
              <Flex direction="column" gap="xxs" role="status">
                <label htmlFor="import-progress">{`Caricamento del file: ${Math.round(phase.fraction * 100)}%`}</label>
                <progress id="import-progress" max={100} value={Math.round(phase.fraction * 100)} />
              </Flex>
            )}
            {phase.kind === 'analysing' && (
              <Flex direction="column" gap="xxs" role="status">
                <label htmlFor="import-analysis">Analisi del file in corso…</label>
                <progress id="import-analysis" />
              </Flex>
            )}
          </>
        ) : (
          <>
            <Text>
              Anteprima: controlla le modifiche, poi premi «Applica» per salvarle. L’importazione prosegue anche se
              chiudi la pagina.
            </Text>
            <Preview preview={phase.preview} serviceName={serviceName} />
          </>
        )}
        <PageAlert message={error} autoHideMs={null} onDismiss={() => setError(null)} />
      </Flex>
    </Dialog>
  );
}
