import { Button, Flex, Heading, SelectField, Text } from '@aws-amplify/ui-react';
import { counted } from '@domain/messages';
import type { User } from '@domain/users';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { CursorPagination } from '@/components/cursor-pagination';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { errorMessage } from '@/lib/api';
import { enrolUser } from '../api/enrol-user';
import { exportEnrolments } from '../api/export-enrolments';
import { getEnrolmentTemplate } from '../api/get-template';
import { useEnrolments } from '../api/list-enrolments';
import { resetHours } from '../api/reset-hours';
import { ENROLMENT_PAGE_SIZES, type EnrolmentRow } from '../api/types';
import { updateEnrolmentRanking } from '../api/update-enrolment-ranking';
import { updateEnrolmentState } from '../api/update-enrolment-state';
import { downloadText } from '../utils/download';
import { stateCodeFor } from '../utils/enrolment-actions';
import { NO_BAND_TEXT, paramsWithView, showingText, viewFromParams } from '../utils/enrolment-format';
import { ActionError, useActionError } from './action-error';
import { ConfirmEnrolmentDialog, EditEnrolmentDialog } from './enrolment-dialogs';
import { EnrolmentFilters } from './enrolment-filters';
import { EnrolmentRowActions, type Pending } from './enrolment-row-actions';
import type { StartExport } from '../api/send-single-payment';
import { EnrolmentsTable } from './enrolments-table';
import { EnrolUserDialog, type LoadUsers } from './enrol-user-dialog';
import { ImportDialog } from './import-dialog';
import { ImportProgress, useImportStatus } from './import-progress';

export interface EnrolmentsSectionProps {
  call: { id: string; name: string; serviceName: string; subscriptionCount: number };
  /** A delegate reads the table: no action, no import, no reset, no enrolment. */
  readOnly: boolean;
  /** After a change: the page reloads the call (its count of requests). */
  onChanged?: () => void;
  /** The users' search for 'Iscrivi utente' (the users feature's). */
  loadUsers: LoadUsers;
  /** 'Pagamento singolo' (the flows feature's export). */
  startExport: StartExport;
}

/**
 * 'Iscritti al bando' on the operator's call detail (spec part 2 §2.11, §4): filters, sort and page size in
 * the address, the table with its actions by state, the enrolment, the CSV template, import and export,
 * and 'Reset ore'. Every change sends the version the operator saw (dataUpdate); a failure shows the
 * server's message in the corner for 5 s and in an 'Errore' dialog (spec part 2 §8).
 */
export function EnrolmentsSection({ call, readOnly, onChanged, loadUsers, startExport }: EnrolmentsSectionProps) {
  const [params, setParams] = useSearchParams();
  const view = viewFromParams(params);
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

  const setView = (next: Partial<typeof view>) =>
    setParams(paramsWithView(params, { ...view, ...next }), { replace: false });

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
      actionError.show(errorMessage(failure));
      // What the operator saw may be stale (another operator's change): show the table as it is now.
      list.reload();
      return false;
    } finally {
      setBusy(false);
    }
  };

  const name = (row: EnrolmentRow) => `${row.firstName} ${row.lastName}`;

  const download = async (load: () => Promise<{ fileName: string; content: string }>) => {
    try {
      const file = await load();
      downloadText(file.fileName, file.content);
    } catch (failure) {
      actionError.show(errorMessage(failure));
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
    const ok = await act(
      () => enrolUser(call.id, user.id),
      `${user.firstName} ${user.lastName} è stato iscritto al bando.`,
    );
    if (ok) closeEnrol();
  };

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

      <EnrolmentFilters filters={view.filters} onSearch={(filters) => setView({ filters })} />

      <PageAlert key={flash.key} {...flash.props} />
      {!readOnly && (
        <ImportProgress status={importStatus.status} watched={importStatus.watched} onDismiss={importStatus.dismiss} />
      )}
      {noBand && (
        <PageAlert
          variation="warning"
          autoHideMs={null}
          isDismissible={false}
          message={`${NO_BAND_TEXT} per alcuni iscritti: correggi le fasce ISEE del bando.`}
        />
      )}
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <EnrolmentsTable
          rows={list.items}
          serviceName={call.serviceName}
          sort={view.sort}
          onSort={(sort) => setView({ sort })}
          actions={
            readOnly
              ? undefined
              : (row) => (
                  <EnrolmentRowActions
                    row={row}
                    callId={call.id}
                    onConfirm={setConfirming}
                    onEdit={setEditing}
                    onAsk={setPending}
                    startExport={startExport}
                  />
                )
          }
        />
      )}
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Text role="status">
          {list.isLoaded && list.total !== undefined ? showingText(list.items.length, list.total) : ''}
        </Text>
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
              void act(
                () => updateEnrolmentState(row, stateCodeFor('VALIDATED'), weeklyHour),
                `L’iscrizione di ${name(row)} è stata confermata.`,
              ).then(() => setConfirming(null))
            }
          />
          <EditEnrolmentDialog
            row={editing}
            serviceName={call.serviceName}
            busy={busy}
            onCancel={() => setEditing(null)}
            onSave={(row, change) =>
              void act(
                async () => {
                  let current = row;
                  if (change.rankingScore !== undefined)
                    current = await updateEnrolmentRanking(current, change.rankingScore);
                  if (change.weeklyHour !== undefined)
                    await updateEnrolmentState(current, stateCodeFor('VALIDATED'), change.weeklyHour);
                },
                `L’iscrizione di ${name(row)} è stata aggiornata.`,
              ).then(() => setEditing(null))
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
          <EnrolUserDialog
            open={enrolOpen}
            callId={call.id}
            preselectedUserId={enrolUserId}
            busy={busy}
            onEnrol={(user) => void enrol(user)}
            onClose={closeEnrol}
            loadUsers={loadUsers}
          />
          <ImportDialog
            open={importOpen}
            callId={call.id}
            serviceName={call.serviceName}
            onClose={() => setImportOpen(false)}
            onStarted={importStatus.started}
          />
        </>
      )}
      <ActionError state={actionError} />
    </section>
  );
}
