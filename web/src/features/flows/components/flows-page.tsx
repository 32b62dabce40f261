import { Badge, Button, Flex, Heading, TextField } from '@aws-amplify/ui-react';
import type { Flow } from '@domain/flow-schemas';
import { flowMessages, isFlowRunning, type FlowFileKind } from '@domain/flows';
import { counted } from '@domain/messages';
import type { FlowEmailResult } from '@domain/notice-schemas';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { getFlowFile } from '../api/get-flow-file';
import { useFlows } from '../api/get-flows';
import { restartFlow } from '../api/restart-flow';
import { FlowEmailButton } from './flow-email-button';
import { HeldBackList } from './send-to-mypay';
import { formatDateTime } from '@/lib/dates';

const monthFormat = new Intl.DateTimeFormat('it-IT', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const NO_LINK = 'Nessun link presente';
/** While a flow advances the page asks again this often, so the operator sees it without reloading. */
const REFRESH_MS = 3000;

function StateBadge({ flow }: { flow: Flow }) {
  // A suspended flow waits for MyPay: not an error.
  const variation =
    flow.stato === 'IMPORT_ESEGUITO'
      ? 'success'
      : isFlowRunning(flow)
        ? 'info'
        : flow.step === 'SOSPESO'
          ? 'warning'
          : 'error';
  return <Badge variation={variation}>{flow.statoLabel}</Badge>;
}

/** A button that cannot be used, and says why in a tooltip reachable from the keyboard. */
function DisabledWithReason({ label, reason, text }: { label: string; reason: string; text: string }) {
  return (
    <span
      className="tooltip-wrapper"
      role="button"
      aria-disabled="true"
      tabIndex={0}
      title={reason}
      aria-label={`${label}: ${reason}`}
    >
      <Button size="small" isDisabled tabIndex={-1} aria-hidden="true">
        {text}
      </Button>
    </span>
  );
}

const FILES: { kind: FlowFileKind; label: string }[] = [
  { kind: 'avvisi', label: 'Avvisi' },
  { kind: 'iuv', label: 'IUV' },
  { kind: 'scarti', label: 'Scartati' },
];

/** The expandable area with the links to MyPay's result files; closed and disabled while none is there. */
function FlowFiles({ flow, onError }: { flow: Flow; onError: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!flow.available)
    return <DisabledWithReason label={`Esiti del flusso ${flow.announcement.name}`} reason={NO_LINK} text="Esiti" />;
  const openFile = async (kind: FlowFileKind) => {
    try {
      const { url } = await getFlowFile(flow.id, kind);
      window.location.assign(url);
    } catch (error) {
      onError((error as Error).message);
    }
  };
  return (
    <div>
      <Button size="small" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        Esiti
      </Button>
      <div id={panelId} hidden={!open} className="flow-files">
        <Flex gap="xs" wrap="wrap" marginTop="xs">
          {FILES.map(({ kind, label }) =>
            flow.files[kind].available ? (
              <Button
                key={kind}
                size="small"
                variation="link"
                onClick={() => void openFile(kind)}
                aria-label={`${label} del flusso ${flow.announcement.name}`}
              >
                {label}
              </Button>
            ) : (
              <DisabledWithReason
                key={kind}
                label={`${label} del flusso ${flow.announcement.name}`}
                reason={NO_LINK}
                text={label}
              />
            ),
          )}
        </Flex>
      </div>
    </div>
  );
}

/**
 * /flussi_mypay ('Flussi MyPay'; 'Flussi pagoPA' on pagoPA GPD, where the positions are published one by one and
 * there are no result files): the exports, newest first, one hundred per page; search by title (kept in
 * `descrizione`), each flow's state and files, 'Rielabora' for a flow that stopped.
 */
export function FlowsPage() {
  const [params, setParams] = useSearchParams();
  const descrizione = params.get('descrizione') ?? '';
  const [text, setText] = useState(descrizione);
  const flows = useFlows(descrizione);
  const flash = useFlashMessage();
  const [restarting, setRestarting] = useState<string | null>(null);
  const anyRunning = flows.items.some(isFlowRunning);
  // The platform the flows go to, as the API says: MyPay's result files (Avvisi, IUV, Scartati) only on MyPay.
  const platform = flows.page?.platform;
  const importFiles = platform?.capabilities.importFiles ?? false;
  const platformTitle = platform?.name === 'gpd' ? 'pagoPA' : 'MyPay';
  const { reload } = flows;

  useEffect(() => {
    if (!anyRunning) return;
    const timer = window.setInterval(reload, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [anyRunning, reload]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setParams(text.trim() ? { descrizione: text.trim() } : {});
  };
  const clear = () => {
    setText('');
    setParams({});
  };
  const restart = async (flow: Flow) => {
    setRestarting(flow.id);
    try {
      await restartFlow(flow.id);
      flash.show(flowMessages.restarted, 'success');
      reload();
    } catch {
      flash.show(flowMessages.restartFailed, 'error');
    } finally {
      setRestarting(null);
    }
  };

  /** 'Invia email' came back: the run's message (success for 4 s, as the spec's flow e-mail), or why it failed. */
  const showFlash = flash.show;
  const emailsDone = useCallback(
    (result: FlowEmailResult | Error) => {
      if (result instanceof Error) showFlash(result.message, 'error');
      else showFlash(result.error ?? result.message, result.state === 'FAILED' ? 'error' : 'success');
      reload();
    },
    [showFlash, reload],
  );

  const columns: DataTableColumn<Flow>[] = [
    { id: 'dataInsert', header: 'Data inserimento', cell: (f) => formatDateTime(f.dataInsert), noWrap: true },
    { id: 'stato', header: 'Stato', cell: (f) => <StateBadge flow={f} /> },
    {
      id: 'email',
      header: 'Email',
      cell: (f) => (
        <Badge variation={f.isEmailSent ? 'success' : 'warning'}>
          {f.isEmailSent ? 'Email inviate' : 'Email non inviate'}
        </Badge>
      ),
    },
    { id: 'service', header: 'Servizio', cell: (f) => f.announcement.service.name, breakWords: true },
    { id: 'call', header: 'Bando', cell: (f) => f.announcement.name, isRowHeader: true, breakWords: true },
    {
      id: 'month',
      header: 'Mese',
      cell: (f) => (
        <>
          {monthFormat.format(new Date(Date.UTC(f.anno, f.mese - 1, 1)))}
          {f.fiscalCode && <div className="form-hint">Solo {f.fiscalCode}</div>}
        </>
      ),
      noWrap: true,
    },
    {
      id: 'num',
      header: 'Numero',
      cell: (f) => (
        <span
          aria-label={`${counted(f.num, ['posizione', 'posizioni'])}${f.accepted !== null ? `, ${counted(f.accepted, ['accettata', 'accettate'])}, ${counted(f.rejected ?? 0, ['scartata', 'scartate'])}` : ''}`}
        >
          {f.num}
          {f.accepted !== null && (
            <span className="form-hint">
              {' '}
              ({f.accepted} ✓ · {f.rejected} ✗)
            </span>
          )}
        </span>
      ),
      align: 'end',
    },
    {
      id: 'progress',
      header: 'Avanzamento',
      cell: (f) => (
        <>
          <span className={f.available ? 'flow-valid' : undefined}>{f.stepLabel}</span>
          {f.error && <div className={`form-hint ${f.step === 'ERRORE' ? 'flow-error' : ''}`}>{f.error}</div>}
          <HeldBackList flow={f} />
        </>
      ),
    },
    {
      id: 'actions',
      header: 'Azioni',
      align: 'end',
      // The buttons wrap rather than push the table wider ('Invio in corso... (12 inviate)' is long).
      cell: (f) => (
        <Flex gap="xs" justifyContent="flex-end" alignItems="flex-start" wrap="wrap">
          {f.step === 'COMPLETATO' ? (
            <FlowEmailButton flow={f} onDone={emailsDone} />
          ) : (
            <DisabledWithReason
              label={`Invia email del flusso ${f.announcement.name}`}
              reason="Il flusso non è ancora completato."
              text="Invia email"
            />
          )}
          {f.step === 'ERRORE' || f.step === 'SOSPESO' ? (
            <Button
              size="small"
              isLoading={restarting === f.id}
              aria-label={`Rielabora il flusso ${f.announcement.name}`}
              onClick={() => void restart(f)}
            >
              Rielabora
            </Button>
          ) : (
            <DisabledWithReason
              label={`Rielabora il flusso ${f.announcement.name}`}
              reason="Il flusso non è interrotto."
              text="Rielabora"
            />
          )}
          {importFiles && <FlowFiles flow={f} onError={(message) => flash.show(message, 'error')} />}
        </Flex>
      ),
    },
  ];

  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Flussi {platformTitle}</Heading>
      <form onSubmit={search} role="search" aria-label="Ricerca dei flussi">
        <Flex gap="small" alignItems="flex-end" wrap="wrap">
          <TextField
            label="Titolo"
            name="descrizione"
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={100}
          />
          <Button type="button" onClick={clear}>
            Annulla
          </Button>
          <Button type="submit" variation="primary">
            Cerca
          </Button>
        </Flex>
      </form>
      <PageAlert key={flash.key} {...flash.props} />
      {flows.error ? (
        <ErrorState message={flows.error.message} />
      ) : !flows.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption={`Flussi inviati a ${platformTitle}`}
          columns={columns}
          rows={flows.items}
          rowKey={(f) => f.id}
          emptyText="Nessun flusso trovato."
        />
      )}
      <CursorPagination {...flows.pagination} label="Paginazione dei flussi" />
    </Flex>
  );
}
