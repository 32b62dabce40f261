import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { ApiError, toApiError } from '@/lib/api';

export interface AsyncState<T> {
  data: T | undefined;
  /** The failure of the last run, as an ApiError (other errors are wrapped in the generic message). */
  error: ApiError | undefined;
  /** True while a run is in flight (also during a reload, when `data` still holds the previous answer). */
  isLoading: boolean;
  /** Runs the function again with the same dependencies. */
  reload: () => void;
}

/** API failures pass through; anything else (a bug) is logged and shown as the generic message. */
function asApiError(error: unknown): ApiError {
  if (!(error instanceof ApiError)) console.error(error);
  return toApiError(error);
}

/**
 * Runs `run` whenever `deps` change (or `reload()` is called) and keeps its answer. Answers of
 * superseded runs are dropped, so a slow first page cannot overwrite a quick second one.
 * Pass `enabled: false` to skip running (e.g. a missing id).
 */
export function useAsync<T>(
  run: () => Promise<T>,
  deps: DependencyList,
  options: { enabled?: boolean } = {},
): AsyncState<T> {
  const enabled = options.enabled ?? true;
  const [state, setState] = useState<{ data?: T; error?: ApiError; isLoading: boolean }>({ isLoading: enabled });
  const [generation, setGeneration] = useState(0);
  const runRef = useRef(run);
  runRef.current = run;

  useEffect(() => {
    if (!enabled) {
      setState((previous) => ({ ...previous, isLoading: false }));
      return;
    }
    let current = true;
    setState((previous) => ({ data: previous.data, isLoading: true }));
    runRef.current().then(
      (data) => current && setState({ data, isLoading: false }),
      (error: unknown) =>
        current && setState((previous) => ({ data: previous.data, error: asApiError(error), isLoading: false })),
    );
    return () => {
      current = false;
    };
    // The caller's deps decide when to run (`run` itself is read through a ref).
  }, [...deps, enabled, generation]);

  const reload = useCallback(() => setGeneration((count) => count + 1), []);
  return { data: state.data, error: state.error, isLoading: state.isLoading, reload };
}

export type ActionResult<R> = { ok: true; data: R } | { ok: false; error: ApiError };

export interface AsyncAction<A extends unknown[], R> {
  /** Runs the action; never throws: the answer says whether it succeeded (the error is also kept in `error`). */
  run: (...args: A) => Promise<ActionResult<R>>;
  isRunning: boolean;
  error: ApiError | undefined;
  clearError: () => void;
}

/** A mutation (POST, PUT, DELETE) with its running flag and its last error. */
export function useAsyncAction<A extends unknown[], R>(action: (...args: A) => Promise<R>): AsyncAction<A, R> {
  const [isRunning, setRunning] = useState(false);
  const [error, setError] = useState<ApiError>();
  const actionRef = useRef(action);
  actionRef.current = action;

  const run = useCallback(async (...args: A): Promise<ActionResult<R>> => {
    setRunning(true);
    setError(undefined);
    try {
      const data = await actionRef.current(...args);
      return { ok: true, data };
    } catch (caught) {
      const failure = asApiError(caught);
      setError(failure);
      return { ok: false, error: failure };
    } finally {
      setRunning(false);
    }
  }, []);
  const clearError = useCallback(() => setError(undefined), []);
  return { run, isRunning, error, clearError };
}
