import { Button, CheckboxField, Flex, Heading, SelectField, Text, TextField, VisuallyHidden } from '@aws-amplify/ui-react';
import { counted } from '@domain/messages';
import { subscriptionOperatorLabels, type SubscriptionState } from '@domain/subscriptions';
import type { User } from '@domain/users';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { deleteEnrolment } from '../api/delete-enrolment';
import { enrolUser } from '../api/enrol-user';
import { exportEnrolments } from '../api/export-enrolments';
import { getEnrolmentTemplate } from '../api/get-template';
import { useEnrolments } from '../api/list-enrolments';
import { resetHours } from '../api/reset-hours';
import { sendSinglePayment } from '../api/send-single-payment';
import { ENROLMENT_PAGE_SIZES, type EnrolmentRow, type EnrolmentFilters, type StateCode } from '../api/types';
import { updateEnrolmentRanking } from '../api/update-enrolment-ranking';
import { updateEnrolmentState } from '../api/update-enrolment-state';
import { downloadText } from '../utils/download';
import {
  actionsFor,
  EMPTY_TABLE,
  formatFee,
  formatHours,
  formatIsee,
  hoursHeader,
  iseeYearHint,
  NO_BAND_TEXT,
  paramsWithView,
  parseIseeAbove,
  showingText,
  SINGLE_PAYMENT_EXEMPT,
  sortDirection,
  toggleSort,
  viewFromParams,
  emptyFilters,
} from '../utils/enrolment-format';
import { ActionError, useActionError } from './action-error';
import { ConfirmEnrolmentDialog, EditEnrolmentDialog } from './enrolment-dialogs';
import { EnrolUserDialog } from './enrol-user-dialog';
import { ImportDialog } from './import-dialog';
import { ImportProgress, useImportStatus } from './import-progress';

export interface EnrolmentsSectionProps {
  call: { id: string; name: string; serviceName: string; subscriptionCount: number };
  /** A delegate reads the table: no action, no import, no reset, no enrolment. */
  readOnly: boolean;
  /** After a change: the page reloads the call (its count of requests). */
  onChanged?: () => void;
}

const stateIcons: Record<SubscriptionState, string> = { ADDED: '○', VALIDATED: '✓', SUSPENDED: '‖', REFUSED: '✗' };

