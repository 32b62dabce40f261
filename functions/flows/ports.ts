import type { FlowRecord } from '../domain/flow-record.ts';
import type { MyPayCsvRow } from '../domain/mypay-csv-format.ts';
import type { Page } from '../domain/validation.ts';
import type { PaymentPlatform, PaymentPlatformName } from '../domain/payment-platform.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import type { ExportPositions } from '../adapters/ports/export.ts';
import type { ExportFiles } from '../adapters/ports/files.ts';
import type { BusinessMetrics } from '../adapters/ports/metrics.ts';
import type { MyPayAuthorization, MyPayImportStatus } from '../adapters/ports/mypay.ts';

/** What the export of a month's positions to MyPay needs (its operator side in use-cases.ts, its steps in export-steps.ts). */

export interface FlowRepository {
  getFlow(id: string): Promise<FlowRecord | null>;
  /**
   * One export per call at a time: false when another flow holds the call's lock (taking it again is fine).
   * The lock is a lease until `lease.until` (domain/flows.ts EXPORT_LEASE_MS); an expired one is free.
   */
  takeExportLock(callId: string, flowId: string, lease: { now: string; until: string }): Promise<boolean>;
  /** The flow's lease goes on until `until`; false when the flow does not hold the lock. */
  renewExportLock(callId: string, flowId: string, until: string): Promise<boolean>;
  /** The flow keeps the lock with no expiry, until 'Rielabora' (MyPay may hold its file). */
  keepExportLock(callId: string, flowId: string): Promise<void>;
  createFlow(flow: FlowRecord): Promise<void>;
  /** Merges fields onto the flow. */
  updateFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord>;
  /** Merges fields onto a flow still running; throws (FlowStopped) once it completed, failed or was suspended. */
  advanceFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord>;
  /** The flow leaves the flows page (it sent nothing); it can still be read by its id. */
  unlistFlow(id: string): Promise<void>;
  /** The call's export lock goes (an export of that call may start again). */
  releaseExportLock(callId: string, flowId: string): Promise<void>;
  /** The flow that holds the call's export lock, if any (an expired lease holds nothing). */
  runningExportOf(callId: string): Promise<string | null>;
  listFlows(query: { descrizione?: string; cursor?: string }, pageSize: number): Promise<Page<FlowRecord>>;
}

/** MyPay's bulk import (functions/adapters/mypay.ts; the simulator locally). */
export interface MyPayImport {
  authorize(): Promise<MyPayAuthorization>;
  /** Sends the ZIP (the adapter sends its MD5 with it). */
  upload(authorization: MyPayAuthorization, zip: Uint8Array, fileName: string): Promise<void>;
  /** null when MyPay has no file for the token (the upload never reached it). */
  importStatus(requestToken: string): Promise<MyPayImportStatus | null>;
  download(url: string): Promise<Uint8Array>;
  /**
   * One row through paaSILImportaDovuto: the IUV MyPay generated, if any, and the link to its notice PDF MyPay gives
   * with a generated IUV (urlFileAvviso); a refusal is a MyPayFault.
   */
  importDovuto(row: MyPayCsvRow): Promise<{ iuv: string | null; noticeUrl?: string | null }>;
}

/** Starts the export state machine for a flow (Step Functions in the cloud, aws-local-stepfunctions here). */
export interface FlowRunner {
  /** Starts an execution for the flow and answers its id (the ARN in the cloud). */
  start(flowId: string): Promise<string>;
}

export interface FlowDeps {
  flows: FlowRepository;
  /** An export needs the whole MyPay configuration: checked before anything starts (400 otherwise). */
  configuration: { requireComplete(): Promise<unknown> };
  calls: {
    getCall(
      id: string,
    ): Promise<{ id: string; name: string; serviceId: string; serviceName: string; state?: number } | null>;
  };
  /** The positions' side of starting an export (ExportPositions). */
  positions: Pick<ExportPositions, 'hasLiveCheckouts'>;
  exportFiles: Pick<ExportFiles, 'downloadUrl'>;
  runner: FlowRunner;
  /** Whether 'Sincronizza' is recalculating the call's positions: no export starts beside it. */
  positionsSync: { isRunning(callId: string): Promise<boolean> };
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
  /** The deployment's payment platform (functions/adapters/payment-platform.ts paymentPlatformName); MyPay unless given. */
  platform?: PaymentPlatformName;
}

/** What the export's steps need (functions/entry/flow-task.ts). */
export interface ExportStepDeps {
  flows: FlowRepository;
  positions: Pick<ExportPositions, 'buildExport' | 'markIsees' | 'recordResults'> &
    Partial<Pick<ExportPositions, 'buildPlatformExport'>>;
  mypay: MyPayImport;
  /**
   * The deployment's payment platform (functions/adapters/payment-platform.ts). One without import files (GPD)
   * takes the positions themselves through its export port; MyPay (or none given) goes by the import file above.
   */
  platform?: Pick<PaymentPlatform, 'name' | 'capabilities' | 'export'>;
  /** Positions handed to such a platform per call of Send (SEND_SLICE unless a test sets another). */
  sendSlice?: number;
  exportFiles: ExportFiles;
  clock: Clock;
  /** The council's entity code at MyPay: it names the ZIP. */
  codIpa: string;
  /** Rows asked about one by one per call of Send when 'Rielabora' reconciles a failed import (RECONCILE_SLICE unless a test sets another). */
  reconcileSlice?: number;
  /** Rows written back per call of Collect (COLLECT_SLICE unless a test sets another). */
  collectSlice?: number;
  /** ISEEs marked per call of MarkIsees (ISEE_SLICE unless a test sets another). */
  iseeSlice?: number;
  /** ExportsCompleted, ExportsFailed, PositionsExported, MyPayRowsRejected (functions/domain/business-metrics.ts). */
  metrics?: BusinessMetrics;
  /** How long MyPay may keep an import in LOAD_IMPORT / IMPORT_IN_ELAB before the flow is suspended. */
  importMaxWaitMinutes?: number;
}
