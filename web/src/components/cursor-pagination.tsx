import { Pagination } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useReducer } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import type { Page } from '@/lib/api';
import { useApiQuery, type AsyncState } from '@/lib/queries';
import { cursorPagesReducer, cursorPagesView, initialCursorPages } from './cursor-pages';

export interface CursorPaginationProps {
  /** 1-based index of the page shown. */
  currentPage: number;
  /** Pages reached so far. */
  totalPages: number;
  /** The API offers a page after the last one reached. */
  hasMorePages: boolean;
  onNext: () => void;
  onPrevious: () => void;
  /** A page already reached was chosen (1-based). */
  onChange: (page: number) => void;
  /** Accessible name of the navigation landmark; 'Paginazione' by default. */
  label?: string;
}

/**
 * Amplify's Pagination with Italian labels, for lists paged by cursor. It renders nothing when the
 * whole list fits in one page. Use it with `useCursorList`, which supplies every prop.
 */
export function CursorPagination({
  currentPage,
  totalPages,
  hasMorePages,
  onNext,
  onPrevious,
  onChange,
  label = 'Paginazione',
}: CursorPaginationProps) {
  if (totalPages <= 1 && !hasMorePages) return null;
  return (
    <Pagination
      aria-label={label}
      currentPage={currentPage}
      totalPages={totalPages}
      hasMorePages={hasMorePages}
      siblingCount={2}
      onNext={onNext}
      onPrevious={onPrevious}
      onChange={(page) => page !== undefined && onChange(page)}
      currentPageLabel="Pagina corrente"
      pageLabel="Vai alla pagina"
      previousLabel="Pagina precedente"
      nextLabel="Pagina successiva"
    />
  );
}

export interface CursorList<T, E extends object = object> extends Omit<AsyncState<Page<T>>, 'data'> {
  /** The current page's whole answer (what an API adds beside its items), undefined until the first answer. */
  page: (Page<T> & E) | undefined;
  /** The items of the current page ([] until the first answer). */
  items: T[];
  /** True once the current page's answer is in (even if empty). */
  isLoaded: boolean;
  /** Props for <CursorPagination>. */
  pagination: CursorPaginationProps;
  /** Back to the first page. */
  reset: () => void;
  /** How many items match in all, when the API counts them. */
  total: number | undefined;
}

/**
 * One page of a cursor-paged API list, with the pagination that walks it. `key` names the list and every
 * input of `fetchPage` (e.g. its filters); `fetchPage` receives the cursor of the page to load (null for the
 * first). Changing `key` goes back to the first page. A page past the first that comes back empty (the API
 * offered a cursor but nothing was left, or its rows were just deleted) sends the list back one page.
 */
export function useCursorList<T, E extends object = object>(
  key: QueryKey,
  fetchPage: (cursor: string | null) => Promise<Page<T> & E>,
): CursorList<T, E> {
  const [state, dispatch] = useReducer(cursorPagesReducer, initialCursorPages);
  const cursor = state.cursors[state.index] ?? null;
  const index = state.index;
  const resetKey = JSON.stringify(key);
  const query = useApiQuery([...key, { index, cursor }], async () => ({ index, page: await fetchPage(cursor) }));

  useEffect(() => {
    dispatch({ type: 'reset' });
  }, [resetKey]);

  const current = query.data && query.data.index === index ? query.data.page : undefined;
  const isEmptyLaterPage = !query.isLoading && current !== undefined && current.items.length === 0 && index > 0;
  useEffect(() => {
    if (isEmptyLaterPage) dispatch({ type: 'emptyPage' });
  }, [isEmptyLaterPage]);

  const view = cursorPagesView(state, current?.nextCursor);
  const nextCursor = current?.nextCursor ?? null;
  const onNext = useCallback(() => dispatch({ type: 'next', nextCursor }), [nextCursor]);
  const onPrevious = useCallback(() => dispatch({ type: 'previous' }), []);
  const onChange = useCallback((page: number) => dispatch({ type: 'goTo', page }), []);
  const reset = useCallback(() => dispatch({ type: 'reset' }), []);

  return {
    page: current,
    items: current?.items ?? [],
    isLoaded: current !== undefined && !isEmptyLaterPage,
    error: query.error,
    isLoading: query.isLoading || isEmptyLaterPage,
    reload: query.reload,
    reset,
    total: current?.total,
    pagination: { ...view, onNext, onPrevious, onChange },
  };
}