function StateIcon({ state }: { state: SubscriptionState }) {
  const label = subscriptionOperatorLabels[state];
  return (
    <span className={`enrolment-state enrolment-state--${state.toLowerCase()}`} title={label}>
      <span aria-hidden="true">{stateIcons[state]}</span>
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}

/**
 * The single payment: sends this month's position of one citizen to MyPay (an export of one fiscal code).
 * Visibly disabled, with its reason in a tooltip the keyboard reaches too, when the ISEE is 3000 € or less.
 */
function SinglePaymentButton({ row, onSend }: { row: EnrolmentRow; onSend: () => void }) {
  const tipId = useId();
  if (row.singlePaymentAllowed) {
    return (
      <Button size="small" aria-label={`Pagamento singolo ${row.firstName} ${row.lastName}`} onClick={onSend}>
        Pagamento singolo
      </Button>
    );
  }
  const reason = SINGLE_PAYMENT_EXEMPT;
  return (
    <span className="tooltip-host">
      <button
        type="button"
        className="amplify-button amplify-button--small amplify-button--disabled"
        aria-disabled="true"
        aria-describedby={tipId}
        aria-label={`Pagamento singolo ${row.firstName} ${row.lastName}`}
        onClick={(event) => event.preventDefault()}
      >
        Pagamento singolo
      </button>
      <span role="tooltip" id={tipId} className="tooltip">
        {reason}
      </span>
    </span>
  );
}

/** A change waiting for 'Conferma'; `run` may return the success text, otherwise `done` shows. */
type Pending = { title: string; message: string; run: () => Promise<unknown>; done: string };

/**
 * 'Iscritti al bando' on the operator's call detail (spec part 2 §2.11, §4): filters, sort and page size in
 * the address, the table with its actions by state, the enrolment, the CSV template, import and export,
 * and 'Reset ore'. Every change sends the version the operator saw (dataUpdate); a failure shows the
 * server's message in the corner for 5 s and in an 'Errore' dialog (spec part 2 §8).
 */
export function EnrolmentsSection({ call, readOnly, onChanged }: EnrolmentsSectionProps) {
  const [params, setParams] = useSearchParams();
  const view = viewFromParams(params);
  const [draft, setDraft] = useState<EnrolmentFilters>(view.filters);
  const [iseeError, setIseeError] = useState<string | null>(null);
  const list = useEnrolments(call.id, view);
  const flash = useFlashMessage();
  const actionError = useActionError();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<EnrolmentRow | null>(null);
  const [editing, setEditing] = useState<EnrolmentRow | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const enrolUserId = params.get('enrolUserId');
  const [enrolOpen, setEnrolOpen] = useState(!readOnly && Boolean(enrolUserId));
  const [importOpen, setImportOpen] = useState(false);
  const importStatus = useImportStatus(
    call.id,
    () => {
      list.reload();
      onChanged?.();
    },
    !readOnly,
  );

  const setView = (next: Partial<typeof view>) => setParams(paramsWithView(params, { ...view, ...next }), { replace: false });

  /** Runs a change; on success the table reloads and `done` shows, on failure the spec's error notice. */
  const act = async (run: () => Promise<unknown>, done: string): Promise<boolean> => {
    setBusy(true);
    try {
      const result = await run();
      flash.show(typeof result === 'string' ? result : done, 'success');
      list.reload();
      onChanged?.();
      return true;
    } catch (failure) {
      actionError.show(failure instanceof ApiError ? failure.message : 'Oops qualcosa è andato storto. Riprova più tardi!');
      // What the operator saw may be stale (another operator's change): show the table as it is now.
      list.reload();
      return false;
    } finally {
      setBusy(false);
    }
  };

  const name = (row: EnrolmentRow) => `${row.firstName} ${row.lastName}`;
  const ask = (row: EnrolmentRow, code: StateCode, title: string, message: string, done: string) =>
    setPending({ title, message, done, run: () => updateEnrolmentState(row, code) });

  const search = (event: FormEvent) => {
    event.preventDefault();
    const above = parseIseeAbove(draft.iseeAbove);
    if (above !== null && Number.isNaN(above)) return setIseeError('Inserisci un importo valido (es. 12.000,50).');
    setIseeError(null);
    setView({ filters: draft });
  };
  const cancelSearch = () => {
    setDraft(emptyFilters);
    setIseeError(null);
    setView({ filters: emptyFilters });
  };

  const download = async (load: () => Promise<{ fileName: string; content: string }>) => {
    try {
      const file = await load();
      downloadText(file.fileName, file.content);
    } catch (failure) {
      actionError.show(failure instanceof ApiError ? failure.message : 'Oops qualcosa è andato storto. Riprova più tardi!');
    }
  };

  const closeEnrol = () => {
    setEnrolOpen(false);
    if (enrolUserId) {
      const next = new URLSearchParams(params);
      next.delete('enrolUserId');
      setParams(next, { replace: true });
    }
  };
  const enrol = async (user: User) => {
    const ok = await act(() => enrolUser(call.id, user.id), `${user.firstName} ${user.lastName} è stato iscritto al bando.`);
    if (ok) closeEnrol();
  };

  const rowActions = (row: EnrolmentRow) => {
    const who = name(row);
    const record = `${paths.userRecord}?citizen=${encodeURIComponent(row.userId)}`;
    return (
      <Flex gap="xs" justifyContent="flex-end" wrap="wrap" className="enrolment-actions">
        {actionsFor(row.state, readOnly).map((action) => {
          switch (action) {
            case 'confirm':
              return (
                <Button key={action} size="small" variation="primary" aria-label={`Conferma ${who}`} onClick={() => setConfirming(row)}>
                  Conferma
                </Button>
              );
            case 'refuse':
              return (
                <Button key={action} size="small" colorTheme="error" aria-label={`Rifiuta ${who}`} onClick={() => ask(row, 3, 'Rifiuta iscrizione', `Confermi di voler rifiutare la richiesta di ${who}?`, `La richiesta di ${who} è stata rifiutata.`)}>
                  Rifiuta
                </Button>
              );
            case 'edit':
              return (
                <Button key={action} size="small" aria-label={`Modifica ${who}`} onClick={() => setEditing(row)}>
                  Modifica
                </Button>
              );
            case 'view':
              return (
                <ButtonLink key={action} to={record} size="small" aria-label={`Visualizza pagamenti e profilo di ${who}`}>
                  Visualizza
                </ButtonLink>
              );
            case 'viewPayments':
              return (
                <ButtonLink key={action} to={record} size="small" aria-label={`Visualizza pagamenti di ${who}`}>
                  Visualizza pagamenti
                </ButtonLink>
              );
            case 'suspend':
              return (
                <Button key={action} size="small" aria-label={`Sospendi ${who}`} onClick={() => ask(row, 4, 'Sospendi iscrizione', `Confermi di voler sospendere l’iscrizione di ${who}?`, `L’iscrizione di ${who} è stata sospesa.`)}>
                  Sospendi
                </Button>
              );
            case 'reactivate':
              return (
                <Button key={action} size="small" variation="primary" aria-label={`Riattiva ${who}`} onClick={() => ask(row, 2, 'Riattiva iscrizione', `Confermi di voler riattivare l’iscrizione di ${who}?`, `L’iscrizione di ${who} è stata riattivata.`)}>
                  Riattiva
                </Button>
              );
            case 'reopen':
              return (
                <Button key={action} size="small" aria-label={`Riattiva ${who}`} onClick={() => ask(row, 0, 'Riattiva richiesta', `Confermi di voler riportare in attesa la richiesta di ${who}? Andrà poi confermata di nuovo.`, `La richiesta di ${who} è di nuovo in attesa.`)}>
                  Riattiva
                </Button>
              );
            case 'singlePayment':
              return (
                <SinglePaymentButton
                  key={action}
                  row={row}
                  onSend={() =>
                    setPending({
                      title: 'Pagamento singolo',
                      message: `Confermi di inviare a MyPay la posizione di questo mese di ${who}?`,
                      done: 'Invio a MyPay avviato: l’avanzamento è in Flussi MyPay.',
                      run: () => sendSinglePayment(call.id, row.fiscalCode),
                    })
                  }
                />
              );
            case 'delete':
              return (
                <Button
                  key={action}
                  size="small"
                  colorTheme="error"
                  aria-label={`Elimina ${who}`}
                  onClick={() =>
                    setPending({ title: 'Elimina iscrizione', message: `Confermi di voler eliminare l’iscrizione di ${who} dal bando?`, done: `L’iscrizione di ${who} è stata eliminata.`, run: () => deleteEnrolment(row.id) })
                  }
                >
                  Elimina
                </Button>
              );
          }
        })}
      </Flex>
    );
  };

  const columns: DataTableColumn<EnrolmentRow>[] = [
    {
      id: 'ranking',
      header: 'Graduatoria',
      cell: (r) => (r.rankingScore === null ? '—' : String(r.rankingScore)),
      align: 'end',
      sort: { direction: sortDirection(view.sort, 'ranking'), onToggle: () => setView({ sort: toggleSort(view.sort, 'ranking') }) },
    },
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.fiscalCode, isRowHeader: true, noWrap: true },
    { id: 'firstName', header: 'Nome', cell: (r) => r.firstName },
    { id: 'lastName', header: 'Cognome', cell: (r) => r.lastName },
    {
      id: 'isee',
      header: 'ISEE',
      noWrap: true,
      sort: { direction: sortDirection(view.sort, 'isee'), onToggle: () => setView({ sort: toggleSort(view.sort, 'isee') }) },
      cell: (r) => (
        <>
          {formatIsee(r.isee)}
          {r.iseeYearMismatch && (
            <span className="isee-mismatch" title={iseeYearHint(r.isee)}>
              {' '}
              <span aria-hidden="true">⚠</span>
              <VisuallyHidden>{iseeYearHint(r.isee)}</VisuallyHidden>
            </span>
          )}
        </>
      ),
    },
    { id: 'hours', header: hoursHeader(call.serviceName), cell: (r) => formatHours(r.weeklyHour), align: 'end' },
    {
      id: 'cost',
      header: 'Costo',
      noWrap: true,
      align: 'end',
      cell: (r) =>
        r.fee?.kind === 'NO_BAND' ? (
          <span className="fee-warning" title="Correggi le fasce ISEE del bando">
            {NO_BAND_TEXT}
            <VisuallyHidden>: correggi le fasce ISEE del bando</VisuallyHidden>
          </span>
        ) : (
          formatFee(r.fee, r.isee)
        ),
    },
    { id: 'state', header: 'Stato', cell: (r) => <StateIcon state={r.state} /> },
  ];
  if (!readOnly) columns.push({ id: 'actions', header: 'Azioni', cell: rowActions, align: 'end' });

  const noBand = list.items.some((row) => row.fee?.kind === 'NO_BAND');

  return (
    <section aria-labelledby="subscribers-title" className="call-section" data-testid="call-subscribers">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={2} id="subscribers-title">
          Iscritti al bando
        </Heading>
        {!readOnly && (
          <Flex gap="small" wrap="wrap" className="enrolment-toolbar">
            <Button variation="primary" onClick={() => setEnrolOpen(true)}>
              Iscrivi utente
            </Button>
            <Button onClick={() => void download(getEnrolmentTemplate)}>Scarica template CSV</Button>
            <Button onClick={() => setImportOpen(true)} isDisabled={importStatus.running}>
              Importa CSV
            </Button>
            <Button onClick={() => void download(() => exportEnrolments(call.id))}>Esporta CSV</Button>
            <Button
              onClick={() =>
                setPending({
                  title: 'Reset ore',
                  message: 'Confermi di voler azzerare le ore degli utenti accettati?',
                  done: 'Ore azzerate.',
                  run: async () => {
                    const { reset } = await resetHours(call.id);
                    return `Ore azzerate per ${counted(reset, ['utente', 'utenti'])}.`;
                  },
                })
              }
            >
              Reset ore
            </Button>
          </Flex>
        )}
      </Flex>
      <Text>
        Richieste di iscrizione ricevute: <strong data-testid="subscription-count">{call.subscriptionCount}</strong>
      </Text>

      <form onSubmit={search} role="search" aria-label="Filtra gli iscritti" className="filters">
        <Flex direction={{ base: 'column', large: 'row' }} gap="small" alignItems={{ base: 'stretch', large: 'flex-end' }} wrap="wrap">
          <TextField label="Codice fiscale" name="fiscalCode" size="small" autoComplete="off" value={draft.fiscalCode} onChange={(e) => setDraft({ ...draft, fiscalCode: e.target.value })} />
          <TextField label="Nome" name="firstName" size="small" autoComplete="off" value={draft.firstName} onChange={(e) => setDraft({ ...draft, firstName: e.target.value })} />
          <TextField label="Cognome" name="lastName" size="small" autoComplete="off" value={draft.lastName} onChange={(e) => setDraft({ ...draft, lastName: e.target.value })} />
          <TextField
            label="ISEE maggiore di (€)"
            name="iseeAbove"
            size="small"
            inputMode="decimal"
            autoComplete="off"
            value={draft.iseeAbove}
            onChange={(e) => setDraft({ ...draft, iseeAbove: e.target.value })}
            hasError={iseeError !== null}
            errorMessage={iseeError ?? undefined}
          />
          <CheckboxField name="confirmed" label="Confermati" value="true" checked={draft.confirmed} onChange={(e) => setDraft({ ...draft, confirmed: e.target.checked })} />
          <Button type="submit" variation="primary" size="small">
            Cerca
          </Button>
          <Button size="small" onClick={cancelSearch}>
            Annulla
          </Button>
        </Flex>
      </form>

      <PageAlert key={flash.key} {...flash.props} />
      {!readOnly && <ImportProgress status={importStatus.status} watched={importStatus.watched} onDismiss={importStatus.dismiss} />}
      {noBand && <PageAlert variation="warning" autoHideMs={null} isDismissible={false} message={`${NO_BAND_TEXT} per alcuni iscritti: correggi le fasce ISEE del bando.`} />}
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="Utenti iscritti al bando"
          columns={columns}
          rows={list.items}
          rowKey={(r) => r.id}
          emptyText={EMPTY_TABLE}
          rowClassName={(r) => (r.iseeYearMismatch ? 'row--isee-mismatch' : undefined)}
        />
      )}
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Text role="status">{list.isLoaded && list.total !== undefined ? showingText(list.items.length, list.total) : ''}</Text>
        <SelectField
          label="Righe per pagina"
          size="small"
          value={String(view.limit)}
          onChange={(e) => setView({ limit: Number(e.target.value) as typeof view.limit })}
        >
          {ENROLMENT_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </SelectField>
      </Flex>
      <CursorPagination {...list.pagination} label="Paginazione degli iscritti" />

      {!readOnly && (
        <>
          <ConfirmEnrolmentDialog
            row={confirming}
            serviceName={call.serviceName}
            busy={busy}
            onCancel={() => setConfirming(null)}
            onConfirm={(row, weeklyHour) =>
              void act(() => updateEnrolmentState(row, 2, weeklyHour), `L’iscrizione di ${name(row)} è stata confermata.`).then(() => setConfirming(null))
            }
          />
          <EditEnrolmentDialog
            row={editing}
            serviceName={call.serviceName}
            busy={busy}
            onCancel={() => setEditing(null)}
            onSave={(row, change) =>
              void act(async () => {
                let current = row;
                if (change.rankingScore !== undefined) current = await updateEnrolmentRanking(current, change.rankingScore);
                if (change.weeklyHour !== undefined) await updateEnrolmentState(current, 2, change.weeklyHour);
              }, `L’iscrizione di ${name(row)} è stata aggiornata.`).then(() => setEditing(null))
            }
          />
          <ConfirmDialog
            open={pending !== null}
            title={pending?.title ?? ''}
            message={pending?.message}
            busy={busy}
            onCancel={() => setPending(null)}
            onConfirm={() => pending && void act(pending.run, pending.done).then(() => setPending(null))}
          />
          <EnrolUserDialog open={enrolOpen} callId={call.id} preselectedUserId={enrolUserId} busy={busy} onEnrol={(user) => void enrol(user)} onClose={closeEnrol} />
          <ImportDialog open={importOpen} callId={call.id} serviceName={call.serviceName} onClose={() => setImportOpen(false)} onStarted={importStatus.started} />
        </>
      )}
      <ActionError state={actionError} />
    </section>
  );
}
