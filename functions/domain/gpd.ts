import { checkDigits, isValidIuv, navOfIuv } from './iuv.ts';
import type { PositionState } from './positions/states.ts';
import { romeDay } from './period.ts';
import { iupdOfPosition } from './gpd-iupd.ts';
import { entityFiscalCodePattern } from './fiscal-code.ts';

/**
 * pagoPA's "Gestione Posizioni Debitorie" (GPD) as the portal sees it (reference.md "pagoPA GPD"; the contract is
 * pagopa/pagopa-debt-position openapi/openapi_external_v1.json and v2, DebtPositionStatus.java,
 * DebtPositionValidation.java). Pure rules, no I/O: the IUV the portal generates, the notice number, the
 * deterministic iupd, the pagoPA QR code text, the body of a debt position, and the GPD states read as the
 * portal's own.
 */

/** The council's segregation code: 2 digits assigned by pagoPA (the IUV's first two with aux digit 3). */
export const SEGREGATION_CODE = /^[0-9]{2}$/;
/** The largest IUV base: 13 digits. */
export const MAX_IUV_BASE = 9_999_999_999_999;

/**
 * The IUV of a GPD position, aux digit 3 (pagoPA "codici": segregation code (2) + base (13) + check digits (2),
 * check digits = ("3" + segregation code + base) mod 93). `sequence` is the council's own counter (1 and up):
 * the portal keeps it, so an IUV is never given twice, not even to a position restored after a cancellation.
 */
export function gpdIuv(segregationCode: string, sequence: number): string {
  if (!SEGREGATION_CODE.test(segregationCode))
    throw new RangeError(`codice di segregazione non valido: "${segregationCode}" (2 cifre)`);
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > MAX_IUV_BASE)
    throw new RangeError(`progressivo IUV fuori intervallo: ${sequence}`);
  const first15 = segregationCode + String(sequence).padStart(13, '0');
  return first15 + checkDigits(`3${first15}`);
}

/** Whether an IUV is one of this council's GPD IUVs: aux digit 3, its segregation code, right check digits. */
export const isCouncilIuv = (iuv: string, segregationCode: string): boolean =>
  isValidIuv(iuv) && iuv.startsWith(segregationCode);

/** The notice number (NAV, "codice avviso") of a GPD IUV: "3" + IUV, 18 digits. */
export const gpdNoticeNumber = (iuv: string): string => navOfIuv(iuv);

export { gpdCallIupd, gpdCallIupdPrefix, gpdIupd, iudOfIupd, iupdOfPosition } from './gpd-iupd.ts';

/**
 * The text of pagoPA's QR code on a payment notice: `PAGOPA|002|<notice number>|<creditor fiscal code>|<amount in
 * cents>` (pagoPA's notice guidelines, "Codice QR"; pagopa-print-payment-notice-generator builds the same string). The
 * guidelines give the amount 2 to 11 digits: under 10 cents it is written with a leading zero ("05"), which readers
 * that also take one digit read the same (pagopa/io-pagopa-commons pagopa.ts, MIN_AMOUNT_DIGITS).
 */
export function pagoPaQrText(notice: { noticeNumber: string; fiscalCode: string; amountCents: number }): string {
  if (!/^[0-9]{18}$/.test(notice.noticeNumber))
    throw new RangeError(`codice avviso non valido: "${notice.noticeNumber}" (18 cifre)`);
  if (!entityFiscalCodePattern.test(notice.fiscalCode))
    throw new RangeError(`codice fiscale dell'ente non valido: "${notice.fiscalCode}" (11 cifre)`);
  if (!Number.isSafeInteger(notice.amountCents) || notice.amountCents < 1)
    throw new RangeError(`importo non valido: ${notice.amountCents}`);
  if (notice.amountCents > 99_999_999_999) throw new RangeError(`importo non valido: ${notice.amountCents}`);
  return `PAGOPA|002|${notice.noticeNumber}|${notice.fiscalCode}|${String(notice.amountCents).padStart(2, '0')}`;
}

/** The notice code as printed on the notice: in groups of four digits. */
export const printedNoticeNumber = (noticeNumber: string): string => noticeNumber.replace(/(\d{4})(?=\d)/g, '$1 ');

