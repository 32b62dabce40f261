import { routeKey, routes, type Resource } from '../functions/routes.ts';
import type { DataAccess } from './portal-function.ts';

/** What the function of one resource may touch. Anything not listed is denied. */
export interface FunctionAccess {
  /** The single DynamoDB table (TABLE_NAME). */
  table?: DataAccess;
  /** ISEE PDFs, call forms, citizens' request files (DOCUMENTS_BUCKET). */
  documents?: DataAccess;
  /** Files exported for the payment platform (EXPORTS_BUCKET). */
  exports?: DataAccess;
  /**
   * Writes the notice PDFs it cuts out of MyPay's AVVISI ZIP (s3:PutObject on `notices/*` of the exports
   * bucket only: functions/adapters/notice-links.ts), with exports 'R' for the rest.
   */
  noticePdfs?: 'WRITE';
  /** E-mail through SES v2 (ses:SendEmail on the deployment's identity only; MAIL_FROM, SUPPORT_EMAIL). */
  mail?: 'SEND';
  /** The IO app (IO_BASE_URL; IO_API_KEY from Secrets Manager, a dynamic reference). */
  io?: 'SEND';
  /** MyPay's endpoint, entity code and password (MYPAY_*), from the secret named by the context mypaySecretName. */
  mypay?: true;
  /** INPS's ISEE e-services through PDND (PDND_*, INPS_*): kms:Sign with the PDND client's key, nothing else on it. */
  inps?: 'QUERY';
  /** The portal's own address (PORTAL_URL: the web stack's URL), where MyPay sends citizens back. */
  portal?: true;
}

/**
 * Least privilege, in one place. Typed by the route table's resources: a resource added there does not
 * compile until it has its line here.
 */
export const functionAccess: Record<Resource, FunctionAccess> = {
  bands: { table: 'RW' },
  services: { table: 'RW' },
  profile: { table: 'RW' },
  public: {},
  uploads: { documents: 'RW' },
  users: { table: 'RW' },
  // 'Recupera il mio ISEE da INPS', 'Aggiorna ISEE da INPS', 'Verifica con INPS'; it starts the refresh jobs.
  isee: { table: 'RW', documents: 'RW', inps: 'QUERY' },
  calls: { table: 'RW', documents: 'RW' },
  subscriptions: { table: 'RW', documents: 'RW' },
  configuration: { table: 'RW' },
  // 'Verifica / genera CSV' (a background job) leaves the month's file in the exports bucket: this function links to it.
  payments: { table: 'RW', exports: 'R' },
  // The payment list reads its summaries and totals (the payments function writes them).
  'payment-list': { table: 'R' },
  flows: { table: 'RW', exports: 'R' },
  tickets: { table: 'RW', mail: 'SEND' },
  // Payment notices: the positions and flows, MyPay's PDFs in the exports bucket, SES and IO.
  notices: { table: 'RW', exports: 'R', mail: 'SEND', io: 'SEND' },
  // Unenrolling (and the import's removals) delete the request's files.
  enrolments: { table: 'RW', documents: 'RW' },
  'enrolment-csv': { table: 'RW' },
  // 'Paga' and the return from MyPay; the notice PDFs are read (links) from the exports bucket, and the first
  // link of a position leaves its PDF there.
  'user-positions': { table: 'RW', exports: 'R', noticePdfs: 'WRITE', mypay: true, portal: true },
  // 'Avviso PDF' where the list cannot link it (GPD's notices, printed here): reads the position, and leaves the PDF it
  // makes in the exports bucket for the link.
  'notice-downloads': { table: 'R', exports: 'R', noticePdfs: 'WRITE' },
  // 'Rendicontazione': starts the background job that asks MyPay what was paid (the job function holds MyPay's settings).
  reporting: { table: 'RW' },
};

/**
 * Lambda timeout in seconds (10 unless listed; under the 30 s an HTTP API waits for its integration, checked by
 * test/infra/api-stack.test.ts). Work that grows with a call's size (a month's generation and its CSV, the
 * reporting, the hours reset, an import's apply) runs as a background job (lib/background-jobs.ts), not in a
 * request. The notices function calls IO and SES for one position, with retries; the enrolment import's preview
 * reads a whole file (npm run bench:enrolment times 5,000 rows against this same timeout).
 */
export const functionTimeoutSeconds: Partial<Record<Resource, number>> = { notices: 29, 'enrolment-csv': 29 };
export const timeoutOf = (resource: Resource): number => functionTimeoutSeconds[resource] ?? 10;

/**
 * The routes that wait on INPS (through PDND) or the payment platform (MyPay, pagoPA Checkout and receipts) while the
 * user waits: their time is theirs, not the portal's.
 */
export const outsideServiceOperations = [
  'fetchMyIseeFromInps',
  'fetchUserIseeFromInps',
  'checkIseeWithInps',
  'payPosition',
  'payCart',
  'paymentReturn',
] as const;

/**
 * The route keys slow by design, which the API's latency alarm leaves out: every route of a function with a
 * longer timeout (notices, enrolment-csv) and the INPS/MyPay calls above.
 */
export const slowRouteKeys: string[] = routes
  .filter(
    (route) =>
      functionTimeoutSeconds[route.resource] !== undefined ||
      (outsideServiceOperations as readonly string[]).includes(route.operationId),
  )
  .map(routeKey);
