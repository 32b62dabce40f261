import { Button, Card, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import { iseeDecisionSchema, iseeMessages, type Isee } from '@domain/isee';
import { incoherentValuesWarning, isUnverified, unverifiedValuesWarning } from '@domain/isee-extraction';
import { formatEuro } from '@domain/money';
import { fieldErrors } from '@domain/validation';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useBreadcrumbQuery } from '@/components/breadcrumb-query';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { AmountField } from '@/components/form-fields';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
import { useDecideIsee } from '../api/decide-isee';
import { useIsee } from '../api/get-isee';
import { formatDay } from '@/lib/dates';
import { euroOrDash, valueFromText, valueToText } from '../utils/isee-form';
import { DocumentViewer } from './document-viewer';
import { InpsCheckCard, InpsDetailsCard } from './inps-details';

const POLL_MS = 2000;
const percent = new Intl.NumberFormat('it-IT', { style: 'percent', maximumFractionDigits: 0 });
const scale = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** Where the review pages live: under /lista_isee or under the user record. */
export const reviewBase = (pathname: string) =>
  pathname.toLowerCase().startsWith('/lista_utenti') ? '/lista_utenti/dati_utente' : '';

/**
 * verifica_isee?idIsee=: the document on the left; on the right the user (with the check of the fiscal
 * code against those read from the document), the values read, 'Copia valore', the declared value and
 * Conferma / Rifiuta / Indietro. A state other than LOADED opens the read-only view.
 */
export function VerifyIseePage() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const id = params.get('idIsee');
  const isee = useIsee(id);
  const pending = isee.data?.extractionStatus === 'PENDING';
  useBreadcrumbQuery({ citizen: isee.data?.userId });
  const { reload } = isee;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(reload, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, reload, isee.data]);

  const base = reviewBase(pathname);
  let content;
  if (!id || isee.error)
    content = (
      <ErrorState
        message={isee.error?.message ?? iseeMessages.notFound}
        backTo="/lista_isee"
        backLabel="Torna alla lista ISEE"
      />
    );
  else if (!isee.data || isee.data.id !== id) content = <LoadingState />;
  else if (isee.data.state !== 'LOADED')
    return <Navigate to={`${base}/visualizza_isee?idIsee=${encodeURIComponent(id)}`} replace />;
  else content = <Review key={isee.data.id} isee={isee.data} />;
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Verifica ISEE</Heading>
      {content}
    </Flex>
  );
}

