import { DomainError } from './errors.ts';
import { gpdFirstDueDay, pagoPaQrText, printedNoticeNumber } from './gpd.ts';
import { fill } from './messages.ts';
import { entityFiscalCodePattern, isPersonOrEntityFiscalCode } from './fiscal-code.ts';
import { formatAmountCents } from './money.ts';
import { italianDay } from './period.ts';
import type { PositionRecord } from './debt-positions.ts';

/**
 * The pagoPA payment notice ("avviso di pagamento pagoPA") the portal prints itself for a GPD position (issue 37;
 * MyPay's notices come from its AVVISI ZIP). Its sections and fixed texts follow pagoPA's notice guidelines "Avvisi
 * 3.0" (Allegato 2, "Specifiche tecniche": Intestazione, Ente Creditore, Destinatario, Quanto e quando pagare?, Dove
 * pagare?, Dati per il pagamento with the single instalment "Rata unica"), and its QR code the string that
 * pagopa-print-payment-notice-generator (TemplateDataMapper.generateQrCode) builds. Pure: what the notice says, checked;
 * adapters/payment-notice-pdf.ts draws it.
 */

/** The council as the notice names it (the deployment's GPD settings). */
export interface NoticeCreditor {
  /** 11 digits (ENTE.CF). */
  fiscalCode: string;
  /** ENTE.NOME. */
  name: string;
  /** ENTE.CBILL: the council's interbank code, when it has one. */
  cbill?: string | null;
}

/** What one notice says, every text ready to print. */
export interface PagoPaNotice {
  /** AVVISO.OGGETTO: what is paid (at most 90 characters). */
  subject: string;
  /** The causale (the beneficiary and the month), under the subject. */
  description: string;
  amountCents: number;
  /** AVVISO.IMPORTO: "1.234,50" (Italian separators, no currency sign: the notice prints "Euro" beside it). */
  amount: string;
  /** AVVISO.DATA: dd/mm/yyyy. */
  dueDate: string;
  /** 18 digits: "3" + IUV. */
  noticeNumber: string;
  /** AVVISO.CODICE: in groups of four (22 characters). */
  printedNoticeNumber: string;
  /** AVVISO.QRCODE's text: PAGOPA|002|<notice number>|<creditor fiscal code>|<amount in cents>. */
  qrText: string;
  creditor: { fiscalCode: string; name: string; cbill: string | null };
  debtor: { fiscalCode: string; fullName: string };
}

/** The fixed texts of an Italian notice ("Stringhe dei testi fissi", Avvisi 3.0), word for word. */
export const NOTICE_TEXTS = {
  title: 'Avviso di pagamento',
  creditor: 'Ente Creditore',
  recipient: 'Destinatario',
  howMuch: 'Quanto e quando pagare?',
  euro: 'Euro',
  dueBy: 'entro il',
  legal:
    'In fase di pagamento, se previsto dall’ente, l’importo potrebbe essere aggiornato automaticamente e subire variazioni in diminuzione (per sgravi, note di credito) o in aumento (per sanzioni, interessi, ecc.).',
  where: 'Dove pagare?',
  cta: 'vai su pagopa.gov.it',
  online: 'PAGA CON L’APP IO',
  onlineText: 'oppure dal tuo Home Banking, con la tua app di pagamento o con gli altri canali abilitati.',
  local: 'PAGA SUL TERRITORIO',
  localText:
    'presso Banche e Sportelli ATM, negli Uffici Postali e Punti Postali, nei Bar, Edicole, Ricevitorie, Supermercati, Tabaccherie e altri Esercenti Convenzionati.',
  paymentData: 'Dati per il pagamento',
  single: 'Rata unica',
  qrHint: 'Inquadra il codice QR con la tua app di pagamento o usa i dati accanto.',
  recipientLabel: 'Destinatario',
  creditorLabel: 'Ente Creditore',
  subjectLabel: 'Oggetto del pagamento',
  cbillLabel: 'Cod. CBILL',
  noticeLabel: 'Cod. Avviso',
  creditorCodeLabel: 'Cod. Fiscale Ente',
} as const;

