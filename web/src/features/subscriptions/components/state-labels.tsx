import { subscriptionDetailLabels, subscriptionListLabels, type SubscriptionState } from '@domain/subscriptions';
import { Badge } from '@aws-amplify/ui-react';

const variations: Record<SubscriptionState, 'info' | 'success' | 'warning' | 'error'> = {
  ADDED: 'info',
  VALIDATED: 'success',
  SUSPENDED: 'warning',
  REFUSED: 'error',
};

/** The subscription's state as the spec labels it: on the call's page, or in the list (upper case). */
export function SubscriptionBadge({ state, list = false }: { state: SubscriptionState | null; list?: boolean }) {
  if (!state) return <Badge className="subscription-state">Non sei iscritto</Badge>;
  return (
    <Badge variation={variations[state]} className="subscription-state">
      {list ? subscriptionListLabels[state] : subscriptionDetailLabels[state]}
    </Badge>
  );
}
