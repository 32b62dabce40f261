import { Alert, Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { bandLabel } from '@domain/bands';
import type { PublicCall } from '@domain/calls';
import { isRideService } from '@domain/fee';
import { fileMessages } from '@domain/files';
import { formatEuro } from '@domain/money';
import { messages } from '@domain/messages';
import { MAX_SUBSCRIPTION_FILES, REQUEST_ACTION, type Subscription } from '@domain/subscriptions';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Dialog } from '@/components/dialog';
import { LOGIN_NEEDED, LoginRequiredDialog } from '@/components/login-required-dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { paths } from '@/config/paths';
import { CallStateBadge, FileList, useVisibleCall } from '@/features/calls';
import { MyPayments } from '@/features/payments';
import { ApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { checkFile, uploadFile } from '@/lib/upload';
import { subscribe } from '@/features/subscriptions/api/create-subscription';
import { useMySubscription } from '@/features/subscriptions/api/get-my-subscription';
import { SubscriptionBadge } from '@/features/subscriptions/components/state-labels';

/** Spec part 2 §9: the page reloads 2 s after a request is sent. */
export const RELOAD_AFTER_REQUEST_MS = 2000;

/**
 * /sessione_servizi/visualizza_servizio?id={callId} (anonymous and citizens) and /iscrizioni/visualizza_servizio.
 * Anonymous visitors get the public summary of an OPEN call and the sign-in prompt; citizens the whole page and
 * the request, and the page of a call they are enrolled in stays theirs after it closes (payments, documents).
 */
export function CallPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const auth = useAuth();
  const call = useVisibleCall(id, auth.status === 'signed-in');
  const loaded = call.data && call.data.id === id ? call.data : undefined;
  const backTo = paths.home;

  if (!id) return <ErrorState message={messages.call.notFound} backTo={backTo} backLabel="Torna alla home" />;
  if (call.error && !loaded)
    return <ErrorState message={call.error.message} backTo={backTo} backLabel="Torna alla home" />;
  if (!loaded) return <LoadingState />;
  return auth.status === 'signed-in' ? <CitizenCall call={loaded} /> : <PublicCallView call={loaded} />;
}

function CallHeader({ call, badge }: { call: PublicCall; badge: React.ReactNode }) {
  return (
    <>
      <Heading level={1}>{call.name}</Heading>
      <Flex gap="small" alignItems="center" wrap="wrap">
        <CallStateBadge state={call.state} />
        {badge}
        <Text as="span" className="break-anywhere">
          Servizio: <strong>{call.service.name}</strong> · Anno {call.year}
        </Text>
      </Flex>
      <Text>{call.service.description}</Text>
    </>
  );
}

