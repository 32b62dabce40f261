import { Flex } from '@aws-amplify/ui-react';
import type { To } from 'react-router';
import { ButtonLink } from './button-link';
import { PageAlert } from './page-alert';

export interface ErrorStateProps {
  /** The Italian message, e.g. 'La fascia ISEE selezionata non esiste.' */
  message: string;
  /** Where the way out leads, e.g. the list page. */
  backTo?: To;
  backLabel?: string;
}

/** A page that cannot be shown: a lasting 'Attenzione' alert and, optionally, a link back. */
export function ErrorState({ message, backTo, backLabel = 'Indietro' }: ErrorStateProps) {
  return (
    <Flex direction="column" alignItems="flex-start" gap="small">
      <PageAlert message={message} autoHideMs={null} isDismissible={false} />
      {backTo !== undefined && <ButtonLink to={backTo}>{backLabel}</ButtonLink>}
    </Flex>
  );
}