/** GPD's states of a debt position (DebtPositionStatus.java). */
export const GPD_STATUSES = [
  'DRAFT',
  'PUBLISHED',
  'VALID',
  'INVALID',
  'EXPIRED',
  'PARTIALLY_PAID',
  'PAID',
  'REPORTED',
] as const;
export type GpdStatus = (typeof GPD_STATUSES)[number];

/** DebtPositionStatus.getPaymentPosNotUpdatableStatus: PUT answers 409 in these. */
export const GPD_NOT_UPDATABLE: readonly GpdStatus[] = ['INVALID', 'PARTIALLY_PAID', 'PAID', 'REPORTED'];
/** getPaymentPosNotInvalidableStatus: invalidate answers 409 in these. */
export const GPD_NOT_INVALIDABLE: readonly GpdStatus[] = [
  'DRAFT',
  'INVALID',
  'EXPIRED',
  'PARTIALLY_PAID',
  'PAID',
  'REPORTED',
];
/** getPaymentPosPayableStatus: what a citizen can pay. */
export const GPD_PAYABLE: readonly GpdStatus[] = ['VALID', 'PARTIALLY_PAID'];

/**
 * A GPD state read as the portal's own (functions/domain/positions/states.ts), and what the portal must do about it
 * when its own record says otherwise. The portal's states stay the portal's: this only reads GPD's.
 * - DRAFT: open but unpayable (an update without toPublish=true put it there): publish it again.
 * - PUBLISHED (validity date ahead), VALID, EXPIRED: open (EXPIRED only with switchToExpired, which the portal never sets).
 * - INVALID: cancelled, for good.
 * - PAID, REPORTED: paid (REPORTED: the PSP's reconciliation flow arrived too).
 * - PARTIALLY_PAID: a position of one payment option cannot be partly paid: an operator must look.
 */
export function portalStateOfGpd(status: GpdStatus): {
  state: Extract<PositionState, 'open' | 'paid' | 'cancelled' | 'to-reconcile'>;
  payable: boolean;
  republish: boolean;
} {
  switch (status) {
    case 'DRAFT':
      return { state: 'open', payable: false, republish: true };
    case 'PUBLISHED':
      return { state: 'open', payable: false, republish: false };
    case 'VALID':
      return { state: 'open', payable: true, republish: false };
    case 'EXPIRED':
      return { state: 'open', payable: false, republish: false };
    case 'INVALID':
      return { state: 'cancelled', payable: false, republish: false };
    case 'PARTIALLY_PAID':
      return { state: 'to-reconcile', payable: true, republish: false };
    case 'PAID':
    case 'REPORTED':
      return { state: 'paid', payable: false, republish: false };
  }
}

/** The deployment's GPD settings a position's body needs (lib/stage-config.ts). */
export interface GpdCreditor {
  /** The council's fiscal code (11 digits): the creditor (EC) in every path and on every transfer. */
  fiscalCode: string;
  /** The council's name as pagoPA shows it (companyName, ≤ 140). */
  companyName: string;
  /** The office, if any (officeName, ≤ 140). */
  officeName?: string;
  /** Where the money goes (the single transfer's IBAN). */
  iban: string;
  /** The transfer's taxonomy code (category), e.g. 9/0101108TS/. */
  taxonomyCode: string;
}

/** What the portal sends of one of its positions. */
export interface GpdPositionInput {
  iud: string;
  /** The iupd stored on the position (gpdCallIupd); without it, the one derived from the IUD (gpdIupd). */
  iupd?: string | null;
  revision?: number;
  iuv: string;
  /** The debtor: a natural person (type F), with the fiscal code and name the portal holds. */
  fiscalCode: string;
  fullName: string;
  email?: string | null;
  /** Cents, ≥ 1. */
  amountCents: number;
  /** The remittance text (causale), cut to 140. */
  description: string;
  /** yyyy-MM-dd: the last day of the month billed (debt-positions.ts dueDate). */
  dueDay: string;
}

/** GPD's PaymentPositionModel (openapi_external_v1.json), as the portal fills it. */
export interface GpdPaymentPosition {
  iupd: string;
  type: 'F' | 'G';
  fiscalCode: string;
  fullName: string;
  email?: string;
  companyName: string;
  officeName?: string;
  switchToExpired: boolean;
  paymentOption: {
    iuv: string;
    nav: string;
    amount: number;
    description: string;
    isPartialPayment: boolean;
    dueDate: string;
    transfer: {
      idTransfer: '1';
      amount: number;
      organizationFiscalCode: string;
      remittanceInformation: string;
      category: string;
      iban: string;
    }[];
  }[];
}

