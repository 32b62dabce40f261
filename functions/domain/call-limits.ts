/**
 * The calls' numeric limits, in a module of plain constants (no zod), so the web's first load can use
 * them without building the calls' schemas. `calls.ts` re-exports them.
 */

/** Spec limits: up to 5 forms per call; page sizes part 1 §9 and part 2 §9. */
export const MAX_CALL_FILES = 5;
export const CALLS_PAGE_SIZE = 15;
export const OPEN_CALLS_PAGE_SIZE = 6;
export const BOARD_SIZE = 3;
