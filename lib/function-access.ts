import type { Resource } from '../functions/routes.ts';
import type { DataAccess } from './portal-function.ts';

/** What the function of one resource may touch. Anything not listed is denied. */
export interface FunctionAccess {
  /** The single DynamoDB table (TABLE_NAME). */
  table?: DataAccess;
  /** ISEE PDFs, call forms, citizens' request files (DOCUMENTS_BUCKET). */
  documents?: DataAccess;
  /** Files exported for the payment platform (EXPORTS_BUCKET). */
  exports?: DataAccess;
  /** E-mail through SES v2 (ses:SendEmail on the deployment's identity only; MAIL_FROM, SUPPORT_EMAIL). */
  mail?: 'SEND';
  /** The IO app (IO_BASE_URL, IO_PAYEE_FISCAL_CODE; IO_API_KEY from Secrets Manager, a dynamic reference). */
  io?: 'SEND';
  /** MyPay's endpoint, entity code and password (MYPAY_*), from the secret named by the context mypaySecretName. */
  mypay?: true;
  /** INPS's ISEE e-services through PDND (PDND_*, INPS_*): kms:Sign with the PDND client's key, nothing else on it. */
  inps?: 'QUERY';
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
  // 'Verifica / genera CSV' leaves the month's file in the exports bucket and answers a link to it.
  payments: { table: 'RW', exports: 'RW' },
  // The payment list reads its summaries and totals (the payments function writes them).
  'payment-list': { table: 'R' },
  flows: { table: 'RW', exports: 'R' },
  tickets: { table: 'RW', mail: 'SEND' },
  // Payment notices: the positions and flows, MyPay's PDFs in the exports bucket, SES and IO.
  notices: { table: 'RW', exports: 'R', mail: 'SEND', io: 'SEND' },
  // Unenrolling (and the import's removals) delete the request's files.
  enrolments: { table: 'RW', documents: 'RW' },
  'enrolment-csv': { table: 'RW' },
  // 'Paga' and the return from MyPay; the notice PDFs are read (links) from the exports bucket.
  'user-positions': { table: 'RW', exports: 'R', mypay: true },
  // 'Rendicontazione': MyPay's export of what was paid.
  reporting: { table: 'RW', mypay: true },
};

/**
 * Lambda timeout in seconds (10 unless listed). The payments function generates a month of debt positions
 * in one request: up to the 29 s an HTTP API integration may last.
 */
export const functionTimeoutSeconds: Partial<Record<Resource, number>> = { payments: 29, notices: 29, reporting: 29 };
export const timeoutOf = (resource: Resource): number => functionTimeoutSeconds[resource] ?? 10;
