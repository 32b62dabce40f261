import { Button, Flex } from '@aws-amplify/ui-react';
import { ButtonLink } from '@/components/button-link';
import { DisabledButton } from '@/components/disabled-button';
import { paths } from '@/config/paths';
import { deleteEnrolment } from '../api/delete-enrolment';
import { sendSinglePayment, type StartExport } from '../api/send-single-payment';
import type { EnrolmentRow } from '../api/types';
import { updateEnrolmentState } from '../api/update-enrolment-state';
import {
  actionsFor,
  movesFrom,
  stateCodeFor,
  type EnrolmentAction,
  type EnrolmentMove,
} from '../utils/enrolment-actions';
import { SINGLE_PAYMENT_EXEMPT } from '../utils/enrolment-format';
import { singlePaymentTexts } from '../utils/single-payment-texts';

/** A change waiting for 'Conferma'; `run` may return the success text, otherwise `done` shows. */
export type Pending = { title: string; message: string; run: () => Promise<unknown>; done: string };

/** The moves confirmed by a question alone (approving asks the hours in its own modal, editing too). */
const questions: Record<
  Exclude<EnrolmentMove, 'confirm' | 'edit'>,
  { title: string; message: (who: string) => string; done: (who: string) => string }
> = {
  refuse: {
    title: 'Rifiuta iscrizione',
    message: (who) => `Confermi di voler rifiutare la richiesta di ${who}?`,
    done: (who) => `La richiesta di ${who} è stata rifiutata.`,
  },
  suspend: {
    title: 'Sospendi iscrizione',
    message: (who) => `Confermi di voler sospendere l’iscrizione di ${who}?`,
    done: (who) => `L’iscrizione di ${who} è stata sospesa.`,
  },
  reactivate: {
    title: 'Riattiva iscrizione',
    message: (who) => `Confermi di voler riattivare l’iscrizione di ${who}?`,
    done: (who) => `L’iscrizione di ${who} è stata riattivata.`,
  },
  reopen: {
    title: 'Riattiva richiesta',
    message: (who) => `Confermi di voler riportare in attesa la richiesta di ${who}? Andrà poi confermata di nuovo.`,
    done: (who) => `La richiesta di ${who} è di nuovo in attesa.`,
  },
};

/** The buttons' look: the name of each ends with whose row it is ('Conferma Anna Bruno'). */
const buttons: Record<
  Exclude<EnrolmentAction, 'view' | 'viewPayments' | 'singlePayment'>,
  { label: string; variation?: 'primary'; colorTheme?: 'error' }
> = {
  confirm: { label: 'Conferma', variation: 'primary' },
  refuse: { label: 'Rifiuta', colorTheme: 'error' },
  edit: { label: 'Modifica' },
  suspend: { label: 'Sospendi' },
  reactivate: { label: 'Riattiva', variation: 'primary' },
  reopen: { label: 'Riattiva' },
  delete: { label: 'Elimina', colorTheme: 'error' },
};

/**
 * The single payment: sends this month's position of one citizen to MyPay (an export of one fiscal code).
 * Visibly disabled, with its reason in a tooltip the keyboard reaches too, when the ISEE is 3000 € or less.
 */
function SinglePaymentButton({ row, onSend }: { row: EnrolmentRow; onSend: () => void }) {
  if (row.singlePaymentAllowed) {
    return (
      <Button size="small" aria-label={`Pagamento singolo ${row.firstName} ${row.lastName}`} onClick={onSend}>
        Pagamento singolo
      </Button>
    );
  }
  return (
    <DisabledButton
      look="amplify-button--small"
      aria-label={`Pagamento singolo ${row.firstName} ${row.lastName}`}
      reason={SINGLE_PAYMENT_EXEMPT}
    >
      Pagamento singolo
    </DisabledButton>
  );
}

export interface EnrolmentRowActionsProps {
  row: EnrolmentRow;
  callId: string;
  /** 'Conferma': the modal that asks the hours. */
  onConfirm: (row: EnrolmentRow) => void;
  /** 'Modifica': the modal of ranking and hours. */
  onEdit: (row: EnrolmentRow) => void;
  /** Any other change: asked in the confirmation dialog. */
  onAsk: (pending: Pending) => void;
  startExport: StartExport;
}

/** The buttons of a row of 'Iscritti al bando', as its state allows (spec part 2 §4). */
export function EnrolmentRowActions({ row, callId, onConfirm, onEdit, onAsk, startExport }: EnrolmentRowActionsProps) {
  const who = `${row.firstName} ${row.lastName}`;
  const record = `${paths.userRecord}?citizen=${encodeURIComponent(row.userId)}`;
  const moves = movesFrom(row.state);
  const click = (action: keyof typeof buttons) => {
    if (action === 'confirm') return onConfirm(row);
    if (action === 'edit') return onEdit(row);
    if (action === 'delete') {
      return onAsk({
        title: 'Elimina iscrizione',
        message: `Confermi di voler eliminare l’iscrizione di ${who} dal bando?`,
        done: `L’iscrizione di ${who} è stata eliminata.`,
        run: () => deleteEnrolment(row.id),
      });
    }
    const to = moves.find((move) => move.action === action)!.to;
    const question = questions[action];
    onAsk({
      title: question.title,
      message: question.message(who),
      done: question.done(who),
      run: () => updateEnrolmentState(row, stateCodeFor(to)),
    });
  };
  return (
    <Flex gap="xs" justifyContent="flex-end" wrap="wrap" className="enrolment-actions">
      {actionsFor(row.state, false).map((action) => {
        switch (action) {
          case 'view':
            return (
              <ButtonLink key={action} to={record} size="small" aria-label={`Visualizza pagamenti e profilo di ${who}`}>
                Visualizza
              </ButtonLink>
            );
          case 'viewPayments':
            return (
              <ButtonLink key={action} to={record} size="small" aria-label={`Visualizza pagamenti di ${who}`}>
                Visualizza pagamenti
              </ButtonLink>
            );
          case 'singlePayment':
            return (
              <SinglePaymentButton
                key={action}
                row={row}
                onSend={() =>
                  onAsk({
                    title: 'Pagamento singolo',
                    ...singlePaymentTexts(who),
                    run: () => sendSinglePayment(startExport, callId, row.fiscalCode),
                  })
                }
              />
            );
          default: {
            const { label, variation, colorTheme } = buttons[action];
            return (
              <Button
                key={action}
                size="small"
                variation={variation}
                colorTheme={colorTheme}
                aria-label={`${label} ${who}`}
                onClick={() => click(action)}
              >
                {label}
              </Button>
            );
          }
        }
      })}
    </Flex>
  );
}
