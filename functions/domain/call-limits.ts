/**
 * The calls' numeric limits and states, in a module of plain constants (no zod), so the web's first load can use
 * them without building the calls' schemas. `calls.ts` re-exports them.
 */

/** Spec limits: up to 5 forms per call; page sizes part 1 §9 and part 2 §9. */
export const MAX_CALL_FILES = 5;
export const CALLS_PAGE_SIZE = 15;
export const OPEN_CALLS_PAGE_SIZE = 6;
export const BOARD_SIZE = 3;

/** Call (bando) states as the spec numbers them (part 2 §4), sent as numbers on the wire. */
export const CallState = { CREATE: 0, OPEN: 1, CLOSED: 2, ARCHIVED: 3 } as const;
export type CallStateValue = (typeof CallState)[keyof typeof CallState];