const cut = (text: string, max = 140) => text.replace(/\s+/g, ' ').trim().slice(0, max);

/**
 * The end of a Rome day as GPD's LocalDateTime: GPD compares dates without zone with UTC now
 * (DebtPositionValidation.checkPaymentPositionDatesCongruency), so the portal sends UTC without offset.
 */
export function gpdDueDate(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`data non valida: "${day}"`);
  // 23:59:59 in Rome is 21:59:59 (summer) or 22:59:59 (winter) UTC: take the offset of that day.
  const noonUtc = new Date(`${day}T12:00:00Z`);
  const romeNoon = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Rome',
    hour: '2-digit',
    hourCycle: 'h23',
  }).format(noonUtc);
  const offsetHours = Number(romeNoon) - 12;
  const end = new Date(Date.parse(`${day}T23:59:59Z`) - offsetHours * 3600_000);
  return end.toISOString().slice(0, 19);
}

/** Days a position sent once its month's due day has passed is given to be paid (GPD refuses a due date in the past). */
export const GPD_LATE_DUE_DAYS = 30;

/**
 * The due day GPD gets: the month's (its last day) while it is still ahead, else GPD_LATE_DUE_DAYS from today (a
 * month billed late, or changed after its end): GPD refuses a create or an update whose due date has passed
 * (DebtPositionValidation.checkPaymentPositionDatesCongruency). Days are yyyy-MM-dd, Rome's.
 */
