import { callStateLabel, CallState } from '@domain/calls';
import { Badge } from '@aws-amplify/ui-react';

/** The call's state in upper case ('APERTO', 'CHIUSO', ...). */
export function CallStateBadge({ state }: { state: number }) {
  const variation = state === CallState.OPEN ? 'success' : state === CallState.CREATE ? 'info' : undefined;
  return (
    <Badge variation={variation} className="call-state">
      {callStateLabel(state)}
    </Badge>
  );
}
