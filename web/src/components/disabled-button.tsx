import { useId, type ReactNode } from 'react';

export interface DisabledButtonProps {
  children: ReactNode;
  /** Why it is disabled: the tooltip, also the button's description. */
  reason: ReactNode;
  /** The button's own look beside 'amplify-button' (e.g. 'amplify-button--small'). */
  look: string;
  /** More classes of the tooltip's host (placement, layout). */
  hostClassName?: string;
  'aria-label'?: string;
}

/**
 * A button shown disabled with its reason in a tooltip: it stays reachable by the keyboard (aria-disabled,
 * not disabled), so that the tooltip shows on focus as on hover, and a press does nothing.
 */
export function DisabledButton({
  children,
  reason,
  look,
  hostClassName,
  'aria-label': accessibleName,
}: DisabledButtonProps) {
  const tipId = useId();
  return (
    <span className={hostClassName ? `tooltip-host ${hostClassName}` : 'tooltip-host'}>
      <button
        type="button"
        className={`amplify-button ${look} amplify-button--disabled`}
        aria-disabled="true"
        aria-label={accessibleName}
        aria-describedby={tipId}
        onClick={(event) => event.preventDefault()}
      >
        {children}
      </button>
      <span role="tooltip" id={tipId} className="tooltip">
        {reason}
      </span>
    </span>
  );
}