export function gpdDueDay(monthDueDay: string, today: string): string {
  if (monthDueDay >= today) return monthDueDay;
  return new Date(Date.parse(`${today}T00:00:00Z`) + GPD_LATE_DUE_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The due day GPD was given when it first took a position (gpdDueDay on the day of its first export, `exportedAt`):
 * the month's last day, or 30 days after a late send. An update sent later can only have moved GPD's date further on.
 */
export const gpdFirstDueDay = (position: { dataScadenza: string; exportedAt: string | null }): string =>
  position.exportedAt
    ? gpdDueDay(position.dataScadenza, romeDay(new Date(position.exportedAt)))
    : position.dataScadenza;

/**
 * The GPD body of a portal position: one payment option (not partial), one transfer to the council's IBAN with
 * its taxonomy code, the option's amount the transfer's (GPD refuses them unequal), no validityDate (published
 * at once: VALID) and switchToExpired false (the position stays payable after its due date, as on MyPay).
 */
export function gpdPaymentPosition(input: GpdPositionInput, creditor: GpdCreditor): GpdPaymentPosition {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1)
    throw new RangeError(`importo non valido: ${input.amountCents}`);
  if (!isValidIuv(input.iuv)) throw new RangeError(`IUV non valido: "${input.iuv}"`);
  const description = cut(input.description);
  return {
    iupd: iupdOfPosition(input),
    type: 'F',
    fiscalCode: input.fiscalCode.toUpperCase(),
    fullName: cut(input.fullName),
    ...(input.email ? { email: input.email } : {}),
    companyName: cut(creditor.companyName),
    ...(creditor.officeName ? { officeName: cut(creditor.officeName) } : {}),
    switchToExpired: false,
    paymentOption: [
      {
        iuv: input.iuv,
        nav: gpdNoticeNumber(input.iuv),
        amount: input.amountCents,
        description,
        isPartialPayment: false,
        dueDate: gpdDueDate(input.dueDay),
        transfer: [
          {
            idTransfer: '1',
            amount: input.amountCents,
            organizationFiscalCode: creditor.fiscalCode,
            remittanceInformation: description,
            category: creditor.taxonomyCode,
            iban: creditor.iban.replace(/\s+/g, '').toUpperCase(),
          },
        ],
      },
    ],
  };
}

/**
 * Whether what GPD holds is what the portal meant to create (a 409 on create read back by iupd): same iupd, one
 * payment option with the same IUV, amount and due date (GET answers PaymentPositionModelBaseResponse, which has
 * no debtor). Equal: the create had gone through (a lost answer); not equal: a real conflict for an operator.
 */
export function sameGpdPosition(
  sent: Pick<GpdPaymentPosition, 'iupd' | 'paymentOption'>,
  held: { iupd?: string; paymentOption?: readonly { iuv?: string; amount?: number; dueDate?: string }[] },
): boolean {
  const a = sent.paymentOption[0]!;
  const b = held.paymentOption?.[0];
  return (
    held.iupd === sent.iupd &&
    held.paymentOption?.length === 1 &&
    b?.iuv === a.iuv &&
    b.amount === a.amount &&
    (b.dueDate ?? '').slice(0, 19) === a.dueDate
  );
}

/**
 * The deployment's GPD settings, checked (lib/stage-config.ts): each function answers the Italian reason a value is
 * refused, or null. They are checked where the council configures them, so a wrong one never reaches pagoPA.
 */
export const gpdSettingProblems = {
  segregationCode: (value: string): string | null =>
    SEGREGATION_CODE.test(value)
      ? null
      : `il codice di segregazione deve essere di 2 cifre (quello assegnato da pagoPA all'ente), non "${value}"`,
  /** A legal person's fiscal code: 11 digits whose last is the check digit of the first ten (the partita IVA's rule). */
  fiscalCode(value: string): string | null {
    if (!entityFiscalCodePattern.test(value))
      return `il codice fiscale dell'ente deve essere di 11 cifre, non "${value}"`;
    const sum = [...value.slice(0, 10)].reduce((total, digit, i) => {
      const n = Number(digit) * (i % 2 === 1 ? 2 : 1);
      return total + (n > 9 ? n - 9 : n);
    }, 0);
    return (10 - (sum % 10)) % 10 === Number(value[10])
      ? null
      : `il codice fiscale dell'ente "${value}" ha la cifra di controllo sbagliata`;
  },
  /** An IBAN (ISO 13616: mod 97 = 1); an Italian one has 27 characters. */
  iban(value: string): string | null {
    const iban = value.replace(/\s+/g, '').toUpperCase();
    if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban))
      return `l'IBAN "${value}" non ha la forma di un IBAN (due lettere del paese, due cifre di controllo, il conto)`;
    if (iban.startsWith('IT') && iban.length !== 27)
      return `l'IBAN italiano "${value}" deve avere 27 caratteri, ne ha ${iban.length}`;
    const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    const remainder = [...digits].reduce((r, d) => (r * 10 + Number(d)) % 97, 0);
    return remainder === 1 ? null : `l'IBAN "${value}" ha le cifre di controllo sbagliate`;
  },
  /** pagoPA's taxonomy code of the transfer (category): 9/ + 7 digits + 2 letters + /, or the code alone. */
  taxonomyCode: (value: string): string | null =>
    /^(9\/[0-9]{7}[A-Z]{2}\/|[0-9]{7}[A-Z]{2})$/.test(value)
      ? null
      : `il codice tassonomico "${value}" non è nella forma 9/0101108TS/ (tassonomia dei servizi di pagamento pagoPA)`,
};

const GPD_EXPORT_SETTINGS = {
  fiscalCode: "il codice fiscale dell'ente",
  segregationCode: 'il codice di segregazione',
  iban: "l'IBAN",
  taxonomyCode: 'il codice tassonomico',
} as const;

/**
 * What an export to GPD needs of the council (the stage's gpd* settings; MyPay's configuration page is not used on
 * GPD): the Italian reason of each one missing or wrong, none when all are there.
 */
export function gpdExportSettingsProblems(
  settings: Partial<Record<keyof typeof GPD_EXPORT_SETTINGS, string>>,
): string[] {
  return (Object.keys(GPD_EXPORT_SETTINGS) as (keyof typeof GPD_EXPORT_SETTINGS)[]).flatMap((key) => {
    const value = settings[key]?.trim();
    if (!value) return [`manca ${GPD_EXPORT_SETTINGS[key]}`];
    // The fiscal code's form only: pagoPA's own test councils (77777777777 in UAT, the simulator's) fail the check digit.
    const problem =
      key === 'fiscalCode'
        ? entityFiscalCodePattern.test(value)
          ? null
          : `il codice fiscale dell'ente deve essere di 11 cifre, non "${value}"`
        : gpdSettingProblems[key](value);
    return problem ? [problem] : [];
  });
}
