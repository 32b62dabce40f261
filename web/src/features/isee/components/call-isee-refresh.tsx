import { Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import type { RefreshRow, RefreshStatus } from '@domain/isee-refresh';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { JobStartButton } from '@/components/job-start-button';
import { PageAlert } from '@/components/page-alert';
import { useStartedJob } from '@/components/use-job-status';
import { getCallIseeRefresh, startCallIseeRefresh } from '../api/inps';
import { formatTimestamp } from '@/lib/dates';
import { euroOrDash } from '../utils/isee-form';

const POLL_MS = 2000;
export const REFRESH_QUESTION =
  'Il Comune chiederà all’INPS, tramite PDND, l’ISEE valido oggi di ogni iscritto approvato del bando. Procedere?';

/**
 * 'Aggiorna ISEE da INPS' on a call (operators): every approved subscriber's ISEE asked of INPS in a
 * background job, its progress while it runs, and the report: who has a new value, who has none, who has
 * omissions (to review) and whom INPS did not answer. A failed run says why; pressed again, it resumes.
 */
export function CallIseeRefresh({ callId, onDone }: { callId: string; onDone?: () => void }) {
  const job = useStartedJob<RefreshStatus>({
    key: callId,
    fetch: () => getCallIseeRefresh(callId),
    start: () => startCallIseeRefresh(callId),
    isRunning: (s) => s.isUpdating,
    pollMs: POLL_MS,
    onEnd: () => onDone?.(),
  });
  const { status } = job;
  return (
    <Card variation="outlined">
      <Flex direction="column" gap="small">
        <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
          <Heading level={2}>ISEE degli iscritti</Heading>
          <JobStartButton
            job={job}
            label="Aggiorna ISEE da INPS"
            runningLabel="Aggiornamento ISEE in corso..."
            question={REFRESH_QUESTION}
          />
        </Flex>
        <PageAlert message={job.error} autoHideMs={null} onDismiss={() => job.setError(null)} />
        {status && status.state !== 'NONE' && <RefreshReport status={status} />}
      </Flex>
    </Card>
  );
}

const sections = [
  { outcome: 'NEW', title: 'Nuovo valore da INPS' },
  { outcome: 'REVIEW', title: 'Con omissioni o difformità: tra gli ISEE da verificare' },
  { outcome: 'NONE', title: 'Nessun ISEE valido presso INPS' },
  { outcome: 'ERROR', title: 'INPS non ha risposto: da riprovare' },
] as const;

/** The run's progress and, per outcome, how many and who (the first 50 of each). */
export function RefreshReport({ status }: { status: RefreshStatus }) {
  const { counts } = status;
  const columns: DataTableColumn<RefreshRow>[] = [
    { id: 'name', header: 'Iscritto', cell: (r) => `${r.lastName} ${r.firstName}`, isRowHeader: true },
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.fiscalCode, noWrap: true },
    { id: 'value', header: 'ISEE', cell: (r) => euroOrDash(r.value), align: 'end', noWrap: true },
    { id: 'detail', header: 'Note', cell: (r) => r.detail ?? '—' },
  ];
  return (
    <Flex direction="column" gap="small">
      <Text role="status">
        {status.isUpdating
          ? `Aggiornamento in corso: ${status.done}${status.total !== null ? ` su ${status.total}` : ''} iscrizioni esaminate.`
          : status.state === 'FAILED'
            ? `Aggiornamento interrotto: ${status.error ?? ''}`
            : `Ultimo aggiornamento completato${status.endedAt ? ` il ${formatTimestamp(status.endedAt)}` : ''}.`}
      </Text>
      <Text>
        Nuovo valore: <strong>{counts.NEW}</strong> · Con omissioni: <strong>{counts.REVIEW}</strong> · Nessun ISEE:{' '}
        <strong>{counts.NONE}</strong> · Invariati: <strong>{counts.UNCHANGED}</strong> · Da riprovare:{' '}
        <strong>{counts.ERROR}</strong>
      </Text>
      {sections
        .filter(({ outcome }) => counts[outcome] > 0)
        .map(({ outcome, title }) => (
          <details key={outcome} className="refresh-report__section">
            <summary>
              {title} ({counts[outcome]})
            </summary>
            <DataTable
              caption={title}
              columns={columns}
              rows={status.lists[outcome]}
              rowKey={(r) => r.userId}
              emptyText="Nessuno."
            />
            {counts[outcome] > status.lists[outcome].length && (
              <Text fontSize="small">Sono mostrati i primi {status.lists[outcome].length}.</Text>
            )}
          </details>
        ))}
    </Flex>
  );
}