/** Why a notice cannot be printed (the operator reads it; nothing is sent or stored). */
export const noticeDataMessages = {
  debtorFiscalCode:
    'Manca il codice fiscale del destinatario (o non è valido): l’avviso pagoPA non può essere generato. Correggi i dati del cittadino.',
  debtorName: 'Manca il nome del destinatario: l’avviso pagoPA non può essere generato. Correggi i dati del cittadino.',
  amount:
    'L’importo della posizione è {amount}: un avviso pagoPA deve essere di almeno 1 centesimo (in centesimi interi), quindi non viene generato.',
  noticeNumber:
    'La posizione non ha un codice avviso pagoPA valido (18 cifre, "3" seguito dallo IUV): inviala prima a pagoPA.',
  creditorFiscalCode:
    'Il codice fiscale dell’ente creditore configurato ("{value}") non è valido (11 cifre): l’avviso pagoPA non può essere generato. Va corretto nelle impostazioni del portale (gpdOrganizationFiscalCode).',
  creditorName:
    'Manca il nome dell’ente creditore nelle impostazioni del portale (gpdCompanyName): l’avviso pagoPA non può essere generato.',
} as const;

export class NoticeDataError extends DomainError {
  constructor(detail: string) {
    super(422, 'Avviso non generabile', detail);
  }
}

const SUBJECT_MAX = 90;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/**
 * The due day the notice prints: the one the export gave GPD when it created the position (domain/gpd.ts
 * gpdDueDay: the month's last day, or 30 days after the send when the month had ended). An update sent later can
 * only have moved GPD's date further on, so the printed one is never later than GPD's.
 */
export const noticeDueDay = (position: Pick<PositionRecord, 'dataScadenza' | 'exportedAt'>): string =>
  gpdFirstDueDay(position);

/**
 * The notice of a position GPD accepted, every field checked: a notice that pagoPA's channels could not read (no
 * debtor fiscal code, an amount under 1 cent or not in whole cents, a notice number that is not 18 digits, the
 * council's fiscal code wrong) is refused with the Italian reason, never printed.
 */
export function pagoPaNotice(
  position: Pick<
    PositionRecord,
    | 'fiscalCode'
    | 'cognome'
    | 'nome'
    | 'titolo'
    | 'descrizione'
    | 'importoDovuto'
    | 'nav'
    | 'dataScadenza'
    | 'exportedAt'
  >,
  creditor: NoticeCreditor,
): PagoPaNotice {
  const debtorFiscalCode = (position.fiscalCode ?? '').trim().toUpperCase();
  if (!isPersonOrEntityFiscalCode(debtorFiscalCode)) throw new NoticeDataError(noticeDataMessages.debtorFiscalCode);
  const fullName = oneLine(`${position.nome ?? ''} ${position.cognome ?? ''}`);
  if (!fullName) throw new NoticeDataError(noticeDataMessages.debtorName);
  const cents = position.importoDovuto;
  if (!Number.isSafeInteger(cents) || cents < 1)
    throw new NoticeDataError(fill(noticeDataMessages.amount, { amount: String(cents) }));
  const noticeNumber = position.nav ?? '';
  if (!/^3[0-9]{17}$/.test(noticeNumber)) throw new NoticeDataError(noticeDataMessages.noticeNumber);
  if (!entityFiscalCodePattern.test(creditor.fiscalCode))
    throw new NoticeDataError(fill(noticeDataMessages.creditorFiscalCode, { value: creditor.fiscalCode }));
  const creditorName = oneLine(creditor.name ?? '');
  if (!creditorName) throw new NoticeDataError(noticeDataMessages.creditorName);
  return {
    subject: cut(oneLine(position.titolo), SUBJECT_MAX),
    description: oneLine(position.descrizione),
    amountCents: cents,
    amount: formatAmountCents(cents),
    dueDate: italianDay(noticeDueDay(position)),
    noticeNumber,
    printedNoticeNumber: printedNoticeNumber(noticeNumber),
    qrText: pagoPaQrText({ noticeNumber, fiscalCode: creditor.fiscalCode, amountCents: cents }),
    creditor: {
      fiscalCode: creditor.fiscalCode,
      name: creditorName,
      cbill: creditor.cbill?.trim() ? creditor.cbill.trim().toUpperCase() : null,
    },
    debtor: { fiscalCode: debtorFiscalCode, fullName },
  };
}
