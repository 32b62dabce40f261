import { useEffect, useRef, useState } from 'react';

export interface JobStatusOptions<S> {
  /** What the job works on (a call, a flow): a new key asks again. */
  key: string;
  /** The status endpoint's fetcher. */
  fetch: () => Promise<S>;
  /** Whether a status says the job still runs (each kind names it its own way). */
  isRunning: (status: S) => boolean;
  /** How often to ask while it runs. */
  pollMs: number;
  /** A run seen ending by a poll (not one already over on mount). */
  onEnd?: (status: S) => void;
  /** Ask once on mount, so a reload (or another operator's click) shows a running job; default true. */
  askOnMount?: boolean;
  /** False: never ask (e.g. a delegate, who cannot see it). */
  enabled?: boolean;
  /** The status known before asking (e.g. from the list the page already holds). */
  initial?: S | null;
}

/**
 * The status of a background job (functions/jobs) on screen: asked on mount, then every `pollMs` while it
 * runs; a failed poll keeps waiting (the next one tries again; 'other failures: only logged', §8).
 * `setStatus` hands over the answer of the request that started the job.
 */
export function useJobStatus<S>({
  key,
  fetch,
  isRunning,
  pollMs,
  onEnd,
  askOnMount = true,
  enabled = true,
  initial = null,
}: JobStatusOptions<S>) {
  const [status, setStatus] = useState<S | null>(initial);
  const latest = useRef({ fetch, isRunning, onEnd });
  latest.current = { fetch, isRunning, onEnd };

  useEffect(() => {
    if (!enabled || !askOnMount) return;
    let current = true;
    latest.current.fetch().then(
      (answer) => current && setStatus(answer),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [key, enabled, askOnMount]);

  const running = status !== null && isRunning(status);
  useEffect(() => {
    if (!running || !enabled) return;
    const timer = window.setTimeout(() => {
      latest.current.fetch().then(
        (answer) => {
          setStatus(answer);
          if (!latest.current.isRunning(answer)) latest.current.onEnd?.(answer);
        },
        // A new object, the same status: the effect runs again and the next poll tries again.
        () => setStatus((previous) => (previous ? { ...previous } : previous)),
      );
    }, pollMs);
    return () => window.clearTimeout(timer);
  }, [key, running, enabled, status, pollMs]);

  return { status, running, setStatus };
}

/**
 * A background job the operator starts after a confirmation ('Sincronizza', 'Aggiorna ISEE da INPS'): its
 * status as useJobStatus keeps it, the confirmation asked, the request that starts it and that request's failure.
 */
export function useStartedJob<S>({ start, ...options }: JobStatusOptions<S> & { start: () => Promise<S> }) {
  const job = useJobStatus(options);
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setStarting(true);
    setError(null);
    try {
      job.setStatus(await start());
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setStarting(false);
      setConfirming(false);
    }
  };
  return { ...job, starting, confirming, setConfirming, error, setError, start: run };
}

export type StartedJob<S> = ReturnType<typeof useStartedJob<S>>;
