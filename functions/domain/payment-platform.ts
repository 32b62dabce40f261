/**
 * The payment-platform port (issue 37): what the export workflow (functions/flows/export-steps.ts), the citizen's
 * 'Paga' (functions/payments) and the reporting (functions/reporting) need from the platform the council bills
 * through, whichever it is: MyPay (Regione Veneto's intermediary, functions/adapters/mypay/platform.ts over
 * functions/adapters/mypay.ts) or pagoPA's GPD with Checkout and the receipts service (functions/adapters/gpd/).
 * Types only: the domain stays pure.
 *
 * The positions' states stay the portal's (functions/domain/positions/states.ts); an adapter maps its platform's
 * onto them (for GPD: domain/gpd.ts portalStateOfGpd). What one platform has and the other has not (MyPay's CSV and
 * result ZIPs, GPD's publication states) is told by `capabilities`, so the web shows it only where it applies.
 *
 * Errors, by `error.name` (so Step Functions' Retry and Catch can match them):
 *   `<Platform>Unavailable` (5xx, timeout, 429 past the deadline, connection refused): try again later;
 *   `<Platform>Refused` / `MyPayFault`: the platform said no to this request; the same request gets the same no.
 */
import type { PositionRecord } from './debt-positions.ts';
import type { Position } from './payments.ts';
import type { PositionState } from './positions/states.ts';

export type PaymentPlatformName = 'mypay' | 'gpd';
export const PAYMENT_PLATFORMS: readonly PaymentPlatformName[] = ['mypay', 'gpd'];

export interface PlatformCapabilities {
  /** MyPay: the export is an import file (CSV in a ZIP) with result files (IUV, scarti, avvisi) the flows page offers. */
  importFiles: boolean;
  /** GPD: a position has a publication state (DRAFT, PUBLISHED, VALID) besides being paid or not. */
  publication: boolean;
  /** How many notices one checkout can pay (GPD's Checkout cart: 5; MyPay's paaSILVerificaAvviso: 1). */
  cartSize: number;
  /** How many positions one export call carries (GPD's bulk create: 100; MyPay: the whole month in one file). */
  batchSize: number;
  /** Whether the platform generates the IUVs (MyPay, flagGeneraIuv) or the portal does (GPD: aux digit 3, segregation code). */
  platformAssignsIuv: boolean;
}

/** One position as an export sends it: what to do with it at the platform and what it says. */
export interface PlatformPosition {
  iud: string;
  /** create: the platform does not know it yet; update: a new amount; cancel: cancelled for good (MyPay 'A', GPD invalidate). */
  action: 'create' | 'update' | 'cancel';
  /** The IUV the portal gave it (GPD), or the one the platform gave it before; null: the platform assigns one (MyPay). */
  iuv: string | null;
  /** GPD only: the restoration count of a position cancelled before (a new iupd and IUV each time). */
  revision?: number;
  /** GPD only: the iupd stored with the reserved IUV (domain/gpd-iupd.ts); without it, the one derived from the IUD. */
  iupd?: string | null;
  fiscalCode: string;
  /** "Cognome Nome". */
  fullName: string;
  email: string | null;
  /** Cents, ≥ 1 (a cancel carries the last amount). */
  amountCents: number;
  /** The causale, ≤ 140 characters on either platform. */
  description: string;
  /** yyyy-MM-dd. */
  dueDay: string;
}

/** What the platform made of each position of a batch: accepted with its IUV and notice number, or refused with why. */
export interface PlatformExportResults {
  accepted: { iud: string; iuv: string; nav: string }[];
  /** `code`: the platform's (MyPay's fault code, GPD's HTTP status and title); `reason`: Italian, for the operator. */
  rejected: { iud: string; code: string; reason: string }[];
}

/**
 * The export of a batch: `submit` hands it over and `progress` says when the platform has done with it. MyPay
 * imports a file asynchronously (submit uploads it, progress polls the import); GPD answers at once (submit's
 * results are final and progress only repeats them). Both are idempotent for the same flow and attempt: a
 * submit retried after a fault never creates a position twice (GPD: a 409 is read back by iupd and compared).
 * `progress` is called only while submit's `results` were null.
 */
export interface PlatformExport {
  submit(
    batch: { flowId: string; attempt: number; positions: readonly PlatformPosition[] },
    options?: { deadline?: number },
  ): Promise<{ ticket: string; results: PlatformExportResults | null }>;
  progress(
    ticket: string,
    options?: { deadline?: number },
  ): Promise<
    | { state: 'pending'; platformState: string }
    | { state: 'done'; results: PlatformExportResults }
    | { state: 'failed'; code: string; reason: string }
  >;
}

/** A notice the citizen pays in a checkout. */
export interface PayableNotice {
  iud: string;
  /** GPD: the position's restoration count (its iupd). */
  revision?: number;
  iuv: string;
  /** 18 digits. */
  noticeNumber: string;
  amountCents: number;
  description: string;
}

/** One payment the platform collected (a receipt), whatever the channel. */
export interface PlatformPayment {
  iud: string;
  iuv: string;
  /** Cents actually paid. */
  amountCents: number;
  /** yyyy-MM-dd. */
  paidOn: string;
  /** pagoPA's id of the receipt (MyPay's IUR, GPD's receiptId / idReceipt). */
  receiptId: string;
  /** The PSP that collected it, when the platform says. */
  psp?: string;
}

/**
 * A checkout's outcome as the platform knows it. The return address never says whether the citizen paid: the
 * portal asks here and shows 'Pagamento in verifica' while the answer is PENDING or UNKNOWN.
 */
