/**
 * Page navigation over an API that pages by cursor (`{ items, nextCursor }`): the pages already
 * reached are remembered as a stack of cursors, so one can go back, jump to any known page, and go
 * forward one page at a time. Pure: the hook in `cursor-pagination.tsx` drives it.
 */
export interface CursorPagesState {
  /** cursors[i] asks for page i + 1; the first page has no cursor. */
  cursors: (string | null)[];
  /** The current page, from 0. */
  index: number;
  /**
   * A page known to be the last even though the API gave it a next cursor: DynamoDB answers a
   * full page with a cursor, and the page after it turned out empty.
   */
  lastIndex: number | null;
}

export type CursorPagesAction =
  /** Forward one page; `nextCursor` is the cursor the current page came with. */
  | { type: 'next'; nextCursor: string | null }
  | { type: 'previous' }
  /** Jump to a page already reached (1-based, as the pagination control counts). */
  | { type: 'goTo'; page: number }
  /** The current page (not the first) came back empty: step back and remember where the list ends. */
  | { type: 'emptyPage' }
  | { type: 'reset' };

export const initialCursorPages: CursorPagesState = { cursors: [null], index: 0, lastIndex: null };

export function cursorPagesReducer(state: CursorPagesState, action: CursorPagesAction): CursorPagesState {
  switch (action.type) {
    case 'next': {
      if (state.index + 1 < state.cursors.length) return { ...state, index: state.index + 1 };
      if (action.nextCursor === null || state.lastIndex === state.index) return state;
      return { ...state, cursors: [...state.cursors, action.nextCursor], index: state.index + 1 };
    }
    case 'previous':
      return state.index > 0 ? { ...state, index: state.index - 1 } : state;
    case 'goTo': {
      const index = action.page - 1;
      if (index === state.index || index < 0 || index >= state.cursors.length) return state;
      return { ...state, index };
    }
    case 'emptyPage': {
      if (state.index === 0) return state;
      const index = state.index - 1;
      return { cursors: state.cursors.slice(0, state.index), index, lastIndex: index };
    }
    case 'reset':
      return initialCursorPages;
  }
}

export interface CursorPagesView {
  /** 1-based, as Amplify's Pagination counts. */
  currentPage: number;
  /** The pages reached so far. */
  totalPages: number;
  /** True when the current page is the last one reached and the API offers a next one. */
  hasMorePages: boolean;
}

/** What the pagination control shows, given the state and the cursor the current page came with. */
export function cursorPagesView(state: CursorPagesState, nextCursor: string | null | undefined): CursorPagesView {
  const onLastKnown = state.index === state.cursors.length - 1;
  return {
    currentPage: state.index + 1,
    totalPages: state.cursors.length,
    hasMorePages: onLastKnown && nextCursor != null && state.lastIndex !== state.index,
  };
}
