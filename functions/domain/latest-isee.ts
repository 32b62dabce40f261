/**
 * The citizen's latest ISEE if it is VALIDATED, else none: one recorded but still to verify counts as no ISEE
 * (the fee, the right to apply, the expiry list, the enrolment CSV). A module of its own, with no imports, so
 * every function can ask it without bundling more.
 */
export const validatedIsee = <T extends { state: string }>(newest: T | null | undefined): T | null =>
  newest?.state === 'VALIDATED' ? newest : null;
