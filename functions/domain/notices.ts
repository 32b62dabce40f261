import { ConflictError } from './errors.ts';
import { counted, fill, gpdNoticeMessages, noticeDownloadMessages, noticeMessages } from './messages.ts';
import { formatEuro, toEuros } from './money.ts';
import type { PaymentPlatformName } from './payment-platform.ts';
import type { Position } from './payments.ts';
import { italianDay } from './period.ts';
import { isOpen } from './positions/states.ts';

/**
 * Payment notices (avvisi di pagamento) sent to the citizen: by e-mail with MyPay's PDF attached, and as a
 * message with payment data to the IO app (reference.md "IO app messages"). Pure rules: what may be sent,
 * and what the e-mail and the IO message say.
 */

type NoticePosition = Pick<
  Position,
  'iud' | 'titolo' | 'descrizione' | 'importoDovuto' | 'dataScadenza' | 'nav' | 'codIuv' | 'isPagato' | 'annullato'
>;

/** The notice refusals as they read on the deployment's platform (the advice differs on GPD: gpdNoticeMessages). */
export const noticeWords = (platform: PaymentPlatformName) =>
  platform === 'gpd' ? gpdNoticeMessages : { notExported: noticeMessages.notExported, noPdf: noticeMessages.noPdf };

/**
 * A notice exists once the platform accepted the position (it has a notice number); a paid or cancelled position
 * gets none. 409 otherwise, with the reason.
 */
export function assertNoticeSendable(
  position: NoticePosition,
  words: { notExported: string } = noticeMessages,
): asserts position is NoticePosition & { nav: string } {
  if (position.annullato) throw new ConflictError(noticeMessages.cancelled);
  if (position.isPagato) throw new ConflictError(noticeMessages.paid);
  if (!position.nav) throw new ConflictError(words.notExported);
}

/**
 * 'Avviso PDF': the notice of an open position the platform accepted. A cancelled one is no longer valid and a paid
 * one needs no paying: 409 with the reason, as for one not sent yet.
 */
export function assertNoticeDownloadable<P extends Pick<Position, 'nav' | 'isPagato' | 'annullato'>>(
  position: P,
): asserts position is P & { nav: string } {
  if (position.annullato) throw new ConflictError(noticeDownloadMessages.cancelled);
  if (position.isPagato) throw new ConflictError(noticeDownloadMessages.paid);
  if (!position.nav) throw new ConflictError(noticeDownloadMessages.notExported);
}

/** Whether a position is one the flow e-mail sends, and whose 'Avviso PDF' is offered (the same rule, as a test). */
export const isNoticeSendable = (position: Pick<Position, 'nav' | 'isPagato' | 'annullato'>) =>
  isOpen(position) && Boolean(position.nav);