function Bands({ call }: { call: PublicCall }) {
  return (
    <section aria-labelledby="bands-title" className="call-section">
      <Heading level={2} id="bands-title">
        Fasce ISEE
      </Heading>
      {call.bands.length === 0 ? (
        <Text>Nessuna fascia ISEE indicata per questo bando.</Text>
      ) : (
        <ul className="band-list">
          {call.bands.map((band) => (
            <li key={band.id}>{bandLabel(band)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PublicCallView({ call }: { call: PublicCall }) {
  const [prompt, setPrompt] = useState(false);
  return (
    <Flex direction="column" gap="medium" maxWidth="56rem">
      <CallHeader call={call} badge={null} />
      <Bands call={call} />
      <Alert variation="info" heading="Accesso richiesto">
        {LOGIN_NEEDED}
      </Alert>
      <Flex gap="small" wrap="wrap">
        <Button variation="primary" onClick={() => setPrompt(true)}>
          {REQUEST_ACTION}
        </Button>
      </Flex>
      <LoginRequiredDialog open={prompt} onClose={() => setPrompt(false)} />
    </Flex>
  );
}

const reload = () => window.location.reload();

function CitizenCall({ call }: { call: PublicCall }) {
  const mine = useMySubscription(call.id);
  const subscription: Subscription | null | undefined = mine.data ? mine.data.subscription : undefined;
  return (
    <Flex direction="column" gap="medium" maxWidth="56rem">
      <CallHeader
        call={call}
        badge={subscription !== undefined && <SubscriptionBadge state={subscription?.state ?? null} />}
      />
      {subscription?.state === 'VALIDATED' && (
        <dl className="detail-list">
          <div className="detail-list__row">
            <dt>Costo mensile</dt>
            <dd>{subscription.cost === null ? 'In calcolo' : formatEuro(subscription.cost)}</dd>
          </div>
          <div className="detail-list__row">
            <dt>{isRideService(call.service.name) ? 'Corse settimanali' : 'Ore settimanali'}</dt>
            <dd>{subscription.weeklyHour === null ? '—' : String(subscription.weeklyHour).replace('.', ',')}</dd>
          </div>
        </dl>
      )}
      <Bands call={call} />
      <section aria-labelledby="forms-title" className="call-section">
        <Heading level={2} id="forms-title">
          Moduli del Comune
        </Heading>
        {!subscription && (
          <Text className="form-hint">Scarica i moduli, compilali e caricali con la tua richiesta.</Text>
        )}
        <FileList
          files={call.announcementFiles}
          label="Moduli del Comune"
          emptyText="Nessun modulo da scaricare per questo bando."
        />
      </section>
      {mine.error && <ErrorState message={mine.error.message} />}
      {mine.isLoading && subscription === undefined && <LoadingState />}
      {subscription && (
        <section aria-labelledby="my-files-title" className="call-section">
          <Heading level={2} id="my-files-title">
            I tuoi documenti
          </Heading>
          <FileList
            files={subscription.subscriptionFiles}
            label="I tuoi documenti"
            emptyText="Non hai allegato documenti alla richiesta."
          />
        </section>
      )}
      {subscription && <MyPayments callId={call.id} />}
      {subscription === null && <RequestForm callId={call.id} />}
    </Flex>
  );
}

/** Up to 5 files and 'Richiedi Servizio'. */
function RequestForm({ callId }: { callId: string }) {
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'sent' } | { kind: 'refused'; text: string } | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const add = (list: FileList | null) => {
    const next = [...files, ...Array.from(list ?? [])];
    if (input.current) input.current.value = '';
    const problem =
      next.length > MAX_SUBSCRIPTION_FILES ? fileMessages.tooMany : (next.map(checkFile).find(Boolean) ?? null);
    setFileError(problem);
    if (!problem) setFiles(next);
  };

  const send = async () => {
    setBusy(true);
    try {
      const uploaded = [];
      for (const file of files) uploaded.push(await uploadFile(file, 'subscription-file'));
      await subscribe(callId, { files: uploaded });
      setOutcome({ kind: 'sent' });
      window.setTimeout(reload, RELOAD_AFTER_REQUEST_MS);
    } catch (error) {
      const text = error instanceof ApiError ? error.message : messages.generic;
      setOutcome({ kind: 'refused', text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="request-title" className="call-section">
      <Heading level={2} id="request-title">
        Richiedi il servizio
      </Heading>
      <Text className="form-hint" id="request-files-hint">
        Puoi allegare fino a 5 documenti in formato PDF, JPEG o PNG (10 MB al massimo ciascuno).
      </Text>
      <Flex direction="column" gap="small" marginBlockStart="small">
        {files.length < MAX_SUBSCRIPTION_FILES && (
          <input
            ref={input}
            type="file"
            multiple
            accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
            aria-label="Scegli i documenti da allegare"
            aria-describedby="request-files-hint"
            aria-invalid={Boolean(fileError)}
            onChange={(event) => add(event.target.files)}
          />
        )}
        {fileError && (
          <Text className="form-error" role="alert">
            {fileError}
          </Text>
        )}
        {files.length > 0 && (
          <ul className="file-list" aria-label="Documenti da inviare">
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`} className="file-list__item">
                <span className="file-list__name">{file.name}</span>
                <Button
                  size="small"
                  aria-label={`Togli ${file.name}`}
                  onClick={() => setFiles(files.filter((_, i) => i !== index))}
                >
                  Togli
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Flex>
          <Button variation="primary" isLoading={busy} loadingText="Invio in corso..." onClick={() => void send()}>
            {REQUEST_ACTION}
          </Button>
        </Flex>
      </Flex>
      <Dialog
        open={outcome?.kind === 'sent'}
        title="Richiesta inviata"
        onClose={reload}
        actions={<Button onClick={reload}>Chiudi</Button>}
      >
        <Text>La tua richiesta di iscrizione è stata inserita correttamente</Text>
      </Dialog>
      <Dialog
        open={outcome?.kind === 'refused'}
        title="RICHIESTA RIFIUTATA"
        onClose={reload}
        actions={<Button onClick={reload}>Chiudi</Button>}
      >
        <Text>{outcome?.kind === 'refused' ? outcome.text : ''}</Text>
      </Dialog>
    </section>
  );
}
