/**
 * The web's reads and saves, on TanStack Query: reads are cached by key, a read whose key changes keeps
 * showing the previous answer until the new one is in, and every save marks all reads stale, so the lists and
 * records on screen refetch at once and the others when next shown (a save can change several screens: a
 * decided ISEE changes the user's record and the payment list).
 *
 * The hooks hand TanStack the client themselves instead of reading it from a provider, so that the library
 * loads with the first page that reads data and not with the landing page (the first-load budget).
 */
import { keepPreviousData, QueryClient, useMutation, useQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, toApiError } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    // An answer is shown as soon as it comes: a failure is the API's word, not retried behind the user's back.
    queries: { retry: false, refetchOnWindowFocus: false, placeholderData: keepPreviousData },
    mutations: { retry: false },
  },
});

/** API failures pass through; anything else (a bug) is logged and shown as the generic message. */
function asApiError(error: unknown): ApiError {
  if (!(error instanceof ApiError)) console.error(error);
  return toApiError(error);
}

async function orApiError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asApiError(error);
  }
}

export interface AsyncState<T> {
  data: T | undefined;
  /** The failure of the last run, as an ApiError (other errors are wrapped in the generic message). */
  error: ApiError | undefined;
  /** True while a run is in flight (also during a reload, when `data` still holds the previous answer). */
  isLoading: boolean;
  /** Asks the API again. */
  reload: () => void;
}

/**
 * One read, cached under `key` (which names every input of `run`). Pass `enabled: false` to skip it
 * (e.g. a missing id).
 */
export function useApiQuery<T>(
  key: QueryKey,
  run: () => Promise<T>,
  options: { enabled?: boolean } = {},
): AsyncState<T> {
  const query = useQuery<T, ApiError>(
    { queryKey: key, queryFn: () => orApiError(run), enabled: options.enabled ?? true },
    queryClient,
  );
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return {
    data: query.data,
    // A new run forgets the previous failure.
    error: query.isFetching ? undefined : (query.error ?? undefined),
    isLoading: query.isFetching,
    reload,
  };
}

export type ActionResult<R> = { ok: true; data: R } | { ok: false; error: ApiError };

export interface AsyncAction<A extends unknown[], R> {
  /** Runs the action; never throws: the answer says whether it succeeded (the error is also kept in `error`). */
  run: (...args: A) => Promise<ActionResult<R>>;
  isRunning: boolean;
  error: ApiError | undefined;
  clearError: () => void;
}

/** A save (POST, PUT, DELETE) with its running flag and its last error; once it succeeds, every read is stale. */
export function useApiMutation<A extends unknown[], R>(action: (...args: A) => Promise<R>): AsyncAction<A, R> {
  const mutation = useMutation<R, ApiError, A>(
    {
      mutationFn: (args) => orApiError(() => action(...args)),
      onSuccess: () => void queryClient.invalidateQueries(),
    },
    queryClient,
  );
  const { mutateAsync, reset } = mutation;
  const run = useCallback(
    async (...args: A): Promise<ActionResult<R>> => {
      try {
        return { ok: true, data: await mutateAsync(args) };
      } catch (error) {
        return { ok: false, error: error as ApiError };
      }
    },
    [mutateAsync],
  );
  return { run, isRunning: mutation.isPending, error: mutation.error ?? undefined, clearError: reset };
}
