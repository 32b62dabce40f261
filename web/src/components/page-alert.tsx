import { Alert, type AlertVariations } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

/** Spec (part 1 §9): alerts hide themselves after 4000 ms. */
export const ALERT_AUTO_HIDE_MS = 4000;

export interface PageAlertProps {
  /** Nothing is rendered while the message is null or empty. */
  message: ReactNode | null | undefined;
  variation?: AlertVariations;
  /** Defaults to 'Attenzione' for errors and warnings, none otherwise. */
  heading?: ReactNode;
  /** Milliseconds before the alert hides itself (4000 by default); null keeps it until it is closed. */
  autoHideMs?: number | null;
  /** Shows the close button ('Chiudi avviso'); true by default. */
  isDismissible?: boolean;
  /** Called when the alert is closed or hides itself: the owner clears its message there. */
  onDismiss?: () => void;
}

/**
 * The portal's alert: 'Attenzione' box for errors (role="alert", announced at once), a polite
 * status (role="status") for the other variations. It hides itself after `autoHideMs`; the countdown
 * pauses while the pointer or the keyboard focus is on it, so it can be read and closed.
 */
export function PageAlert({
  message,
  variation = 'error',
  heading,
  autoHideMs = ALERT_AUTO_HIDE_MS,
  isDismissible = true,
  onDismiss,
}: PageAlertProps) {
  const [paused, setPaused] = useState(false);
  const dismissRef = useRef(onDismiss);
  dismissRef.current = onDismiss;
  const visible = message !== null && message !== undefined && message !== '' && message !== false;

  useEffect(() => {
    if (!visible || autoHideMs === null || paused) return;
    const timer = window.setTimeout(() => dismissRef.current?.(), autoHideMs);
    return () => window.clearTimeout(timer);
  }, [visible, autoHideMs, paused, message]);

  if (!visible) return null;
  const urgent = variation === 'error' || variation === 'warning';
  return (
    <Alert
      variation={variation}
      heading={heading ?? (urgent ? 'Attenzione' : undefined)}
      role={urgent ? 'alert' : 'status'}
      isDismissible={isDismissible}
      dismissButtonLabel="Chiudi avviso"
      onDismiss={onDismiss}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      marginBlock="small"
    >
      {message}
    </Alert>
  );
}

export interface FlashMessage {
  text: string;
  variation: AlertVariations;
}

/**
 * A message that comes and goes (e.g. after a delete): `show()` it, then render
 * `<PageAlert key={flash.key} {...flash.props} />`. Showing the same text twice restarts the alert.
 */
export function useFlashMessage() {
  const [flash, setFlash] = useState<(FlashMessage & { key: number }) | null>(null);
  const show = useCallback(
    (text: string, variation: AlertVariations = 'error') => setFlash({ text, variation, key: Date.now() }),
    [],
  );
  const clear = useCallback(() => setFlash(null), []);
  return {
    show,
    clear,
    /** A fresh key per message makes React mount a fresh alert (a closed Amplify Alert stays hidden otherwise). */
    key: flash?.key ?? 0,
    props: {
      message: flash?.text ?? null,
      variation: flash?.variation ?? 'error',
      onDismiss: clear,
    } satisfies PageAlertProps,
  };
}