/** An instant as Rome reads it: "2026-11-28T20:30:00Z" → "28/11/2026 alle 21:30". */
export function romeDateTime(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('it-IT', {
      timeZone: 'Europe/Rome',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} alle ${parts.hour}:${parts.minute}`;
}

/** The notice number IO takes in payment_data (io-functions-commons PaymentNoticeNumber: ^[0123][0-9]{17}$). */
export const IO_NOTICE_NUMBER = /^[0123][0-9]{17}$/;

/** The notice number in the groups of four pagoPA prints on notices: ['3010', '0000', '0000', '0011', '54']. */
export const navGroups = (nav: string): string[] => nav.match(/.{1,4}/g) ?? [];
/** The notice number as a person reads it: "3010 0000 0000 0011 54" (e-mail, IO message; the screens group it too). */
export const groupedNav = (nav: string) => navGroups(nav).join(' ');

/** The PDF's name in the e-mail: avviso_<NAV>.pdf, as MyPay names it. */
export const noticePdfFileName = (nav: string) => `avviso_${nav}.pdf`;

/**
 * The IUV a file of MyPay's AVVISI ZIP is about: MyPay names each PDF after the notice number
 * (`avviso_3<IUV>.pdf`), so the last 17 digits of the longest run of digits; null when the name has none.
 */
export function iuvOfNoticeFile(fileName: string): string | null {
  if (!fileName.toLowerCase().endsWith('.pdf')) return null;
  const base = fileName.split('/').pop() ?? fileName;
  const runs = base.match(/\d{17,18}/g);
  if (!runs) return null;
  return runs.sort((a, b) => b.length - a.length)[0]!.slice(-17);
}

/** The e-mail notice: amount, due date, notice number and beneficiary (service, month, call and subscriber). */
export function noticeEmail(
  position: NoticePosition & { nav: string },
  recipient: { firstName: string; lastName: string },
  /** The due day the attached notice prints (PrintedNotice.dueDay), yyyy-MM-dd. */
  dueDay: string,
) {
  const amount = formatEuro(toEuros(position.importoDovuto));
  const due = italianDay(dueDay);
  const subject = `Avviso di pagamento: ${position.titolo}`;
  const lines = [
    `Gentile ${recipient.firstName} ${recipient.lastName},`,
    '',
    'le inviamo l’avviso di pagamento pagoPA del servizio sociale del Comune.',
    '',
    `Servizio e mese: ${position.titolo}`,
    `Beneficiario e causale: ${position.descrizione}`,
    `Importo: ${amount}`,
    `Scadenza: ${due}`,
    `Codice avviso: ${groupedNav(position.nav)}`,
    '',
    'Può pagare con l’avviso allegato presso gli sportelli e le app aderenti a pagoPA, oppure dal portale dei servizi sociali.',
    '',
    'Questo messaggio è stato inviato automaticamente: non rispondere a questo indirizzo.',
  ];
  return { subject, text: lines.join('\n') };
}

/** Subject 10–120 characters, markdown 80–10000 (reference.md). */
export const IO_SUBJECT = { min: 10, max: 120 } as const;
export const IO_MARKDOWN = { min: 80, max: 10000 } as const;
export const NOTICE_NUMBER_PATTERN = /^[0123][0-9]{17}$/;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * A text from data (a call's or service's name, a causale) as literal text in the IO message's markdown, at
 * most `max` characters: every character the app's renderer would read as markup (emphasis, headings, links,
 * code, HTML, entities) gets a CommonMark backslash escape, and line breaks become spaces (the text sits
 * inside a line). Clipped without leaving half an escape before the ellipsis.
 */
export function markdownText(text: string, max = Infinity): string {
  const escaped = text.replace(/\s+/g, ' ').replace(/[\\`*_#[\]<>~|&]/g, '\\$&');
  if (escaped.length <= max) return escaped;
  let head = escaped.slice(0, max - 1);
  if ((/\\+$/.exec(head)?.[0].length ?? 0) % 2 === 1) head = head.slice(0, -1);
  return `${head}…`;
}

/** The end of a day in Europe/Rome as an ISO UTC instant ("2026-11-30" → "2026-11-30T22:59:59.000Z"). */
export function endOfDayInRome(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, 23, 59, 59);
  // Rome's offset at that instant (+1 h in winter, +2 h in summer).
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Rome',
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(asUtc);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const romeWallClock = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return new Date(asUtc - (romeWallClock - asUtc)).toISOString();
}

/**
 * The IO message body's content (reference.md): payment data in integer cents with the notice number (a
 * payment notice only; a reminder has neither due date nor payment data), and no `payee`. IO refuses a payee
 * with 403 unless the key has the group ApiMessageWriteWithPayee, which is not granted by default (io-messages
 * apps/services-func/src/functions/CreateMessage/handler.ts); without it IO makes the service's organisation
 * fiscal code the payee (ProcessMessage/handler.ts), the council's own.
 */
export interface IoMessageContent {
  subject: string;
  markdown: string;
  due_date?: string;
  payment_data?: { amount: number; notice_number: string; invalid_after_due_date: boolean };
}

/** `dueDay`: the day the notice prints (PlatformNotices.dueDay), which on GPD may be later than the month's. */
export function ioMessageContent(position: NoticePosition & { nav: string }, dueDay: string): IoMessageContent {
  const amount = formatEuro(toEuros(position.importoDovuto));
  const due = italianDay(dueDay);
  const subject = clip(`Avviso di pagamento: ${position.titolo}`, IO_SUBJECT.max).padEnd(IO_SUBJECT.min, '.');
  const lines = (title: string, causale: string) =>
    [
      `Il Comune ti invia l’avviso di pagamento di **${title}**.`,
      '',
      `**Beneficiario e causale**: ${causale}`,
      '',
      `**Importo**: ${amount}  `,
      `**Scadenza**: ${due}  `,
      `**Codice avviso**: ${groupedNav(position.nav)}`,
      '',
      'Puoi pagare direttamente dall’app IO con il pulsante di pagamento di questo messaggio.',
    ].join('\n');
  // Amount, due date and notice number always fit: a very long title or causale is what gets clipped.
  const room = IO_MARKDOWN.max - lines('', '').length;
  const title = markdownText(position.titolo, Math.floor(room / 4));
  const markdown = lines(title, markdownText(position.descrizione, room - title.length));
  return {
    subject,
    markdown,
    due_date: endOfDayInRome(dueDay),
    payment_data: {
      amount: position.importoDovuto,
      notice_number: position.nav,
      // A late payment is still accepted by the council.
      invalid_after_due_date: false,
    },
  };
}

/**
 * The IO id a refused send leaves on the position (operator-admin §4: "-1 or none means not sent"): a
 * citizen without IO or who does not allow the sender gets '-1', so the operator sees it was tried; a
 * position already sent keeps its message id.
 */
export const IO_NOT_DELIVERED = '-1';

export const flowEmailMessage = (result: { done: boolean; sent: number }) =>
  result.done
    ? noticeMessages.flowDone
    : fill(noticeMessages.flowInProgress, { sent: counted(result.sent, noticeMessages.flowSent) });
