import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { bandLabel } from '@domain/bands';
import { messages } from '@domain/messages';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { useApiMutation } from '@/lib/queries';
import { useAuth } from '@/lib/auth';
import { platformFieldLabels } from '@/lib/platform';
import { paths } from '@/config/paths';
import { CallPaymentActions, CallPositionsSection, type PositionsChange } from '@/features/payments';
import { SendToMyPay, startExport } from '@/features/flows';
import { CallIseeRefresh } from '@/features/isee';
import { deleteCall } from '@/features/calls/api/delete-call';
import { useCall } from '@/features/calls/api/get-call';
import { CallStateBadge } from '@/features/calls/components/call-state-badge';
import { FileList } from '@/features/calls/components/file-viewer';

// The enrolled users (table, modals, CSV import) load in their own chunk, after the call's data; the users
// feature (its search and record fetchers) when the enrolment modal first needs it.
const EnrolmentsSection = lazy(() => import('@/features/enrolments').then((m) => ({ default: m.EnrolmentsSection })));
const loadUsers = () => import('@/features/users');

/**
 * /lista_bandi/dettaglio_sessione?id={id} (also under /servizi/visualizza_servizio): the call's data, its
 * forms (viewed in the page), its ISEE bands, and its enrolled users (read-only for a delegate).
 */
export function CallDetailPage() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const id = params.get('id');
  const call = useCall(id);
  const remove = useApiMutation(deleteCall);
  const flash = useFlashMessage();
  const [confirming, setConfirming] = useState(false);
  // Each ISEE refresh from INPS that ends: the subscribers' table is read again.
  const [iseeRuns, setIseeRuns] = useState(0);
  const [positionsChange, setPositionsChange] = useState<PositionsChange>({ version: 0 });
  const { me } = useAuth();
  const loaded = call.data && call.data.id === id ? call.data : undefined;
  const fromService = pathname.toLowerCase().startsWith(paths.serviceDetail);
  const back =
    fromService && loaded ? `${paths.serviceDetail}?id=${encodeURIComponent(loaded.serviceId)}` : paths.calls;

  const confirmDelete = async () => {
    if (!loaded) return;
    const result = await remove.run(loaded.id);
    setConfirming(false);
    if (result.ok) navigate(back);
    else flash.show(result.error.message, 'error');
  };

  if (!id) return <ErrorState message={messages.call.notFound} backTo={paths.calls} backLabel="Torna ai bandi" />;
  if (call.error && !loaded)
    return <ErrorState message={call.error.message} backTo={paths.calls} backLabel="Torna ai bandi" />;
  if (!loaded) return <LoadingState />;

  const data: Array<[string, React.ReactNode]> = [
    ['Servizio', loaded.serviceName],
    ['Stato', <CallStateBadge key="state" state={loaded.state} />],
    ['Anno', loaded.year],
    [platformFieldLabels().callName, loaded.nomeMyPay],
    ['Codice accertamento', loaded.codAccertamento],
    ['Codice capitolo', loaded.codCapitolo],
  ];

  return (
    <Flex direction="column" gap="medium">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={1}>{loaded.name}</Heading>
        <Flex gap="small" wrap="wrap">
          <ButtonLink to={back}>Indietro</ButtonLink>
          <ButtonLink to={`${paths.callPayments}?id=${encodeURIComponent(loaded.id)}`}>Lista pagamenti</ButtonLink>
          <CallPaymentActions
            callId={loaded.id}
            onPositionsChanged={(period) => setPositionsChange((change) => ({ version: change.version + 1, period }))}
            onMessage={flash.show}
          />
          <SendToMyPay
            callId={loaded.id}
            onPositionsChanged={(period) => setPositionsChange((change) => ({ version: change.version + 1, period }))}
          />
          <ButtonLink to={`${paths.editCall}?sessionId=${encodeURIComponent(loaded.id)}`} variation="primary">
            Modifica bando
          </ButtonLink>
          <Button colorTheme="error" onClick={() => setConfirming(true)}>
            Elimina bando
          </Button>
        </Flex>
      </Flex>
      <PageAlert key={flash.key} {...flash.props} autoHideMs={null} />

      <dl className="detail-list">
        {data.map(([label, value]) => (
          <div key={label} className="detail-list__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="forms-title" className="call-section">
        <Heading level={2} id="forms-title">
          Moduli allegati
        </Heading>
        <FileList files={loaded.announcementFiles} label="Moduli allegati" emptyText="Nessun modulo allegato." />
      </section>

      <section aria-labelledby="bands-title" className="call-section">
        <Heading level={2} id="bands-title">
          Fasce ISEE
        </Heading>
        {loaded.bands.length === 0 ? (
          <Text>Nessuna fascia ISEE associata al bando.</Text>
        ) : (
          <ul className="band-list">
            {loaded.bands.map((band) => (
              <li key={band.id}>{bandLabel(band)}</li>
            ))}
          </ul>
        )}
      </section>

      {me?.role === 'OPERATOR' && (
        <CallPositionsSection callId={loaded.id} readOnly={false} changed={positionsChange} />
      )}

      {me?.role === 'OPERATOR' && <CallIseeRefresh callId={loaded.id} onDone={() => setIseeRuns((n) => n + 1)} />}

      <Suspense fallback={<LoadingState />}>
        <EnrolmentsSection
          key={iseeRuns}
          call={loaded}
          readOnly={me?.role !== 'OPERATOR'}
          onChanged={call.reload}
          loadUsers={loadUsers}
          startExport={startExport}
        />
      </Suspense>

      <ConfirmDialog
        open={confirming}
        title="Elimina bando"
        message="Confermi di voler eliminare il bando? L’operazione è possibile solo se non sono presenti iscrizioni."
        busy={remove.isRunning}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      />
    </Flex>
  );
}
