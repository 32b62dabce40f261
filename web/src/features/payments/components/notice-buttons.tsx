import { Badge, Button, Flex, Text } from '@aws-amplify/ui-react';
import { isNoticeSendable } from '@domain/notices';
import { ioBadge, ioSentBefore, type Position } from '@domain/payments';
import { useState } from 'react';
import { Dialog } from '@/components/dialog';
import { ApiError } from '@/lib/api';
import { emailNotice } from '../api/email-notice';
import { checkIoNotice, sendIoNotice } from '../api/send-io-notice';
import { NoticeNumber } from './notice-number';
import { noticeUnavailableReason } from '../utils/platform-texts';
import { formatDateTime } from '@/lib/dates';

type NoticePosition = Pick<
  Position,
  | 'iud'
  | 'cognome'
  | 'nome'
  | 'titolo'
  | 'nav'
  | 'codIuv'
  | 'isPagato'
  | 'annullato'
  | 'isEmailSent'
  | 'dataIsEmailSent'
  | 'ioId'
  | 'ioStatus'
  | 'importoDovuto'
  | 'dataScadenza'
  | 'descrizione'
> &
  Partial<Pick<Position, 'dataIoSent'>>;

export interface NoticeButtonsProps {
  position: NoticePosition;
  /**
   * Called after anything that changed the stored position: with it after a send or a 'Verifica' (isEmailSent
   * and its date, the new ioId and status), without it after a refusal that recorded why (a citizen without IO).
   */
  onSent?: (position?: Position) => void;
  /**
   * Operator-admin §6: delegates see the badges with the buttons disabled; citizens do not get the
   * component's buttons at all (the API refuses both anyway).
   */
  readOnly?: boolean;
}

/** An IO refusal a second 'Conferma' would meet again (the citizen, the amount, the service's key): 409, 422, 502. */
const refusedForGood = (error: unknown) => error instanceof ApiError && [409, 422, 502].includes(error.status);

/**
 * Operator-admin §4: the e-mail badge (sent, with its date, or not) and the IO badge: 'Inviato su IO' only for
 * a message IO processed, 'In consegna su IO' while IO has not decided, else 'Non inviato su IO' with why
 * (issue 26). A notice not sent is a warning only while it can still be sent: once the position is paid or
 * cancelled there is nothing to remind the operator of, and the badge is neutral.
 */
export function NoticeBadges({ position }: { position: NoticePosition }) {
  const io = ioBadge(position);
  const notSent = isNoticeSendable(position) ? 'warning' : undefined;
  return (
    <Flex direction="column" gap="xxs">
      <Flex gap="xs" wrap="wrap">
        <Badge variation={position.isEmailSent ? 'success' : notSent}>
          {position.isEmailSent
            ? `Email inviata${position.dataIsEmailSent ? ` il ${formatDateTime(position.dataIsEmailSent)}` : ''}`
            : 'Email non inviata'}
        </Badge>
        <Badge
          variation={
            io.state === 'sent'
              ? 'success'
              : io.state === 'pending'
                ? 'info'
                : io.state === 'unconfirmed'
                  ? 'warning'
                  : notSent
          }
        >
          {io.label}
        </Badge>
      </Flex>
      {io.reason && <Text className="form-hint notice-badges__reason">IO: {io.reason}</Text>}
    </Flex>
  );
}

type Channel = 'email' | 'io';

/**
 * IO has no idempotency key: a notice sent (or maybe sent) before goes again only when the operator confirms a
 * second message, knowing when the first one went.
 */
function ioResendQuestion(position: NoticePosition, who: string): string {
  const when = position.dataIoSent ? ` il ${formatDateTime(position.dataIoSent)}` : '';
  return position.ioStatus === 'UNCONFIRMED'
    ? `Un invio su IO a ${who}${when} non è stato confermato: il messaggio potrebbe essere già arrivato. Hai verificato con il cittadino? Confermando, ${who} potrebbe ricevere un secondo messaggio.`
    : `L’avviso è già stato inviato su IO a ${who}${when}. Confermando, ${who} riceverà un secondo messaggio.`;
}
const channels: Record<
  Channel,
  { button: string; title: string; question: (who: string) => string; send: (iud: string) => Promise<Position> }