function Review({ isee }: { isee: Isee }) {
  const navigate = useNavigate();
  // The first link is kept: polling brings a fresh one each time, and the viewer must not reload.
  const [fileUrl] = useState(isee.fileUrl ?? null);
  const [value, setValue] = useState(valueToText(isee.value));
  const [valueError, setValueError] = useState<string>();
  const [asking, setAsking] = useState<1 | 2 | null>(null);
  const decide = useDecideIsee();
  const extraction = isee.extraction;
  const fiscalCodeFound = extraction ? extraction.fiscalCodes.includes(isee.user.fiscalCode) : null;
  // ISEE ≠ ISE / scala: the value read is shown, never proposed; the operator copies or types it on purpose.
  const incoherent = extraction?.coherent === false;
  // ISE or the scale unread: nothing confirms the ISEE read, whatever the reading's confidence.
  const unverified = extraction ? isUnverified(extraction) : false;
  const coherenceWarning = incoherent
    ? {
        variation: 'error' as const,
        heading: incoherentValuesWarning,
        message:
          'Controlla ISE, scala di equivalenza e ISEE sul documento prima di copiare o digitare il valore dichiarato.',
      }
    : unverified
      ? {
          variation: 'warning' as const,
          heading: unverifiedValuesWarning,
          message:
            'Il valore letto non ha potuto essere confrontato con ISE / scala di equivalenza: verificalo sul documento prima di copiarlo.',
        }
      : null;
  const { pathname } = useLocation();
  const back = reviewBase(pathname)
    ? `/lista_utenti/dati_utente?citizen=${encodeURIComponent(isee.userId)}`
    : '/lista_isee';

  const ask = (state: 1 | 2) => {
    const parsed = iseeDecisionSchema.safeParse({ state, value: valueFromText(value) });
    if (!parsed.success) {
      setValueError(fieldErrors(parsed.error).value);
      document.getElementById('declared-value')?.focus();
      return;
    }
    setAsking(state);
  };
  const confirm = async () => {
    if (!asking) return;
    const result = await decide.run(isee.id, {
      state: asking,
      value: valueFromText(value)!,
      year: isee.year,
      protocollo: isee.protocollo ?? extraction?.protocollo ?? null,
      scadenza: isee.scadenza ?? extraction?.dataFine ?? null,
    });
    setAsking(null);
    if (result.ok) navigate('/lista_isee');
  };

  const fromInps = isee.source === 'INPS';
  return (
    <div className="isee-review">
      {fromInps && isee.inps ? (
        <section aria-label="Attestazione INPS">
          <InpsDetailsCard inps={isee.inps} />
        </section>
      ) : (
        <section aria-label="Documento caricato">
          <DocumentViewer url={fileUrl} contentType={isee.contentType} name={isee.fileName ?? 'documento'} />
        </section>
      )}
      <Flex direction="column" gap="medium">
        <PageAlert message={decide.error?.message} autoHideMs={null} onDismiss={decide.clearError} />
        {!fromInps && (
          <InpsCheckCard
            isee={isee}
            onUseValue={(inpsValue) => {
              setValue(valueToText(inpsValue));
              setValueError(undefined);
              document.getElementById('declared-value')?.focus();
            }}
          />
        )}
        <Card variation="outlined">
          <Heading level={2} marginBottom="small">
            Utente
          </Heading>
          <dl className="summary-list">
            <dt>Nome</dt>
            <dd>{isee.user.firstName}</dd>
            <dt>Cognome</dt>
            <dd>{isee.user.lastName}</dd>
            <dt>Codice fiscale</dt>
            <dd>
              {isee.user.fiscalCode}{' '}
              {fiscalCodeFound !== null && (
                <span className={fiscalCodeFound ? 'check--ok' : 'check--ko'} data-testid="fiscal-code-check">
                  <span aria-hidden="true">{fiscalCodeFound ? '✔' : '✘'}</span>{' '}
                  {fiscalCodeFound ? 'presente nel documento' : 'non presente nel documento'}
                </span>
              )}
            </dd>
            <dt>E-mail</dt>
            <dd>{isee.user.email ?? '—'}</dd>
          </dl>
        </Card>
        {!fromInps && (
          <Card variation="outlined">
            <Heading level={2} marginBottom="small">
              Dati letti dal documento
            </Heading>
            {isee.extractionStatus === 'PENDING' ? (
              <Flex role="status" alignItems="center" gap="small">
                <Loader aria-hidden="true" />
                <Text as="span">{iseeMessages.extracting}</Text>
              </Flex>
            ) : isee.extractionStatus === 'NONE' ? (
              <Text>Nessun documento da leggere.</Text>
            ) : !extraction ? (
              <Text>Non è stato possibile leggere il documento: verifica i dati a vista.</Text>
            ) : (
              <Flex direction="column" gap="small">
                <dl className="summary-list">
                  <dt>Protocollo</dt>
                  <dd>{extraction.protocollo ?? '—'}</dd>
                  <dt>Scadenza</dt>
                  <dd>{formatDay(extraction.dataFine)}</dd>
                  <dt>ISE</dt>
                  <dd>{euroOrDash(extraction.ise)}</dd>
                  <dt>Scala di equivalenza</dt>
                  <dd>{extraction.scalaEquivalenza == null ? '—' : scale.format(extraction.scalaEquivalenza)}</dd>
                  <dt>ISEE ordinario</dt>
                  <dd>
                    {euroOrDash(extraction.iseeOrdinario)}{' '}
                    {extraction.coherent === true && (
                      <span className="check--ok" data-testid="coherence-check">
                        <span aria-hidden="true">✔</span> pari a ISE / scala
                      </span>
                    )}
                    {unverified && (
                      <span className="check--ko" data-testid="coherence-check">
                        <span aria-hidden="true">?</span> non verificato
                      </span>
                    )}
                  </dd>
                  <dt>ISEE ristretto</dt>
                  <dd>{euroOrDash(extraction.iseeRistretto)}</dd>
                  <dt>Affidabilità</dt>
                  <dd>{percent.format(extraction.confidence)}</dd>
                </dl>
                {coherenceWarning && (
                  <div id="coherence-warning">
                    <PageAlert
                      variation={coherenceWarning.variation}
                      heading={coherenceWarning.heading}
                      message={coherenceWarning.message}
                      autoHideMs={null}
                      isDismissible={false}
                    />
                  </div>
                )}
                {extraction.warnings?.map((warning) => (
                  <PageAlert
                    key={warning}
                    variation="warning"
                    heading={warning}
                    message="Il valore letto va controllato sul documento prima di copiarlo."
                    autoHideMs={null}
                    isDismissible={false}
                  />
                ))}
                {extraction.omissionsNotice && (
                  <PageAlert
                    variation="warning"
                    heading="Omissioni o difformità"
                    message={extraction.omissionsNotice}
                    autoHideMs={null}
                    isDismissible={false}
                  />
                )}
                <Flex>
                  <Button
                    size="small"
                    isDisabled={extraction.iseeOrdinario === null}
                    aria-describedby={coherenceWarning ? 'coherence-warning' : undefined}
                    onClick={() => {
                      setValue(valueToText(extraction.iseeOrdinario));
                      setValueError(undefined);
                    }}
                  >
                    Copia valore
                  </Button>
                </Flex>
              </Flex>
            )}
          </Card>
        )}
        <Card variation="outlined">
          <Flex direction="column" gap="medium">
            <AmountField
              id="declared-value"
              name="value"
              label="Valore dichiarato (€)"
              isRequired
              value={value}
              onValueChange={(text) => {
                setValue(text);
                setValueError(undefined);
              }}
              hasError={Boolean(valueError)}
              errorMessage={valueError}
            />
            <Text fontSize="small">
              Valore caricato: {formatEuro(isee.value)} — anno {isee.year} — caricato il {formatDay(isee.dataInsert)}
            </Text>
            <Flex gap="small" justifyContent="flex-end" wrap="wrap">
              <ButtonLink to={back}>Indietro</ButtonLink>
              <Button colorTheme="error" onClick={() => ask(2)}>
                Rifiuta
              </Button>
              <Button variation="primary" onClick={() => ask(1)}>
                Conferma
              </Button>
            </Flex>
          </Flex>
        </Card>
      </Flex>
      <ConfirmDialog
        open={asking !== null}
        title={asking === 2 ? 'Rifiuto ISEE' : 'Caricamento ISEE'}
        message={asking === 2 ? "Confermi di voler rifiutare l'ISEE?" : "Confermi di voler caricare l'ISEE?"}
        busy={decide.isRunning}
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(null)}
      />
    </div>
  );
}
