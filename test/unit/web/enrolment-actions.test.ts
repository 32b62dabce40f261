import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { enrolmentStateCodes, type EnrolmentRow } from '../../../functions/domain/enrolment.ts';
import {
  nextSubscriptionState,
  subscriptionStates,
  type SubscriptionState,
} from '../../../functions/domain/subscriptions.ts';
import { EnrolmentRowActions } from '@/features/enrolments/components/enrolment-row-actions';
import { actionsFor, movesFrom, stateCodeFor } from '@/features/enrolments/utils/enrolment-actions';

const row = (state: SubscriptionState, singlePaymentAllowed = true) =>
  ({
    id: 'c.u',
    userId: 'u',
    fiscalCode: 'RSSMRA85C52H501N',
    firstName: 'Maria',
    lastName: 'Rossi',
    state,
    singlePaymentAllowed,
    dataUpdate: '1',
  }) as unknown as EnrolmentRow;

/** The names of the buttons and links an operator finds on a row, in order. */
function buttonsOn(state: SubscriptionState): string[] {
  const html = renderToStaticMarkup(
    createElement(
      MemoryRouter,
      null,
      createElement(EnrolmentRowActions, {
        row: row(state),
        callId: 'c',
        onConfirm: () => undefined,
        onEdit: () => undefined,
        onAsk: () => undefined,
        startExport: async () => undefined,
      }),
    ),
  );
  return [...html.matchAll(/aria-label="([^"]+)"/g)].map((match) => match[1]!.replace(/&#x27;|’/g, '’'));
}

/** The update codes the domain accepts from a state (what the API would not answer with a 409). */
const acceptedCodes = (state: SubscriptionState) =>
  enrolmentStateCodes.filter((code) => {
    try {
      nextSubscriptionState(state, code);
      return true;
    } catch {
      return false;
    }
  });

describe('the buttons of a row of Iscritti al bando (part 2 §4)', () => {
  it('shows the operator the moves of each state, and what reads or sends beside them', () => {
    expect(buttonsOn('ADDED')).toEqual(['Conferma Maria Rossi', 'Rifiuta Maria Rossi']);
    expect(buttonsOn('VALIDATED')).toEqual([
      'Modifica Maria Rossi',
      'Visualizza pagamenti e profilo di Maria Rossi',
      'Sospendi Maria Rossi',
      'Pagamento singolo Maria Rossi',
      'Elimina Maria Rossi',
    ]);
    expect(buttonsOn('SUSPENDED')).toEqual(['Riattiva Maria Rossi', 'Visualizza pagamenti di Maria Rossi']);
    expect(buttonsOn('REFUSED')).toEqual(['Riattiva Maria Rossi']);
  });

  it('offers exactly the moves the domain allows, each sending a code that leads where its button says', () => {
    for (const state of subscriptionStates) {
      const moves = movesFrom(state);
      expect(moves.map((move) => stateCodeFor(move.to)).sort()).toEqual(acceptedCodes(state).sort());
      for (const move of moves) {
        expect(nextSubscriptionState(state, stateCodeFor(move.to))).toBe(move.to);
        expect(actionsFor(state, false)).toContain(move.action);
      }
    }
  });

  it('gives a delegate no button', () => {
    for (const state of subscriptionStates) expect(actionsFor(state, true)).toEqual([]);
  });
});
