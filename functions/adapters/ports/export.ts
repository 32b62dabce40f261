import type { Skipped } from '../../domain/payments.ts';
import type { Actor } from '../../domain/roles.ts';
import type { PlatformPosition } from '../../domain/payment-platform.ts';

/**
 * The one port flows talks to positions through (functions/payments, functions/positions): whether a citizen
 * pays one of the month's positions, what an export would send, what to send, and MyPay's verdict on each row.
 * The call's export lock is flows' own: it says whether this flow holds it (`underLock`), positions never read it.
 */
/** What a flow asks of the month's export (one citizen only when fiscalCode is set; underLock: the flow holds the call's export lock). */
export interface MonthExportRequest {
  callId: string;
  mese: number;
  anno: number;
  fiscalCode: string | null;
  flowId: string;
  underLock: boolean;
}

export interface ExportPositions {
  /** Whether a citizen's MyPay checkout holds a position of the call (of one month, when given) at `now`. */
  hasLiveCheckouts(callId: string, month: { mese: number; anno: number } | null, now: string): Promise<boolean>;
  /**
   * The MyPay import CSV of the call's month (one citizen only when fiscalCode is set), and how many rows it has; or,
   * when the month is too big for one call, `finished: false` (call again: it goes on where this one stopped).
   */
  buildExport(request: MonthExportRequest, actor: Actor): Promise<PreparedExport<{ csv: string; rows: number }>>;
  /**
   * GPD: the call's month's pending positions as the payment-platform port sends them (one citizen only when
   * fiscalCode is set), the IUVs of new ones reserved and saved on them first; or `finished: false`, as above.
   */
  buildPlatformExport(
    request: MonthExportRequest,
    actor: Actor,
  ): Promise<PreparedExport<{ positions: PlatformPosition[] }>>;
  /** Marks these ISEEs as used for a fee (the ISEEs the month's fees came from: they can no longer be deleted). */
  markIsees(ids: readonly string[]): Promise<void>;
  /** IUV and NAV onto each accepted position, the reason onto each rejected one (idempotent). */
  recordResults(
    request: { callId: string; mese: number; anno: number; flowId: string; noticeZip: string | null },
    results: ExportResults,
  ): Promise<void>;
}

/**
 * One call of the export's preparation: the month generated whole and what to send (with the rows held back and the
 * ISEEs to mark), or the month not whole yet and how many writes are left (the step is called again).
 */
export type PreparedExport<T> =
  | ({ finished: true; heldBack?: readonly Skipped[]; iseeIds?: readonly string[] } & T)
  | { finished: false; remaining: number };

export interface ExportResults {
  /** `notice` false: MyPay made no notice PDF for it (MyPay4 makes one only for a row with flagGeneraIuv true). */
  accepted: { iud: string; iuv: string; nav: string; notice?: boolean }[];
  rejected: { iud: string; code: string; reason: string }[];
}

/**
 * Whether an export of a call runs now: payments and enrolments ask it, since a call's positions and subscriptions
 * do not change while an export reads them. The call's export lock is flows' own (functions/flows/repository.ts):
 * flows answers this (functions/flows/running-exports.ts), nothing else reads the lock.
 */
export interface RunningExports {
  isRunning(callId: string): Promise<boolean>;
}
