/**
 * The debt position (posizione debitoria), one owner: its record, its states (states.ts: "open" is decided
 * there and nowhere else), its pure transitions, each with the guard the stored position must pass
 * (transitions.ts, guards.ts), and the month's plan (debt-positions.ts planMonth). The one writer of position
 * items is functions/positions/repository.ts, which tells the "positions changed" port (changes.ts) what it
 * wrote. No zod here.
 */
export * from './states.ts';
export * from './guards.ts';
export * from './transitions.ts';
export * from './changes.ts';
export {
  planMonth,
  publicPosition,
  knownToMyPay,
  positionIud,
  syncCandidateMonths,
  type MonthPlan,
  type PositionRecord,
  type PlannedSubscription,
} from '../debt-positions.ts';
export { receiptOf, type ExportOutcome, type PaymentRecord } from '../payment-record.ts';
