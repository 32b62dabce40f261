/**
 * What the operator may do on a row of 'Iscritti al bando' (spec part 2 §4). The moves are not written
 * here: they are the domain's transitions (subscriptionTransitions), each named by where it leads; beside
 * them, a row offers what reads or sends without changing the state.
 */
import { subscriptionStateByCode, subscriptionTransitions, type SubscriptionState } from '@domain/subscriptions';
import type { StateCode } from '../api/types';

/** A move: a transition the domain allows, as the operator's button names it. */
export type EnrolmentMove = 'confirm' | 'edit' | 'reactivate' | 'refuse' | 'suspend' | 'reopen';
export type EnrolmentAction = EnrolmentMove | 'view' | 'viewPayments' | 'singlePayment' | 'delete';

/** The button of a transition: approving a request is 'confirm', approving again an approved one (new hours) 'edit', a suspended one 'reactivate'. */
function moveName(from: SubscriptionState, to: SubscriptionState): EnrolmentMove {
  switch (to) {
    case 'VALIDATED':
      return from === 'VALIDATED' ? 'edit' : from === 'SUSPENDED' ? 'reactivate' : 'confirm';
    case 'REFUSED':
      return 'refuse';
    case 'SUSPENDED':
      return 'suspend';
    case 'ADDED':
      return 'reopen';
  }
}

/** Beside the moves: an approved row opens the citizen's record, sends a single payment or is deleted; a suspended one shows its payments. */
const otherActions: Record<SubscriptionState, readonly EnrolmentAction[]> = {
  ADDED: [],
  VALIDATED: ['view', 'singlePayment', 'delete'],
  SUSPENDED: ['viewPayments'],
  REFUSED: [],
};

/** The order the buttons stand in a row. */
const buttonOrder: readonly EnrolmentAction[] = [
  'confirm',
  'refuse',
  'edit',
  'view',
  'suspend',
  'reactivate',
  'viewPayments',
  'singlePayment',
  'delete',
  'reopen',
];

/** The moves out of a state, each with the state it leads to. */
export const movesFrom = (state: SubscriptionState): { action: EnrolmentMove; to: SubscriptionState }[] =>
  subscriptionTransitions[state].map((to) => ({ action: moveName(state, to), to }));

/** What the operator may do on a row in this state; a delegate reads only. */
export function actionsFor(state: SubscriptionState, readOnly: boolean): EnrolmentAction[] {
  if (readOnly) return [];
  const offered = new Set<EnrolmentAction>([...movesFrom(state).map((move) => move.action), ...otherActions[state]]);
  return buttonOrder.filter((action) => offered.has(action));
}

/** The update code (part 2 §4) the API takes for a move to `state`. */
export function stateCodeFor(state: SubscriptionState): StateCode {
  const code = Object.keys(subscriptionStateByCode).find((key) => subscriptionStateByCode[Number(key)] === state);
  return Number(code) as StateCode;
}
