import { describe, expect, it } from 'vitest';
import {
  cursorPagesReducer,
  cursorPagesView,
  initialCursorPages,
  type CursorPagesAction,
  type CursorPagesState,
} from '@/components/cursor-pages';

const run = (...actions: CursorPagesAction[]): CursorPagesState =>
  actions.reduce(cursorPagesReducer, initialCursorPages);

describe('cursor pagination', () => {
  it('starts on page 1 with no cursor, and offers a next page only when the API gave a cursor', () => {
    expect(initialCursorPages.cursors[0]).toBeNull();
    expect(cursorPagesView(initialCursorPages, 'c1')).toEqual({ currentPage: 1, totalPages: 1, hasMorePages: true });
    expect(cursorPagesView(initialCursorPages, null)).toEqual({ currentPage: 1, totalPages: 1, hasMorePages: false });
  });

  it('pushes the next cursor when going forward and asks for the page with it', () => {
    const state = run({ type: 'next', nextCursor: 'c1' }, { type: 'next', nextCursor: 'c2' });
    expect(state.cursors).toEqual([null, 'c1', 'c2']);
    expect(state.cursors[state.index]).toBe('c2');
    expect(cursorPagesView(state, null)).toEqual({ currentPage: 3, totalPages: 3, hasMorePages: false });
  });

  it('goes back and forward again through the known cursors without growing the stack', () => {
    const state = run(
      { type: 'next', nextCursor: 'c1' },
      { type: 'next', nextCursor: 'c2' },
      { type: 'previous' },
      { type: 'previous' },
      { type: 'next', nextCursor: 'other' },
    );
    expect(state.cursors).toEqual([null, 'c1', 'c2']);
    expect(state.index).toBe(1);
    // Not on the last known page: the control's next button works through totalPages.
    expect(cursorPagesView(state, 'c2')).toEqual({ currentPage: 2, totalPages: 3, hasMorePages: false });
  });

  it('jumps to any page already reached, and ignores the others', () => {
    const state = run({ type: 'next', nextCursor: 'c1' }, { type: 'next', nextCursor: 'c2' });
    expect(cursorPagesReducer(state, { type: 'goTo', page: 1 }).index).toBe(0);
    expect(cursorPagesReducer(state, { type: 'goTo', page: 4 })).toBe(state);
    expect(cursorPagesReducer(state, { type: 'goTo', page: 0 })).toBe(state);
  });

  it('does not go forward without a cursor, nor back from the first page', () => {
    expect(run({ type: 'next', nextCursor: null })).toBe(initialCursorPages);
    expect(run({ type: 'previous' })).toBe(initialCursorPages);
  });

  it('steps back from an empty page and marks the previous one as the last', () => {
    // A full page of 20 comes with a cursor even when nothing follows (DynamoDB).
    const state = run({ type: 'next', nextCursor: 'c1' }, { type: 'emptyPage' });
    expect(state).toEqual({ cursors: [null], index: 0, lastIndex: 0 });
    expect(cursorPagesView(state, 'c1').hasMorePages).toBe(false);
    expect(cursorPagesReducer(state, { type: 'next', nextCursor: 'c1' })).toBe(state);
  });

  it('resets to the first page', () => {
    expect(run({ type: 'next', nextCursor: 'c1' }, { type: 'reset' })).toEqual(initialCursorPages);
  });
});
