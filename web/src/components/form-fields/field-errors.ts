import type { ApiError } from '@/lib/api';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * The messages a form shows beside its fields, from a field → message map (`fieldErrors()` of
 * `@domain/validation`, or an ApiError's `fieldErrors`). Messages for fields the form does not have
 * are counted in `unmatched`: the form shows those in its alert instead.
 */
export function pickFieldErrors<F extends string>(byField: Record<string, string>, fields: readonly F[]) {
  const errors: FieldErrors<F> = {};
  let unmatched = 0;
  for (const [field, message] of Object.entries(byField)) {
    if ((fields as readonly string[]).includes(field)) errors[field as F] ??= message;
    else unmatched += 1;
  }
  return { errors, unmatched };
}

/**
 * Splits an API failure between the fields and the form's alert: the fields get their messages; the
 * alert gets the ApiError's message when no field message could be placed (or some were unmatched).
 */
export function splitApiError<F extends string>(
  error: ApiError,
  fields: readonly F[],
): { errors: FieldErrors<F>; alert: string | null } {
  const { errors, unmatched } = pickFieldErrors(error.fieldErrors, fields);
  const placed = Object.keys(errors).length;
  return { errors, alert: placed === 0 || unmatched > 0 ? error.message : null };
}
