import { Flex, Text } from '@aws-amplify/ui-react';
import { monthNames } from '@domain/payments';
import { PageAlert } from '@/components/page-alert';
import { useApiQuery } from '@/lib/queries';
import { getMissingIsee } from '../api/payment-list';

/** The names shown per month (the count is complete). */
const SHOWN = 20;

/**
 * On the payment list: the subscribers the year's generations left without a position because their ISEE
 * expired or is missing (design §4), month by month, with who they are. Generating the month again once a
 * valid ISEE arrives creates their position.
 */
export function MissingIseeNotice({ callId, anno }: { callId: string; anno: number }) {
  const missing = useApiQuery(['payments', 'missing-isee', callId, anno], () => getMissingIsee(callId, anno));
  const months = missing.data?.months ?? [];
  if (!months.length) return null;
  return (
    <PageAlert
      variation="warning"
      heading="ISEE scaduto o mancante"
      autoHideMs={null}
      isDismissible={false}
      message={
        <Flex direction="column" gap="xs">
          <Text>
            Questi iscritti approvati non hanno una posizione del mese perché il loro ISEE è scaduto o manca: quando
            arriva un ISEE valido, genera di nuovo il mese.
          </Text>
          {months.map((month) => (
            <Text key={month.mese}>
              <strong>
                {monthNames[month.mese - 1]} {anno}
              </strong>{' '}
              ({month.count}):{' '}
              {month.people
                .slice(0, SHOWN)
                .map((p) => `${p.cognome} ${p.nome} (${p.fiscalCode})`)
                .join(', ')}
              {month.count > SHOWN ? ` e altri ${month.count - SHOWN}` : ''}
            </Text>
          ))}
        </Flex>
      }
    />
  );
}
