import { Card, Flex, Heading } from '@aws-amplify/ui-react';
import { iseeMessages, iseeStateLabel } from '@domain/isee';
import { formatEuro } from '@domain/money';
import { useLocation, useSearchParams } from 'react-router';
import { useBreadcrumbQuery } from '@/components/breadcrumb-query';
import { ButtonLink } from '@/components/button-link';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { useIsee } from '../api/get-isee';
import { formatDay } from '@/lib/dates';
import { DocumentViewer } from './document-viewer';
import { InpsDetailsCard } from './inps-details';
import { reviewBase } from './verify-isee-page';

/** visualizza_isee?idIsee=: read-only; the PDF or 'Non è stato caricato nessun PDF'; value, protocol, expiry. */
export function ViewIseePage() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const id = params.get('idIsee');
  const isee = useIsee(id);
  const data = isee.data;
  useBreadcrumbQuery({ citizen: data?.userId });
  const back =
    data && reviewBase(pathname)
      ? `/lista_utenti/dati_utente?citizen=${encodeURIComponent(data.userId)}`
      : '/lista_isee';
  let content;
  if (!id || isee.error)
    content = (
      <ErrorState
        message={isee.error?.message ?? iseeMessages.notFound}
        backTo="/lista_isee"
        backLabel="Torna alla lista ISEE"
      />
    );
  else if (!data || data.id !== id) content = <LoadingState />;
  else
    content = (
      <div className="isee-review">
        {data.inps ? (
          <section aria-label="Attestazione INPS">
            <InpsDetailsCard inps={data.inps} />
          </section>
        ) : (
          <section aria-label="Documento caricato">
            <DocumentViewer url={data.fileUrl} contentType={data.contentType} name={data.fileName ?? 'documento'} />
          </section>
        )}
        <Card variation="outlined">
          <Flex direction="column" gap="medium">
            <dl className="summary-list">
              <dt>Nome</dt>
              <dd>{data.user.firstName}</dd>
              <dt>Cognome</dt>
              <dd>{data.user.lastName}</dd>
              <dt>Codice fiscale</dt>
              <dd>{data.user.fiscalCode}</dd>
              <dt>Valore</dt>
              <dd>{formatEuro(data.value)}</dd>
              <dt>Anno</dt>
              <dd>{data.year}</dd>
              <dt>Protocollo</dt>
              <dd>{data.protocollo ?? '—'}</dd>
              <dt>Scadenza</dt>
              <dd>{formatDay(data.scadenza)}</dd>
              <dt>Stato</dt>
              <dd>{iseeStateLabel(data.state)}</dd>
              <dt>Fonte</dt>
              <dd>{data.sourceLabel}</dd>
            </dl>
            <Flex justifyContent="flex-end">
              <ButtonLink to={back}>Indietro</ButtonLink>
            </Flex>
          </Flex>
        </Card>
      </div>
    );
  return (
    <Flex direction="column" gap="medium">
      <Heading level={1}>Visualizza ISEE</Heading>
      {content}
    </Flex>
  );
}