> = {
  email: {
    button: 'Email',
    title: 'Invio avviso per email',
    question: (who) => `Confermi di voler inviare per email l’avviso di pagamento a ${who}? L’avviso PDF è allegato.`,
    send: emailNotice,
  },
  io: {
    button: 'IO',
    title: 'Invio avviso su IO',
    question: (who) => `Confermi di voler inviare l’avviso di pagamento a ${who} sull’app IO?`,
    send: sendIoNotice,
  },
};

/**
 * A position's notice buttons and badges, self-contained so any payments table can place it in a row: the
 * e-mail modal and the IO modal (confirm, then send); a failure shows 'Attenzione.' followed by the
 * server's message (operator-admin §8) and leaves the modal open. After an IO refusal that would only repeat
 * (the citizen has no IO, IO rejected the message, the amount, the service's key) 'Conferma' is disabled until
 * the modal is opened again; IO down or busy leaves it enabled. A message 'In consegna su IO' gets 'Verifica'.
 */
export function NoticeButtons({ position, onSent, readOnly = false }: NoticeButtonsProps) {
  const [open, setOpen] = useState<Channel | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; final: boolean } | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkFailure, setCheckFailure] = useState<string | null>(null);
  const sendable = isNoticeSendable(position);
  const resend = ioSentBefore(position);
  const pending = ioBadge(position).state === 'pending';
  const who = `${position.cognome} ${position.nome}`;
  const reason = !sendable ? noticeUnavailableReason(position) : undefined;

  const close = () => {
    if (busy) return;
    setOpen(null);
    setFailure(null);
  };
  const confirm = async () => {
    if (!open) return;
    setBusy(true);
    setFailure(null);
    try {
      const updated =
        open === 'io' ? await sendIoNotice(position.iud, resend) : await channels[open].send(position.iud);
      setOpen(null);
      onSent?.(updated);
    } catch (error) {
      setFailure({ message: (error as Error).message, final: open === 'io' && refusedForGood(error) });
      // A citizen without IO, a message IO rejected, an unconfirmed send: recorded on the position, the badge says so.
      if (open === 'io' && error instanceof ApiError && error.status === 409) onSent?.();
    } finally {
      setBusy(false);
    }
  };
  const check = async () => {
    setChecking(true);
    setCheckFailure(null);
    try {
      onSent?.(await checkIoNotice(position.iud));
    } catch (error) {
      setCheckFailure((error as Error).message);
    } finally {
      setChecking(false);
    }
  };

  return (
    <Flex direction="column" gap="xs">
      <NoticeBadges position={position} />
      <Flex gap="xs" wrap="wrap">
        {(['email', 'io'] as const).map((channel) => (
          <Button
            key={channel}
            size="small"
            isDisabled={readOnly || !sendable}
            title={reason}
            aria-label={`${channels[channel].title}: ${who}${reason ? ` (${reason})` : ''}`}
            onClick={() => setOpen(channel)}
          >
            {channels[channel].button}
          </Button>
        ))}
        {pending && sendable && !readOnly && (
          <Button
            size="small"
            variation="link"
            onClick={() => void check()}
            isLoading={checking}
            loadingText="Verifica..."
            aria-label={`Verifica su IO: ${who}`}
          >
            Verifica
          </Button>
        )}
      </Flex>
      {checkFailure && (
        <Text role="alert" className="notice-failure" color="font.error">
          <strong>Attenzione.</strong> {checkFailure}
        </Text>
      )}
      {open && (
        <Dialog
          open
          title={channels[open].title}
          onClose={close}
          actions={
            <>
              <Button onClick={close} isDisabled={busy}>
                Annulla
              </Button>
              <Button
                variation="primary"
                onClick={() => void confirm()}
                isLoading={busy}
                loadingText="Invio in corso..."
                isDisabled={failure?.final}
              >
                {open === 'io' && resend ? 'Conferma nuovo invio' : 'Conferma'}
              </Button>
            </>
          }
        >
          <Text>{open === 'io' && resend ? ioResendQuestion(position, who) : channels[open].question(who)}</Text>
          <Text className="form-hint">
            {position.titolo} · avviso <NoticeNumber nav={position.nav} />
          </Text>
          {failure && (
            <Text role="alert" className="notice-failure" color="font.error" marginTop="small">
              <strong>Attenzione.</strong> {failure.message}
            </Text>
          )}
        </Dialog>
      )}
    </Flex>
  );
}
