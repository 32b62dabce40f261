import { Badge, Button, Flex, Text } from '@aws-amplify/ui-react';
import { isNoticeSendable } from '@domain/notices';
import { sentToIo, type Position } from '@domain/payments';
import { useState } from 'react';
import { Dialog } from '@/components/dialog';
import { emailNotice } from '../api/email-notice';
import { sendIoNotice } from '../api/send-io-notice';

const sentAtFormat = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

type NoticePosition = Pick<
  Position,
  'iud' | 'cognome' | 'nome' | 'titolo' | 'nav' | 'codIuv' | 'isPagato' | 'annullato' | 'isEmailSent' | 'dataIsEmailSent' | 'ioId' | 'importoDovuto' | 'dataScadenza' | 'descrizione'
>;

export interface NoticeButtonsProps {
  position: NoticePosition;
  /** Called with the position as stored after a send (isEmailSent and its date, or the new ioId). */
  onSent?: (position: Position) => void;
  /**
   * Operator-admin §6: delegates see the badges with the buttons disabled; citizens do not get the
   * component's buttons at all (the API refuses both anyway).
   */
  readOnly?: boolean;
}

/**
 * Operator-admin §4: the e-mail badge (sent, with its date, or not) and the IO badge (sent when an id exists
 * and is not -1). A notice not sent is a warning only while it can still be sent: once the position is paid
 * or cancelled there is nothing to remind the operator of, and the badge is neutral.
 */
export function NoticeBadges({ position }: { position: NoticePosition }) {
  const onIo = sentToIo(position);
  const notSent = isNoticeSendable(position) ? 'warning' : undefined;
  return (
    <Flex gap="xs" wrap="wrap">
      <Badge variation={position.isEmailSent ? 'success' : notSent}>
        {position.isEmailSent
          ? `Email inviata${position.dataIsEmailSent ? ` il ${sentAtFormat.format(new Date(position.dataIsEmailSent))}` : ''}`
          : 'Email non inviata'}
      </Badge>
      <Badge variation={onIo ? 'success' : notSent}>{onIo ? 'Inviato su IO' : 'Non inviato su IO'}</Badge>
    </Flex>
  );
}

type Channel = 'email' | 'io';
const channels: Record<Channel, { button: string; title: string; question: (who: string) => string; send: (iud: string) => Promise<Position> }> = {
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
 * server's message (operator-admin §8) and leaves the modal open.
 */
export function NoticeButtons({ position, onSent, readOnly = false }: NoticeButtonsProps) {
  const [open, setOpen] = useState<Channel | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const sendable = isNoticeSendable(position);
  const who = `${position.cognome} ${position.nome}`;
  const reason = !sendable ? (position.annullato ? 'Posizione annullata' : position.isPagato ? 'Posizione già pagata' : 'Avviso non ancora generato da MyPay') : undefined;

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
      const updated = await channels[open].send(position.iud);
      setOpen(null);
      onSent?.(updated);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex direction="column" gap="xs">
      <NoticeBadges position={position} />
      <Flex gap="xs">
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
      </Flex>
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
              <Button variation="primary" onClick={() => void confirm()} isLoading={busy} loadingText="Invio in corso...">
                Conferma
              </Button>
            </>
          }
        >
          <Text>{channels[open].question(who)}</Text>
          <Text className="form-hint">{position.titolo}</Text>
          {failure && (
            <Text role="alert" className="notice-failure" color="font.error" marginTop="small">
              <strong>Attenzione.</strong> {failure}
            </Text>
          )}
        </Dialog>
      )}
    </Flex>
  );
}
