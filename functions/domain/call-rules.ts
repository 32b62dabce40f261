import { CallState, MAX_CALL_FILES, type CallStateValue } from './call-limits.ts';
import { ValidationError } from './errors.ts';
import { fill, messages } from './messages.ts';
import { romeYear } from './period.ts';

/**
 * The calls' rules: states and their labels, the moves between them, the name search key. Without zod, so that
 * the functions that only apply them (the MyPay export's task) do not bundle the calls' schemas (calls.ts).
 */

/** The state shown in upper case, in Italian, everywhere a call's state is shown. */
export const callStateLabels: Record<CallStateValue, string> = {
  0: 'CREATO',
  1: 'APERTO',
  2: 'CHIUSO',
  3: 'ARCHIVIATO',
};
export const callStateLabel = (state: number): string => callStateLabels[state as CallStateValue] ?? String(state);

/** The default name of a new call: the service's name plus the current year (part 2 §2.12). */
export const defaultCallName = (serviceName: string, now = new Date()) => `${serviceName} ${romeYear(now)}`;

/** Lower case without accents: the key the name search compares (prefix of the name). */
export const nameSearchKey = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase('it')
    .replace(/\s+/g, ' ')
    .trim();

/** Forms an edit may still attach (part 2 §5: 5 minus those attached). */
export const remainingCallFiles = (attached: number) => Math.max(0, MAX_CALL_FILES - attached);

/**
 * Where an operator may move a call (the spec leaves the rules open): a call is prepared, opened, closed
 * and archived; a draft never opened may be archived at once; a closed call may be opened again; an
 * archived one is final. Keeping the state (an edit of the other fields) is always allowed.
 */
export const callTransitions: Record<CallStateValue, readonly CallStateValue[]> = {
  [CallState.CREATE]: [CallState.CREATE, CallState.OPEN, CallState.ARCHIVED],
  [CallState.OPEN]: [CallState.OPEN, CallState.CLOSED],
  [CallState.CLOSED]: [CallState.CLOSED, CallState.OPEN, CallState.ARCHIVED],
  [CallState.ARCHIVED]: [CallState.ARCHIVED],
};

export const canMoveCall = (from: number, to: number): boolean =>
  callTransitions[from as CallStateValue]?.includes(to as CallStateValue) ?? false;

/** Refuses (400, on the state field) a move the rules above do not allow. */
export function assertCallTransition(from: number, to: number): void {
  if (canMoveCall(from, to)) return;
  const detail = fill(messages.call.transition, { from: callStateLabel(from), to: callStateLabel(to) });
  throw new ValidationError(detail, { state: detail });
}
