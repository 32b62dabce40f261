import { ConflictError } from './errors.ts';
import { fill, noticeMessages } from './messages.ts';
import { formatEuro, toEuros } from './money.ts';
import type { Position } from './payments.ts';

export { flowEmailResultSchema, type FlowEmailResult } from './notice-schemas.ts';

/**
 * Payment notices (avvisi di pagamento) sent to the citizen: by e-mail with MyPay's PDF attached, and as a
 * message with payment data to the IO app (reference.md "IO app messages"). Pure rules: what may be sent,
 * and what the e-mail and the IO message say.
 */

type NoticePosition = Pick<Position, 'iud' | 'titolo' | 'descrizione' | 'importoDovuto' | 'dataScadenza' | 'nav' | 'codIuv' | 'isPagato' | 'annullato'>;

/**
 * A notice exists once MyPay accepted the position (it has a notice number); a paid or cancelled position
 * gets none. 409 otherwise, with the reason.
 */
export function assertNoticeSendable(position: NoticePosition): asserts position is NoticePosition & { nav: string } {
  if (position.annullato) throw new ConflictError(noticeMessages.cancelled);
  if (position.isPagato) throw new ConflictError(noticeMessages.paid);
  if (!position.nav) throw new ConflictError(noticeMessages.notExported);
}

/** Whether a position is one the flow e-mail sends (the same rule, as a test). */
export const isNoticeSendable = (position: NoticePosition) => !position.annullato && !position.isPagato && Boolean(position.nav);

/** "2026-11-30" → "30/11/2026". */
export const italianDate = (isoDate: string) => isoDate.slice(0, 10).split('-').reverse().join('/');

/** The notice number grouped as pagoPA prints it: "3010 0000 0012 3451 9" style groups of four. */
export const groupedNav = (nav: string) => nav.replace(/(\d{4})(?=\d)/g, '$1 ');

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
export function noticeEmail(position: NoticePosition & { nav: string }, recipient: { firstName: string; lastName: string }) {
  const amount = formatEuro(toEuros(position.importoDovuto));
  const due = italianDate(position.dataScadenza);
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

/** The end of a day in Europe/Rome as an ISO UTC instant ("2026-11-30" → "2026-11-30T22:59:59.000Z"). */
export function endOfDayInRome(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, 23, 59, 59);
  // Rome's offset at that instant (+1 h in winter, +2 h in summer).
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(asUtc);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const romeWallClock = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return new Date(asUtc - (romeWallClock - asUtc)).toISOString();
}

/** The IO message body's content (reference.md): payment data in integer cents with the notice number. */
/** A message's content (io-functions-services NewMessage): due date and payment data only for a payment notice. */
export interface IoMessageContent {
  subject: string;
  markdown: string;
  due_date?: string;
  payment_data?: { amount: number; notice_number: string; invalid_after_due_date: boolean; payee: { fiscal_code: string } };
}

export function ioMessageContent(position: NoticePosition & { nav: string }, payeeFiscalCode: string): IoMessageContent {
  const amount = formatEuro(toEuros(position.importoDovuto));
  const due = italianDate(position.dataScadenza);
  const subject = clip(`Avviso di pagamento: ${position.titolo}`, IO_SUBJECT.max).padEnd(IO_SUBJECT.min, '.');
  const markdown = clip(
    [
      `Il Comune ti invia l’avviso di pagamento di **${position.titolo}**.`,
      '',
      `**Beneficiario e causale**: ${position.descrizione}`,
      '',
      `**Importo**: ${amount}  `,
      `**Scadenza**: ${due}  `,
      `**Codice avviso**: ${groupedNav(position.nav)}`,
      '',
      'Puoi pagare direttamente dall’app IO con il pulsante di pagamento di questo messaggio.',
    ].join('\n'),
    IO_MARKDOWN.max,
  );
  return {
    subject,
    markdown,
    due_date: endOfDayInRome(position.dataScadenza),
    payment_data: {
      amount: position.importoDovuto,
      notice_number: position.nav,
      // A late payment is still accepted by the council.
      invalid_after_due_date: false,
      payee: { fiscal_code: payeeFiscalCode },
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
  result.done ? noticeMessages.flowDone : fill(noticeMessages.flowInProgress, { sent: result.sent });
