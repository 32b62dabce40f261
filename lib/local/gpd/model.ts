import { municipality } from '../../../web/src/config/municipality.ts';
/**
 * The GPD simulator's records and the rules it takes from pagoPA's code, written here from upstream and not from
 * the portal's domain (functions/domain/gpd.ts), so that the simulator checks the portal's adapter instead of
 * agreeing with it by construction:
 * - pagopa/pagopa-debt-position DebtPositionStatus.java: the states and which operations each allows;
 * - AppError.java: the ProblemJson titles and statuses; ErrorHandler.java: "BAD REQUEST" for a malformed body;
 * - openapi/openapi_external_v1.json, v2: fields, limits (limit ≤ 50, 30-day windows), bulk body;
 * - pagopa/pagopa-api openapi/gpd_payments.json, pagopa-gpd-payments ReceiptModelResponse.java and paForNode.xsd:
 *   the receipts list and the paSendRTV2 document;
 * - pagopa/pagopa-api openapi/checkout_v1.json: the cart request and its 302.
 */

export const STATUSES = [
  'DRAFT',
  'PUBLISHED',
  'VALID',
  'INVALID',
  'EXPIRED',
  'PARTIALLY_PAID',
  'PAID',
  'REPORTED',
] as const;
export type Status = (typeof STATUSES)[number];
/** getPaymentPosNotUpdatableStatus */
export const NOT_UPDATABLE: readonly Status[] = ['INVALID', 'PARTIALLY_PAID', 'PAID', 'REPORTED'];
/** getPaymentPosNotPublishableStatus */
export const NOT_PUBLISHABLE: readonly Status[] = [
  'PUBLISHED',
  'VALID',
  'INVALID',
  'EXPIRED',
  'PARTIALLY_PAID',
  'PAID',
  'REPORTED',
];
/** getPaymentPosNotInvalidableStatus */
export const NOT_INVALIDABLE: readonly Status[] = ['DRAFT', 'INVALID', 'EXPIRED', 'PARTIALLY_PAID', 'PAID', 'REPORTED'];
/** getPaymentPosAlreadyPaidStatus (DELETE answers DEBT_POSITION_PAYMENT_FOUND) */
export const ALREADY_PAID: readonly Status[] = ['PARTIALLY_PAID', 'PAID', 'REPORTED'];
/** getPaymentPosPayableStatus */
export const PAYABLE: readonly Status[] = ['VALID', 'PARTIALLY_PAID'];

/** AppError.java: [status, title]. */
export const APP_ERRORS = {
  UNIQUE_VIOLATION: [409, 'The debt position violated constraints of uniqueness'],
  NOT_FOUND: [404, 'Not found the debt position'],
  PAYMENT_FOUND: [409, 'Existing related payment found'],
  NOT_UPDATABLE: [409, 'Existing related payment found or not in updatable state'],
  NOT_PUBLISHABLE: [409, 'Existing related payment found or not in publishable state'],
  NOT_INVALIDABLE: [409, 'Existing related payment found or not in invalidable state'],
  NOT_RECOVERABLE: [400, 'The debt positions cannot be recovered'],
  FORBIDDEN: [403, 'The payment position is forbidden'],
  PAYMENT_OPTION_NOT_FOUND: [404, 'Not found the payment option'],
  ALREADY_PAID: [409, 'The payment option is already paid'],
  RECEIPT_NOT_FOUND: [404, 'Not found the receipt'],
  BAD_REQUEST: [400, 'BAD REQUEST'],
} as const satisfies Record<string, readonly [number, string]>;

/** An organization (EC) GPD knows, with the keys that may act for it and the segregation codes its IUVs may start with. */
export interface GpdOrganization {
  fiscalCode: string;
  companyName: string;
  segregationCodes: string[];
}

export interface GpdSimulatorOptions {
  port: number;
  host?: string;
  /** Where state.json lives (<dataDir>/gpd). */
  dataDir: string;
  organizations?: GpdOrganization[];
  /** The subscription key of the positions API and of the receipts API (each its own at pagoPA). */
  apiKey?: string;
  receiptsKey?: string;
  /** Calls per key in 10 s before 429 (pagoPA's APIM policy: 100). */
  rateLimit?: number;
  /** The window of that limit (default 10 s; tests shorten it). */
  rateWindowMs?: number;
  /** How long a "timeout" fault holds a request before dropping the connection (default 60 s). */
  holdMs?: number;
  /** The simulator's clock (tests move it). */
  now?: () => Date;
}

