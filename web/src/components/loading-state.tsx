import { Flex, Loader, Text } from '@aws-amplify/ui-react';

export interface LoadingStateProps {
  /** What is read and shown while waiting; 'Caricamento...' by default. */
  label?: string;
}

/** A spinner announced politely to screen readers (role="status"). */
export function LoadingState({ label = 'Caricamento...' }: LoadingStateProps) {
  return (
    <Flex role="status" alignItems="center" gap="small" padding="medium">
      <Loader size="large" aria-label={label} />
      <Text as="span">{label}</Text>
    </Flex>
  );
}
