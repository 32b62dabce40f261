import { Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { differenceFromInps, type InpsCheck } from '@domain/inps';
import { italianDay } from '@domain/period';
import type { InpsDetails, Isee } from '@domain/isee';
import { formatEuro } from '@domain/money';
import { useState } from 'react';
import { DataTable } from '@/components/data-table';
import { PageAlert } from '@/components/page-alert';
import { useApiMutation } from '@/lib/queries';
import { checkIseeWithInps } from '../api/inps';
import { formatTimestamp } from '@/lib/dates';
import { euroOrDash } from '../utils/isee-form';

const scale = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const RELATIONS: Record<string, string> = {
  D: 'Dichiarante',
  C: 'Coniuge',
  F: 'Figlio/a',
  FC: 'Figlio/a a carico',
  FNC: 'Figlio/a non convivente',
  MA: 'Altro componente',
  P: 'Persona a carico',
  GNC: 'Genitore non convivente',
};

/** What INPS said of an ISEE fetched through PDND: the DSU, the values, the household, omissions and the reason for review. */
export function InpsDetailsCard({ inps }: { inps: InpsDetails }) {
  return (
    <Card variation="outlined">
      <Flex direction="column" gap="small">
        <Heading level={2}>Dati dell’attestazione INPS</Heading>
        {inps.reviewReason && (
          <PageAlert
            variation="warning"
            heading="Da verificare"
            message={inps.reviewReason}
            autoHideMs={null}
            isDismissible={false}
          />
        )}
        <dl className="summary-list">
          <dt>Protocollo DSU</dt>
          <dd>{inps.protocolloDSU}</dd>
          <dt>Presentata il</dt>
          <dd>{italianDay(inps.dataPresentazione)}</dd>
          <dt>Valida fino al</dt>
          <dd>{italianDay(inps.dataValidita)}</dd>
          {inps.corrente && (
            <>
              <dt>ISEE corrente</dt>
              <dd>
                Protocollo {inps.corrente.protocolloDSU}, modulo sostitutivo presentato il{' '}
                {italianDay(inps.corrente.dataPresentazione)}, valido fino al{' '}
                <strong>{italianDay(inps.corrente.dataScadenza)}</strong>
              </dd>
            </>
          )}
          <dt>ISE</dt>
          <dd>{euroOrDash(inps.ise)}</dd>
          <dt>Scala di equivalenza</dt>
          <dd>{inps.scalaEquivalenza === null ? '—' : scale.format(inps.scalaEquivalenza)}</dd>
          <dt>{inps.corrente ? 'ISEE corrente' : 'ISEE ordinario'}</dt>
          <dd>{euroOrDash(inps.isee)}</dd>
          <dt>ISR / ISP</dt>
          <dd>
            {euroOrDash(inps.isr)} / {euroOrDash(inps.isp)}
          </dd>
          <dt>Richiesta INPS</dt>
          <dd>
            {inps.idRichiesta ?? '—'} del {formatTimestamp(inps.queriedAt)}
          </dd>
        </dl>
        <DataTable
          caption="Nucleo familiare"
          captionVisible
          columns={[
            { id: 'rel', header: 'Rapporto', cell: (m) => RELATIONS[m.relation] ?? m.relation, isRowHeader: true },
            { id: 'cf', header: 'Codice fiscale', cell: (m) => m.fiscalCode ?? 'non conservato', noWrap: true },
            ...(inps.household.some((m) => m.lastName)
              ? [
                  {
                    id: 'name',
                    header: 'Componente',
                    cell: (m: InpsDetails['household'][number]) =>
                      `${m.lastName ?? ''} ${m.firstName ?? ''}`.trim() || '—',
                  },
                ]
              : []),
          ]}
          rows={inps.household.map((m, index) => ({ ...m, index }))}
          rowKey={(m) => String(m.index)}
          emptyText="Nucleo non indicato."
        />
        {inps.otherIndicators.length > 0 && (
          <Text fontSize="small">
            Altri indicatori:{' '}
            {inps.otherIndicators
              .map((o) => `${o.kind.toLowerCase()} ${o.fiscalCode} ${euroOrDash(o.isee)}`)
              .join('; ')}
          </Text>
        )}
        {inps.omissions.length > 0 && (
          <Text fontSize="small">
            Omissioni o difformità:{' '}
            {inps.omissions.map((o) => `${o.label} (${o.fiscalCode}, ${italianDay(o.checkedOn)})`).join('; ')}
          </Text>
        )}
      </Flex>
    </Card>
  );
}

/**
 * 'Verifica con INPS' on the review of an uploaded document: INPS's ISEE beside the declared value and the
 * reading, with the difference; 'Usa il valore INPS' copies it into the declared value. Nothing is saved.
 */
export function InpsCheckCard({ isee, onUseValue }: { isee: Isee; onUseValue: (value: number) => void }) {
  const check = useApiMutation(checkIseeWithInps);
  const [result, setResult] = useState<InpsCheck | null>(null);
  const run = async () => {
    const answer = await check.run(isee.id);
    if (answer.ok) setResult(answer.data);
  };
  return (
    <Card variation="outlined">
      <Flex direction="column" gap="small">
        <Heading level={2}>Verifica con INPS</Heading>
        <Text fontSize="small">
          Chiede all’INPS, tramite PDND, l’ISEE valido oggi per {isee.user.fiscalCode}: il valore dichiarato non cambia
          finché non confermi.
        </Text>
        <PageAlert message={check.error?.message} autoHideMs={null} onDismiss={check.clearError} />
        {result && (
          <div role="status" data-testid="inps-check">
            {!result.found || !result.inps ? (
              <PageAlert
                variation="warning"
                heading="Nessun ISEE valido presso INPS"
                message={result.message}
                autoHideMs={null}
                isDismissible={false}
              />
            ) : (
              <Flex direction="column" gap="xs">
                <Text className={result.agrees ? 'check--ok' : 'check--ko'}>
                  <span aria-hidden="true">{result.agrees ? '✔' : '✘'}</span> {result.message}
                </Text>
                <dl className="summary-list">
                  <dt>ISEE INPS</dt>
                  <dd>
                    <strong>{formatEuro(result.inps.value)}</strong> (DSU {result.inps.protocolloDSU}, presentata il{' '}
                    {italianDay(result.inps.dataPresentazione)})
                  </dd>
                  <dt>Valore dichiarato</dt>
                  <dd>
                    {formatEuro(result.declared.value)}{' '}
                    {result.declared.difference !== 0 && (
                      <span className="check--ko">({differenceFromInps(result.declared.difference)})</span>
                    )}
                  </dd>
                  <dt>Valore letto dal documento</dt>
                  <dd>
                    {result.read ? (
                      <>
                        {formatEuro(result.read.value)}{' '}
                        {result.read.difference !== 0 && (
                          <span className="check--ko">({differenceFromInps(result.read.difference)})</span>
                        )}
                      </>
                    ) : (
                      '—'
                    )}
                  </dd>
                  <dt>Protocollo</dt>
                  <dd>
                    {result.protocolMatches === null
                      ? 'non letto'
                      : result.protocolMatches
                        ? 'uguale a quello INPS'
                        : 'diverso da quello INPS'}
                  </dd>
                </dl>
                {!result.agrees && (
                  <Flex>
                    <Button size="small" onClick={() => onUseValue(result.inps!.value)}>
                      Usa il valore INPS
                    </Button>
                  </Flex>
                )}
              </Flex>
            )}
          </div>
        )}
        <Flex>
          <Button
            variation="primary"
            isLoading={check.isRunning}
            loadingText="Richiesta a INPS in corso..."
            onClick={() => void run()}
          >
            Verifica con INPS
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