/**
 * The council the simulator serves: the deployment's own (web/src/config/municipality.ts, the name and fiscal code the
 * portal shows), so Checkout's cart and the notice name the council the citizen sees on the portal.
 */
export const DEFAULT_ORGANIZATION: GpdOrganization = {
  fiscalCode: municipality.fiscalCode,
  companyName: municipality.name,
  segregationCodes: ['01'],
};
export const DEFAULT_API_KEY = 'gpd-local-key';
export const DEFAULT_RECEIPTS_KEY = 'gpd-receipts-local-key';

export const POSITIONS_V1 = '/gpd/debt-positions-service/v1';
export const POSITIONS_V2 = '/gpd/debt-positions-service/v2';
export const RECEIPTS_V1 = '/gpd/payments-receipts-service/v1';
export const CHECKOUT_V1 = '/checkout/ec/v1';

/** What a fault switch can name. */
export const FAULT_TARGETS = [
  'create',
  'bulk-create',
  'get',
  'update',
  'delete',
  'publish',
  'invalidate',
  'list',
  'paid',
  'receipts',
  'receipt',
  'carts',
] as const;

export interface Transfer {
  idTransfer: string;
  amount: number;
  organizationFiscalCode?: string;
  remittanceInformation: string;
  category: string;
  iban?: string;
  postalIban?: string;
  status: 'T_UNREPORTED' | 'T_REPORTED';
}
export interface PaymentOption {
  nav: string;
  iuv: string;
  amount: number;
  description: string;
  isPartialPayment: boolean;
  dueDate: string;
  retentionDate?: string;
  status: 'PO_UNPAID' | 'PO_PAID' | 'PO_PARTIALLY_REPORTED' | 'PO_REPORTED';
  paymentDate?: string;
  paymentMethod?: string;
  pspCompany?: string;
  idReceipt?: string;
  fee?: number;
  reportingDate?: string;
  idFlowReporting?: string;
  transfer: Transfer[];
}
export interface DebtPosition {
  organizationFiscalCode: string;
  iupd: string;
  type: 'F' | 'G';
  fiscalCode: string;
  fullName: string;
  email?: string;
  companyName: string;
  officeName?: string;
  switchToExpired: boolean;
  validityDate?: string;
  publishDate?: string;
  insertedDate: string;
  lastUpdatedDate: string;
  paymentDate?: string;
  status: Status;
  paymentOption: PaymentOption[];
}
/** A receipt as the receipts service keeps it (ReceiptEntity): the list's fields and the paSendRTV2 document. */
export interface Receipt {
  organizationFiscalCode: string;
  iuv: string;
  debtor: string;
  paymentDateTime: string;
  status: 'PAID';
  document: string;
}
/** A Checkout cart the citizen has been sent to. */
export interface Cart {
  id: string;
  notices: { noticeNumber: string; fiscalCode: string; amount: number; companyName: string; description: string }[];
  returnUrls: { returnOkUrl: string; returnCancelUrl: string; returnErrorUrl: string };
  emailNotice?: string;
  idCart?: string;
  createdAt: string;
  outcome?: 'OK' | 'CANCEL' | 'ERROR';
}
export interface State {
  /** `${organization}|${iupd}` → position */
  positions: Record<string, DebtPosition>;
  receipts: Record<string, Receipt>;
  /** Receipts pagoPA has not delivered yet (the switch holdReceipts). */
  pendingReceipts: Receipt[];
  carts: Record<string, Cart>;
}

export type FaultKind = '5xx' | 'timeout' | 'lost-answer';
export interface Switches {
  faults: { target: string; kind: FaultKind; remaining: number | null }[];
  /** Paid carts' receipts wait for POST /admin/receipts (a receipt arriving late). */
  holdReceipts: boolean;
  /** The next calls answered 429 as past the key's quota (another system of the council spent it: /admin/rate-limited). */
  rateLimited: number;
}