export interface PlatformPaymentOutcome {
  status: 'PAID' | 'FAILED' | 'CANCELLED' | 'PENDING' | 'EXPIRED' | 'UNKNOWN';
  payments: PlatformPayment[];
}

export interface PlatformCheckout {
  /**
   * A new checkout of these notices (1 to capabilities.cartSize), coming back to `returnUrl` (the portal's own page;
   * the adapter adds the outcome's path or parameter where the platform has several return addresses) with
   * `correlationId` in it. null: the platform has nothing payable for them.
   */
  open(
    request: { notices: readonly PayableNotice[]; returnUrl: string; correlationId: string; email?: string | null },
    options?: { deadline?: number },
  ): Promise<{ sessionId: string; url: string } | null>;
  /** What became of a checkout (MyPay: by its session; GPD: from the positions' states and receipts). */
  outcome(
    session: { sessionId: string; notices: readonly PayableNotice[] },
    options?: { deadline?: number },
  ): Promise<PlatformPaymentOutcome>;
}

export interface PlatformReporting {
  /** Every payment collected between the two days (yyyy-MM-dd, inclusive, Europe/Rome), for the council's positions. */
  paidBetween(from: string, to: string, options?: { deadline?: number }): Promise<PlatformPayment[]>;
}

/** A position's state at the platform, read as the portal's, for 'Sincronizza' and the checks after a return. */
export interface PlatformPositionState {
  iud: string;
  state: Extract<PositionState, 'open' | 'paid' | 'cancelled' | 'to-reconcile'>;
  /** Whether a citizen could pay it now. */
  payable: boolean;
  /** The platform's own word for it (GPD's status, MyPay's DA_PAGARE / PAGATO / ANNULLATO), for the operator. */
  platformState: string;
  payments: PlatformPayment[];
}

/**
 * A notice as the citizen gets it: the PDF, and the due day (yyyy-MM-dd) it prints, which the notice e-mail's text
 * repeats (MyPay prints the position's dataScadenza; GPD the day the export gave GPD, domain/payment-notice.ts
 * noticeDueDay).
 */
export interface PrintedNotice {
  pdf: Uint8Array;
  dueDay: string;
}

/**
 * The payment notice PDF of a position the platform accepted ('Avviso' links, the notice e-mail's attachment, the
 * citizen's download): MyPay makes it (its AVVISI ZIP, functions/adapters/notice-pdf.ts); on GPD the portal prints
 * pagoPA's notice itself (domain/payment-notice.ts, functions/adapters/payment-notice-pdf.ts). Kept apart from
 * PaymentPlatform so the functions that only link or mail a notice bundle no platform client
 * (functions/adapters/platform-notices.ts).
 */
export interface PlatformNotices {
  /**
   * The notice (`zipKey`: MyPay's flow ZIP to look in first); null when there is none (yet). Given a position as a
   * list shows it, the adapter reads its record when it needs more (MyPay's ZIP, GPD's first export). GPD throws
   * NoticeDataError (422, Italian) when the position's data cannot make a notice pagoPA's channels would read.
   */
  notice(position: Position | PositionRecord, zipKey?: string | null): Promise<PrintedNotice | null>;
  /**
   * Where a link's copy of the PDF is kept in the exports bucket (under NOTICE_PDF_PREFIX). MyPay: one per position;
   * GPD: one per content, so a new amount or name gets a new PDF, never a stale one. null: no notice to link.
   */
  storedKey(position: Position): string | null;
  /**
   * The due day (yyyy-MM-dd) the notice prints and the platform holds, which every message about it repeats: MyPay
   * the position's dataScadenza; GPD the day its first export gave GPD (domain/payment-notice.ts noticeDueDay).
   */
  dueDay(position: Pick<PositionRecord, 'dataScadenza' | 'exportedAt'>): string;
}

/** The port: one per deployment, chosen by the setting paymentPlatform. */
export interface PaymentPlatform {
  readonly name: PaymentPlatformName;
  readonly capabilities: PlatformCapabilities;
  readonly export: PlatformExport;
  readonly checkout: PlatformCheckout;
  readonly reporting: PlatformReporting;
  /**
   * The platform's states of positions it was sent ('Sincronizza', a month at a time), by IUD; a position the platform
   * does not know is absent. Read in as few calls as the platform allows (GPD: its list, a page of 50 a call).
   */
  positionStates(positions: readonly PlatformSyncPosition[]): Promise<Map<string, PlatformPositionState>>;
}

/** What 'Sincronizza' tells the platform of a position it reads: which one, and what its due day was when sent. */
export type PlatformSyncPosition = Pick<PositionRecord, 'iud' | 'dataScadenza' | 'exportedAt' | 'iupd'> & {
  revision?: number;
};

export const PLATFORM_CAPABILITIES: Record<PaymentPlatformName, PlatformCapabilities> = {
  mypay: {
    importFiles: true,
    publication: false,
    cartSize: 1,
    batchSize: Number.MAX_SAFE_INTEGER,
    platformAssignsIuv: true,
  },
  gpd: { importFiles: false, publication: true, cartSize: 5, batchSize: 100, platformAssignsIuv: false },
};

/** How the portal names the platform to the operator: MyPay, or pagoPA for GPD. */
export const platformLabel = (name: PaymentPlatformName): string => (name === 'gpd' ? 'pagoPA' : 'MyPay');

/**
 * A text that names MyPay as the platform the positions go to (the spec's words: 'Flussi MyPay', 'Flusso inviato
 * correttamente a MyPay', 'invio a MyPay'), as it reads on the deployment's platform: unchanged on MyPay.
 */
export const onPlatform = (text: string, name: PaymentPlatformName): string =>
  name === 'mypay' ? text : text.replaceAll('MyPay', platformLabel(name));
