import { Badge, Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { italianDay } from '@domain/period';
import type { ExpiryList, ExpiryRow, ReminderChannelState } from '@domain/isee-refresh';
import { useState } from 'react';
import { CursorPagination, useCursorList } from '@/components/cursor-pagination';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { useJobStatus } from '@/components/use-job-status';
import { getIseeExpiry, startIseeExpiry, startIseeNewYear } from '../api/inps';
import { RefreshReport } from './call-isee-refresh';
import { formatDay, formatTimestamp } from '@/lib/dates';

const POLL_MS = 2000;
const channel = (state: ReminderChannelState | null) =>
  state === 'SENT' ? 'inviato' : state === 'NO_CHANNEL' ? 'non disponibile' : state === 'FAILED' ? 'non riuscito' : '—';

/** The expiry run's status line. From the click until the new run's status arrives, the previous run's time would read as this one's. */
function expiryStatusLine(starting: boolean, job: ExpiryList['job'] | undefined): string {
  if (starting) return 'Avvio del controllo delle scadenze…';
  if (job?.isUpdating)
    return job.total !== null ? `Controllo in corso: ${job.done} su ${job.total} iscrizioni.` : 'Controllo in corso…';
  return job?.endedAt ? `Elenco aggiornato il ${formatTimestamp(job.endedAt)}.` : '';
}

/**
 * On /lista_isee: the ISEE expiring and expired among active subscribers (a DSU is valid until 31 December),
 * the reminders sent (IO and e-mail, once, from the configured day of December), and the two jobs the
 * schedules run in the cloud: 'Aggiorna elenco e promemoria' and, at the start of the year, 'Recupera i
 * nuovi ISEE da INPS'.
 */
export function IseeExpirySection() {
  const list = useCursorList<ExpiryRow>(['isee', 'expiry'], (cursor) => getIseeExpiry(cursor));
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState<'expiry' | 'newYear' | null>(null);
  const jobs = useJobStatus<ExpiryList>({
    key: 'isee-expiry',
    fetch: () => getIseeExpiry(null),
    isRunning: (s) => s.job.isUpdating || s.newYearJob.isUpdating,
    pollMs: POLL_MS,
    onEnd: () => list.reload(),
  });
  const status = jobs.status;
  const start = async (job: 'expiry' | 'newYear', what: () => Promise<unknown>) => {
    setStarting(job);
    setError(null);
    try {
      await what();
      jobs.setStatus(await getIseeExpiry(null));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStarting(null);
    }
  };
  const columns: DataTableColumn<ExpiryRow>[] = [
    { id: 'name', header: 'Iscritto', cell: (r) => `${r.lastName} ${r.firstName}`, isRowHeader: true },
    { id: 'fiscalCode', header: 'Codice fiscale', cell: (r) => r.fiscalCode, noWrap: true },
    {
      id: 'status',
      header: 'ISEE',
      cell: (r) =>
        r.renewed ? (
          <Badge variation="success">Rinnovato</Badge>
        ) : (
          <Badge variation={r.status === 'IN_SCADENZA' || r.status === 'IN_VERIFICA' ? 'warning' : 'error'}>
            {r.statusLabel}
          </Badge>
        ),
      noWrap: true,
    },
    { id: 'expiry', header: 'Scadenza', cell: (r) => italianDay(r.scadenza), noWrap: true },
    {
      id: 'reminder',
      header: 'Promemoria',
      cell: (r) => (r.remindedAt ? `${formatDay(r.remindedAt)}: IO ${channel(r.io)}, e-mail ${channel(r.email)}` : '—'),
    },
  ];
  const running = jobs.running || starting !== null;
  return (
    <Flex direction="column" gap="small">
      <Heading level={2}>ISEE in scadenza o scaduti degli iscritti</Heading>
      <Text>
        Un ISEE vale fino al 31 dicembre dell’anno in cui è stata presentata la DSU: dal 1° gennaio la quota di un
        iscritto senza un ISEE valido non si calcola (ISEE scaduto o mancante).
        {status &&
          ` Dal ${italianDay(status.remindersFrom)} chi ha l’ISEE in scadenza riceve un promemoria sull’app IO e per e-mail, una volta sola.`}
      </Text>
      <PageAlert message={error} autoHideMs={null} onDismiss={() => setError(null)} />
      <Flex gap="small" wrap="wrap">
        <Button isDisabled={running} onClick={() => void start('expiry', startIseeExpiry)}>
          {status?.job.isUpdating ? 'Controllo delle scadenze in corso...' : 'Aggiorna elenco e promemoria'}
        </Button>
        <Button isDisabled={running} onClick={() => void start('newYear', startIseeNewYear)}>
          {status?.newYearJob.isUpdating ? 'Recupero da INPS in corso...' : 'Recupera i nuovi ISEE da INPS'}
        </Button>
      </Flex>
      {status?.job.state === 'FAILED' && (
        <PageAlert message={status.job.error} autoHideMs={null} isDismissible={false} />
      )}
      {(starting === 'expiry' || (status && status.job.state !== 'NONE')) && (
        <Text fontSize="small" role="status">
          {expiryStatusLine(starting === 'expiry', status?.job)}
        </Text>
      )}
      {status && status.newYearJob.state !== 'NONE' && <RefreshReport status={status.newYearJob} />}
      {list.error ? (
        <ErrorState message={list.error.message} />
      ) : !list.isLoaded ? (
        <LoadingState />
      ) : (
        <DataTable
          caption="ISEE in scadenza o scaduti degli iscritti"
          columns={columns}
          rows={list.items}
          rowKey={(r) => r.userId}
          emptyText="Nessun ISEE in scadenza o scaduto tra gli iscritti, all’ultimo controllo."
        />
      )}
      <CursorPagination {...list.pagination} label="Paginazione degli ISEE in scadenza" />
    </Flex>
  );
}
