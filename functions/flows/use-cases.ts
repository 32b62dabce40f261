import { unzipSync, strToU8, strFromU8 } from 'fflate';
import { dsvFormat } from 'd3-dsv';
import { CallState } from '../domain/call-limits.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import {
  DEFAULT_IMPORT_MAX_WAIT_MINUTES,
  isFlowRunning,
  FLOWS_PAGE_SIZE,
  assertRestartable,
  flowFileName,
  flowIuf,
  flowMessages,
  flowStateLabel,
  flowStepLabels,
  isMyPayFailure,
  mypayFailureReason,
  nextImportPollSeconds,
  type ExportRequest,
  type Flow,
  type FlowFileKind,
} from '../domain/flows.ts';
import { messages, positionOpsMessages } from '../domain/messages.ts';
import { iuvOfNoticeFile } from '../domain/notices.ts';
import { navOfIuv } from '../domain/iuv.ts';
import type { Skipped } from '../domain/payments.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import { mypayImportZip } from '../adapters/mypay-zip.ts';
import { noMetrics, type AuditLog, type BusinessMetrics, type Clock, type IdGenerator, type MyPayAuthorization, type MyPayImportStatus } from '../adapters/ports.ts';
import type { FlowRecord } from '../domain/flow-record.ts';

export interface FlowRepository {
  getFlow(id: string): Promise<FlowRecord | null>;
  /** One export per call at a time: false when another flow holds the call's lock (taking it again is fine). */
  takeExportLock(callId: string, flowId: string): Promise<boolean>;
  createFlow(flow: FlowRecord): Promise<void>;
  /** Merges fields onto the flow. */
  updateFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord>;
  /** Merges fields onto a flow still running; throws (FlowStopped) once it completed, failed or was suspended. */
  advanceFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord>;
  /** The call's export lock goes (an export of that call may start again). */
  releaseExportLock(callId: string, flowId: string): Promise<void>;
  /** The flow that holds the call's export lock, if any. */
  runningExportOf(callId: string): Promise<string | null>;
  listFlows(query: { descrizione?: string; cursor?: string }, pageSize: number): Promise<Page<FlowRecord>>;
}

/** The positions side of an export (functions/payments): what to send, and MyPay's verdict on each row. */
export interface ExportPositions {
  /** The MyPay import CSV of the call's month (one citizen only when fiscalCode is set), and how many rows it has. */
  buildExport(
    request: { callId: string; mese: number; anno: number; fiscalCode: string | null; flowId: string },
    actor: Actor,
  ): Promise<{ csv: string; rows: number; heldBack?: readonly Skipped[]; iseeIds?: readonly string[] }>;
  /** Marks these ISEEs as used for a fee (the ISEEs the month's fees came from: they can no longer be deleted). */
  markIsees(ids: readonly string[]): Promise<void>;
  /** IUV and NAV onto each accepted position, the reason onto each rejected one (idempotent). */
  recordResults(request: { callId: string; mese: number; anno: number; flowId: string; noticeZip: string | null }, results: ExportResults): Promise<void>;
}

export interface ExportResults {
  /** `notice` false: MyPay made no notice PDF for it (MyPay4 makes one only for a row with flagGeneraIuv true). */
  accepted: { iud: string; iuv: string; nav: string; notice?: boolean }[];
  rejected: { iud: string; code: string; reason: string }[];
}

/** MyPay's bulk import (functions/adapters/mypay.ts; the simulator locally). */
export interface MyPayImport {
  authorize(): Promise<MyPayAuthorization>;
  /** Sends the ZIP (the adapter sends its MD5 with it). */
  upload(authorization: MyPayAuthorization, zip: Uint8Array, fileName: string): Promise<void>;
  /** null when MyPay has no file for the token (the upload never reached it). */
  importStatus(requestToken: string): Promise<MyPayImportStatus | null>;
  download(url: string): Promise<Uint8Array>;
}

/** The exports bucket. */
export interface ExportFiles {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  /** A link of a few minutes that downloads the file (a ZIP unless another type is given). */
  downloadUrl(key: string, fileName: string, contentType?: string): Promise<string>;
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
  calls: { getCall(id: string): Promise<{ id: string; name: string; serviceId: string; serviceName: string; state?: number } | null> };
  /** Whether a citizen's MyPay checkout holds a position of the call's month (payments/repository.ts hasLiveCheckouts). */
  checkouts?: { hasLiveCheckouts(callId: string, month: { mese: number; anno: number } | null, now: string): Promise<boolean> };
  /**
   * How many positions an export of the month would find to send now (after the month's generation, which
   * this only plans: nothing is written). 0: 'Invia a MyPay' creates no flow.
   */
  positions: { pendingCount(request: { callId: string; mese: number; anno: number; fiscalCode: string | null }): Promise<number> };
  exportFiles: Pick<ExportFiles, 'downloadUrl'>;
  runner: FlowRunner;
  /** Whether 'Sincronizza' is recalculating the call's positions: no export starts beside it. */
  positionsSync: { isRunning(callId: string): Promise<boolean> };
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

/** What the export's steps need (functions/flows/task-handler.ts). */
export interface ExportStepDeps {
  flows: FlowRepository;
  positions: ExportPositions;
  mypay: MyPayImport;
  exportFiles: ExportFiles;
  clock: Clock;
  /** The council's entity code at MyPay: it names the ZIP. */
  codIpa: string;
  /** Rows written back per call of Collect (COLLECT_SLICE unless a test sets another). */
  collectSlice?: number;
  /** ISEEs marked per call of MarkIsees (ISEE_SLICE unless a test sets another). */
  iseeSlice?: number;
  /** ExportsCompleted, ExportsFailed, PositionsExported, MyPayRowsRejected (functions/domain/business-metrics.ts). */
  metrics?: BusinessMetrics;
  /** How long MyPay may keep an import in LOAD_IMPORT / IMPORT_IN_ELAB before the flow is suspended. */
  importMaxWaitMinutes?: number;
}

export const toFlow = (record: FlowRecord): Flow => ({
  id: record.id,
  stato: record.stato,
  statoLabel: flowStateLabel(record.stato),
  step: record.step,
  stepLabel: flowStepLabels[record.step],
  dataInsert: record.dataInsert,
  dataUpdate: record.dataUpdate,
  announcement: record.announcement,
  mese: record.mese,
  anno: record.anno,
  fiscalCode: record.fiscalCode,
  num: record.num,
  accepted: record.accepted,
  rejected: record.rejected,
  isEmailSent: record.isEmailSent,
  emailJob: record.emailRun && !record.emailRun.finishedAt ? { sent: record.emailRun.sent } : null,
  available: Boolean(record.collectedAt),
  error: record.error,
  files: {
    avvisi: { available: Boolean(record.files.avvisi) },
    iuv: { available: Boolean(record.files.iuv) },
    scarti: { available: Boolean(record.files.scarti) },
  },
  heldBack: record.heldBack ?? [],
});

/** Held-back positions kept on the flow item (each a few hundred bytes: far from DynamoDB's 400 KB). */
export const HELD_BACK_KEPT = 200;

/**
 * The data rows of the CSV files in a MyPay result ZIP, as fields by position (the header line skipped):
 * MyPay4 writes the IUV file with the original header and each row's fields joined by `;`, unquoted
 * (ImportFlussoTaskService.creaRigaFileScartiOriIuv), and the SCARTI file as the original line followed by
 * `;cod_rifiuto;de_rifiuto` (creaRigaFileScarti). So the IUD is the first field, the IUV the second, and a
 * rejection's code and text the last two.
 */
const semicolonSeparated = dsvFormat(';');

export function rowsOfResultZip(zip: Uint8Array): string[][] {
  const files = Object.entries(unzipSync(zip)).filter(([name]) => name.toLowerCase().endsWith('.csv'));
  const rows: string[][] = [];
  for (const [, bytes] of files) {
    const text = strFromU8(bytes).replace(/^\uFEFF/, '');
    const lines = semicolonSeparated.parseRows(text).map((fields) => fields.map((field) => field.trim()));
    const [, ...data] = lines.filter((fields) => fields.some((field) => field !== ''));
    rows.push(...data);
  }
  return rows;
}

/**
 * Rows of MyPay's result files written back per call of the Collect step (the step loops in the state
 * machine until the last slice). Each slice reads the whole month once (the positions are found by IUD),
 * so a slice covers a usual month whole: 10,000 rows are 400 batched writes, seconds, far from the task's
 * timeout now that the notice PDFs stay in their ZIP. Bigger months go in more slices.
 */
export const COLLECT_SLICE = 10_000;

/** ISEEs marked per call of the MarkIsees step (one conditional write each). */
export const ISEE_SLICE = 2500;

const resultFileName = (zipName: string, kind: FlowFileKind) =>
  zipName.replace(/\.zip$/, '') + { avvisi: '_AVVISI_PDF.zip', iuv: '_IUV.zip', scarti: '_SCARTI.zip' }[kind];

const requireFlowIn = (flows: FlowRepository) => async (id: string) => (await flows.getFlow(id)) ?? Promise.reject(new NotFoundError(flowMessages.notFound));

/** The operator's side: start an export, follow it, restart it, open its files. */
export function makeFlowUseCases({ flows, configuration, calls, checkouts, positions, exportFiles, runner, positionsSync, audit, clock, ids }: FlowDeps) {
  const requireFlow = requireFlowIn(flows);
  const now = () => clock.now().toISOString();

  /**
   * Takes the call's export lock for the flow, then makes sure 'Sincronizza' is not recalculating the call.
   * Each side writes its own mark before it reads the other's (every slice of the recalculation reads the
   * lock), so the two never write the call's positions together. `keepLock`: the flow already held the lock
   * (MyPay may hold its file), which stays with it.
   */
  async function lockCallForExport(callId: string, flowId: string, keepLock = false): Promise<void> {
    if (!(await flows.takeExportLock(callId, flowId))) throw new ConflictError(flowMessages.exportRunning);
    if (!(await positionsSync.isRunning(callId))) return;
    if (!keepLock) await flows.releaseExportLock(callId, flowId);
    throw new ConflictError(positionOpsMessages.syncRunning);
  }

  /** Starts the workflow for the flow and keeps which execution it is (an older one's end is then ignored). */
  const run = async (flowId: string) => flows.updateFlow(flowId, { execution: await runner.start(flowId) }, now());

  return {
    /**
     * 'Invia a MyPay': a new flow for the call's month (one citizen for the single payment) and its
     * workflow. One export per call at a time (a lock item, conditional write): a second one is a 409.
     */
    async startExport(callId: string, request: ExportRequest, actor: Actor): Promise<Flow> {
      const call = await calls.getCall(callId);
      if (!call) throw new NotFoundError(messages.call.notFound);
      // An archived call is over: it is billed no more (a closed one keeps billing its approved subscriptions).
      if (call.state === CallState.ARCHIVED) throw new ConflictError(positionOpsMessages.archived);
      await configuration.requireComplete();
      // The export regenerates the month: not while a citizen pays one of its positions.
      if (await checkouts?.hasLiveCheckouts(call.id, { mese: request.mese, anno: request.anno }, now())) throw new ConflictError(positionOpsMessages.checkoutLiveMonth);
      const at = now();
      const record: FlowRecord = {
        id: ids().replace(/-/g, '').slice(0, 20),
        stato: 'IN_PREPARAZIONE',
        step: 'PREPARAZIONE',
        dataInsert: at,
        dataUpdate: at,
        announcement: { id: call.id, name: call.name, service: { id: call.serviceId, name: call.serviceName } },
        mese: request.mese,
        anno: request.anno,
        fiscalCode: request.fiscalCode ?? null,
        num: 0,
        accepted: null,
        rejected: null,
        isEmailSent: false,
        error: null,
        zipKey: null,
        zipName: null,
        md5: null,
        requestToken: null,
        uploadedAt: null,
        files: { avvisi: null, iuv: null, scarti: null },
        collectedAt: null,
        startedBy: actor,
        heldBack: null,
        attempt: 1,
        execution: null,
      };
      await lockCallForExport(call.id, record.id);
      // Nothing new to send: no flow (a row of 'Flusso approvato' with nothing in it would only mislead).
      // Asked with the lock held, so no other export or recalculation changes the month meanwhile.
      const pending = await positions.pendingCount({ callId: call.id, mese: request.mese, anno: request.anno, fiscalCode: request.fiscalCode ?? null }).catch(async (error: unknown) => {
        await flows.releaseExportLock(call.id, record.id);
        throw error;
      });
      if (pending === 0) {
        await flows.releaseExportLock(call.id, record.id);
        throw new ConflictError(flowMessages.nothingToSend);
      }
      await flows.createFlow(record);
      await audit.record({ actor, entity: 'flow', id: record.id, action: 'create', before: null, after: record }, clock.now());
      return toFlow(await run(record.id));
    },

    async getFlow(id: string): Promise<Flow> {
      return toFlow(await requireFlow(id));
    },

    async listFlows(query: { descrizione?: string; cursor?: string }): Promise<Page<Flow>> {
      const page = await flows.listFlows(query, FLOWS_PAGE_SIZE);
      return { items: page.items.map(toFlow), nextCursor: page.nextCursor };
    },

    /**
     * 'Rielabora': the workflow runs again on a flow that stopped; every step resumes where it stopped. A
     * suspended flow asks MyPay again about the file it holds. After MyPay failed or refused the import the
     * file goes again with a new request token, a new IUF and a new ZIP name: MyPay refuses a name or an IUF
     * it already received (FlussoService.java, FlussoDao.java).
     */
    async restartFlow(id: string, actor: Actor): Promise<Flow> {
      const before = await requireFlow(id);
      assertRestartable(before);
      // markFailed kept the lock exactly when MyPay may hold the file (a request token).
      await lockCallForExport(before.announcement.id, id, before.requestToken !== null);
      const resend = isMyPayFailure(before.stato) ? { requestToken: null, uploadedAt: null, attempt: (before.attempt ?? 1) + 1, stato: 'IN_PREPARAZIONE' } : {};
      const waitAgain = before.step === 'SOSPESO' ? { step: 'ATTESA_ESITO' as const, pollingSince: now() } : { step: before.zipKey ? ('INVIO' as const) : ('PREPARAZIONE' as const) };
      const after = await flows.updateFlow(id, { ...resend, ...waitAgain, error: null }, now());
      await audit.record({ actor, entity: 'flow', id, action: 'update', before, after }, clock.now());
      return toFlow(await run(id));
    },

    /** A short-lived link to one of MyPay's result files of the flow. */
    async flowFileLink(id: string, kind: FlowFileKind): Promise<{ url: string }> {
      const flow = await requireFlow(id);
      const key = flow.files[kind];
      if (!key || !flow.zipName) throw new NotFoundError('Nessun link presente');
      return { url: await exportFiles.downloadUrl(key, resultFileName(flow.zipName, kind)) };
    },

    /** Whether an export of the call is running (the hours reset waits for it). */
    isExportRunning: async (callId: string) => (await flows.runningExportOf(callId)) !== null,
  };
}

/** The workflow's steps (functions/flows/state-machine.ts); each one is idempotent on the flow item. */
export function makeExportSteps({
  flows,
  positions,
  mypay,
  exportFiles,
  clock,
  codIpa,
  collectSlice = COLLECT_SLICE,
  iseeSlice = ISEE_SLICE,
  importMaxWaitMinutes = DEFAULT_IMPORT_MAX_WAIT_MINUTES,
  metrics = noMetrics,
}: ExportStepDeps) {
  const requireFlow = requireFlowIn(flows);
  const now = () => clock.now().toISOString();

  /**
   * A refusal by MyPay (a fault, MyBox refusing the file) is MyPay's: the flow keeps its code as `stato`
   * ('Errore flusso') and the Italian reason, then the error goes on to the state machine's Catch.
   */
  async function recordingRefusal<T>(flowId: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof Error && error.name === 'MyPayFault') {
        const { faultCode, description } = error as Error & { faultCode: string; description?: string };
        await flows.advanceFlow(flowId, { stato: faultCode, error: mypayFailureReason(faultCode, description) }, now());
      }
      throw error;
    }
  }

  /**
   * The ZIP for this sending: the prepared CSV under the name of the flow's current IUF. A new sending after
   * MyPay failed or refused the file repacks the same CSV under a new name (MyPay wants the CSV inside
   * named as the ZIP: FlussoService.validateFile).
   */
  async function zipForAttempt(flow: FlowRecord): Promise<{ zip: Uint8Array; zipName: string }> {
    if (!flow.zipKey || !flow.zipName || !flow.md5) throw new Error('Il file del flusso non è stato preparato.');
    const zipName = flowFileName(codIpa, flowIuf(flow.id, flow.attempt ?? 1));
    const stored = await exportFiles.get(flow.zipKey);
    if (zipName === flow.zipName) return { zip: stored, zipName };
    const csv = Object.entries(unzipSync(stored)).find(([name]) => name.toLowerCase().endsWith('.csv'))?.[1];
    if (!csv) throw new Error('Il file del flusso non contiene il CSV.');
    const { bytes: zip, md5 } = mypayImportZip(zipName, csv);
    const zipKey = `flows/${flow.id}/${zipName}`;
    await exportFiles.put(zipKey, zip, 'application/zip');
    await flows.advanceFlow(flow.id, { zipKey, zipName, md5 }, now());
    return { zip, zipName };
  }

  async function markIseeSlice(flowId: string, slice: number): Promise<{ done: boolean }> {
    const flow = await requireFlow(flowId);
    if (!flow.iseeKey) return { done: true };
    const ids = JSON.parse(strFromU8(await exportFiles.get(flow.iseeKey))) as string[];
    const from = flow.iseeCursor ?? 0;
    if (from >= ids.length) return { done: true };
    const to = Math.min(ids.length, from + slice);
    await positions.markIsees(ids.slice(from, to));
    await flows.advanceFlow(flowId, { iseeCursor: to }, now());
    return { done: to >= ids.length };
  }

  return {
    /** The CSV of the month's positions → the ZIP MyPay expects, with its MD5, in the exports bucket. */
    async prepare(flowId: string): Promise<{ rows: number }> {
      const flow = await requireFlow(flowId);
      if (flow.zipKey) return { rows: flow.num };
      const { csv, rows, heldBack = [], iseeIds = [] } = await positions.buildExport(
        { callId: flow.announcement.id, mese: flow.mese, anno: flow.anno, fiscalCode: flow.fiscalCode, flowId },
        flow.startedBy,
      );
      if (heldBack.length) await flows.advanceFlow(flowId, { heldBack: heldBack.slice(0, HELD_BACK_KEPT) }, now());
      // The ISEEs to mark go to the bucket (10,000 ids would not fit in the flow item); MarkIsees marks them.
      const iseeKey = iseeIds.length ? `flows/${flowId}/isees.json` : null;
      if (iseeKey) await exportFiles.put(iseeKey, strToU8(JSON.stringify(iseeIds)), 'application/json');
      if (iseeKey) await flows.advanceFlow(flowId, { iseeKey, iseeCursor: 0 }, now());
      if (rows === 0) {
        if (iseeKey) await markIseeSlice(flowId, Number.MAX_SAFE_INTEGER);
        const error = heldBack.length ? flowMessages.allHeldBack : flowMessages.nothingToSend;
        await flows.advanceFlow(flowId, { step: 'COMPLETATO', stato: 'IMPORT_ESEGUITO', num: 0, accepted: 0, rejected: 0, error }, now());
        await flows.releaseExportLock(flow.announcement.id, flowId);
        metrics.count('ExportsCompleted', 1);
        return { rows: 0 };
      }
      const zipName = flowFileName(codIpa, flowIuf(flowId, flow.attempt ?? 1));
      const { bytes: zip, md5 } = mypayImportZip(zipName, strToU8(csv));
      const zipKey = `flows/${flowId}/${zipName}`;
      await exportFiles.put(zipKey, zip, 'application/zip');
      await flows.advanceFlow(flowId, { zipKey, zipName, md5, num: rows, step: 'INVIO' }, now());
      return { rows };
    },

    /**
     * The ISEEs of the month's fees marked as used (they can no longer be deleted), ISEE_SLICE a call:
     * `done` false means the state machine calls the step again; it goes on from the flow's iseeCursor.
     * Marking twice changes nothing (an ISEE already marked is skipped).
     */
    markIsees: (flowId: string) => markIseeSlice(flowId, iseeSlice),

    /**
     * Authorise and upload. The one-use request token is saved BEFORE the upload: after a crash the
     * restart asks MyPay about that token first and uploads again only if MyPay never received the file.
     */
    send: (flowId: string) =>
      recordingRefusal(flowId, async () => {
        const flow = await requireFlow(flowId);
        if (flow.uploadedAt) return;
        if (flow.requestToken && (await mypay.importStatus(flow.requestToken)) !== null) {
          await flows.advanceFlow(flowId, { uploadedAt: now(), pollingSince: now(), step: 'ATTESA_ESITO' }, now());
          return;
        }
        const { zip, zipName } = await zipForAttempt(flow);
        const authorization = await mypay.authorize();
        await flows.advanceFlow(flowId, { requestToken: authorization.requestToken }, now());
        try {
          await mypay.upload(authorization, zip, zipName);
        } catch (error) {
          // MyPay answered and refused the file (e.g. a request token already used): the token is not this
          // flow's, so a restart must not follow it. Any other failure keeps it: MyPay may have the file.
          if ((error as Error).name === 'MyPayFault') await flows.advanceFlow(flowId, { requestToken: null }, now());
          throw error;
        }
        await flows.advanceFlow(flowId, { uploadedAt: now(), pollingSince: now(), stato: 'LOAD_IMPORT', step: 'ATTESA_ESITO' }, now());
      }),

    /**
     * MyPay's import state, recorded on the flow: MyPay's error code when it failed the import (the flow's
     * error then says what it means). `waitMore` while MyPay still works on it and the deployment's wait has
     * not passed, and how long to wait before asking again (`waitSeconds`).
     */
    checkImport: (flowId: string) =>
      recordingRefusal(flowId, async (): Promise<{ stato: string; waitMore: boolean; waitSeconds: number }> => {
        const flow = await requireFlow(flowId);
        if (flow.collectedAt) return { stato: 'IMPORT_ESEGUITO', waitMore: false, waitSeconds: 0 };
        const status = flow.requestToken ? await mypay.importStatus(flow.requestToken) : null;
        const stato = status?.stato ?? 'IMPORT_ERROR_SL';
        const failed = isMyPayFailure(stato);
        if (stato !== flow.stato) await flows.advanceFlow(flowId, { stato, ...(failed ? { error: mypayFailureReason(stato) } : {}) }, now());
        const waited = clock.now().getTime() - Date.parse(flow.pollingSince ?? flow.uploadedAt ?? now());
        const working = stato === 'LOAD_IMPORT' || stato === 'IMPORT_IN_ELAB';
        return { stato, waitMore: working && waited < importMaxWaitMinutes * 60_000, waitSeconds: nextImportPollSeconds(waited) };
      }),

    /**
     * MyPay's result files into the exports bucket (first call), then each accepted row's IUV and NAV and
     * each rejected row's reason onto its position, COLLECT_SLICE rows a call: `done` false means the state
     * machine calls the step again, which goes on from the flow's collectCursor. Writing the same results
     * twice changes nothing, so a restart after a crash mid-slice is safe.
     */
    collect: (flowId: string) => recordingRefusal(flowId, () => collectSliceOf(flowId)),

    markFailed,
    executionEnded,
  };

  async function collectSliceOf(flowId: string): Promise<{ done: boolean }> {
    const flow = await requireFlow(flowId);
    if (flow.collectedAt) return { done: true };
    const fetched: Partial<Record<FlowFileKind, Uint8Array>> = {};
    let files = flow.files;
    let cursor = flow.collectCursor ?? null;
    if (cursor === null) {
      const status = await mypay.importStatus(flow.requestToken!);
      if (!status || status.stato !== 'IMPORT_ESEGUITO') throw new Error(`Stato del flusso inatteso: ${status?.stato ?? 'sconosciuto'}`);
      const urls: Record<FlowFileKind, string | null | undefined> = { avvisi: status.urlFileAvvisi, iuv: status.urlFileIUV, scarti: status.urlFileScarti };
      files = { avvisi: null, iuv: null, scarti: null };
      for (const kind of ['iuv', 'scarti', 'avvisi'] as const) {
        const url = urls[kind];
        if (!url) continue;
        const bytes = await mypay.download(url);
        const key = `flows/${flowId}/${resultFileName(flow.zipName!, kind)}`;
        await exportFiles.put(key, bytes, 'application/zip');
        files[kind] = key;
        fetched[kind] = bytes;
      }
      cursor = 0;
      await flows.advanceFlow(flowId, { files, collectCursor: cursor }, now());
    }
    const fileOf = async (kind: FlowFileKind) => fetched[kind] ?? (files[kind] ? await exportFiles.get(files[kind]!) : null);
    const results: ExportResults = { accepted: [], rejected: [] };
    const iuvZip = await fileOf('iuv');
    const avvisi = files.avvisi ? noticeIuvs(await fileOf('avvisi')) : new Set<string>();
    for (const row of iuvZip ? rowsOfResultZip(iuvZip) : []) {
      const [iud, iuv] = row;
      if (iud && iuv) results.accepted.push({ iud, iuv, nav: navOfIuv(iuv), notice: avvisi.has(iuv) });
    }
    const scartiZip = await fileOf('scarti');
    for (const row of scartiZip ? rowsOfResultZip(scartiZip) : []) {
      if (row[0]) results.rejected.push({ iud: row[0], ...rejectionOf(row) });
    }
    // This call's slice: the accepted rows first, then the rejected ones, in the files' order.
    const end = Math.min(cursor + collectSlice, results.accepted.length + results.rejected.length);
    const slice: ExportResults = {
      accepted: results.accepted.slice(cursor, end),
      rejected: results.rejected.slice(Math.max(0, cursor - results.accepted.length), Math.max(0, end - results.accepted.length)),
    };
    // The notice PDFs stay in MyPay's AVVISI ZIP as it came: each accepted position is told where its own
    // is, and is served from it on demand (functions/adapters/notice-pdf.ts).
    await positions.recordResults({ callId: flow.announcement.id, mese: flow.mese, anno: flow.anno, flowId, noticeZip: files.avvisi }, slice);
    if (end < results.accepted.length + results.rejected.length) {
      await flows.advanceFlow(flowId, { collectCursor: end }, now());
      return { done: false };
    }
    await flows.advanceFlow(
      flowId,
      { files, accepted: results.accepted.length, rejected: results.rejected.length, stato: 'IMPORT_ESEGUITO', step: 'COMPLETATO', collectedAt: now(), collectCursor: end, error: null },
      now(),
    );
    await flows.releaseExportLock(flow.announcement.id, flowId);
    metrics.count('ExportsCompleted', 1);
    metrics.count('PositionsExported', results.accepted.length);
    metrics.count('MyPayRowsRejected', results.rejected.length);
    return { done: true };
  }

  /**
   * The workflow stopped: the flow says why. MyPay's failure or refusal keeps MyPay's code as `stato`
   * ('Errore flusso') with its Italian reason; MyPay still working on the import when the wait ran out
   * suspends the flow (waiting, not failed); anything else is the portal's IMPORT_ERROR_SL ('Errore flusso
   * interno'). The call stays locked if MyPay may hold the file (a restart resumes from it).
   */
  async function markFailed(flowId: string, error: { Error?: string; Cause?: string } | null): Promise<void> {
    const flow = await requireFlow(flowId);
    if (flow.step === 'COMPLETATO') return;
    const cause = error?.Error === 'ImportNotDone' ? (error.Cause ?? '') : '';
    if (cause === 'LOAD_IMPORT' || cause === 'IMPORT_IN_ELAB') {
      await flows.updateFlow(flowId, { step: 'SOSPESO', stato: cause, error: flowMessages.stillWaiting }, now());
      return;
    }
    const stato = cause && isMyPayFailure(cause) ? cause : isMyPayFailure(flow.stato) ? flow.stato : 'IMPORT_ERROR_SL';
    const reason = stato === 'IMPORT_ERROR_SL' ? describeFailure(error) : stato === flow.stato && flow.error ? flow.error : mypayFailureReason(stato);
    await flows.updateFlow(flowId, { step: 'ERRORE', stato, error: reason }, now());
    if (!flow.requestToken) await flows.releaseExportLock(flow.announcement.id, flowId);
    metrics.count('ExportsFailed', 1);
  }

  /**
   * An execution ended without passing through MarkFailed: the state machine's own timeout and an abort
   * bypass every Catch (Step Functions "Execution Status Change" event, an EventBridge rule in the cloud,
   * lib/local/step-functions.ts here). A flow still running under that execution is failed as MarkFailed
   * would (and the lock released unless MyPay may hold the file), so 'Rielabora' works; the end of an older
   * execution of the flow, or of one that finished its work, changes nothing.
   */
  async function executionEnded(event: { flowId: string; execution: string; status: string }): Promise<void> {
    const flow = await flows.getFlow(event.flowId);
    if (!flow || !isFlowRunning(flow) || (flow.execution && flow.execution !== event.execution)) return;
    // Stopped while MyPay works on the file it holds: waiting, not failed ('Rielabora' asks MyPay again).
    if (flow.uploadedAt && (flow.stato === 'LOAD_IMPORT' || flow.stato === 'IMPORT_IN_ELAB')) return markFailed(event.flowId, { Error: 'ImportNotDone', Cause: flow.stato });
    await markFailed(event.flowId, { Error: `Execution.${event.status}`, Cause: flowMessages.executionStopped });
  }
}

/** The IUVs of the notices in MyPay's AVVISI ZIP, from its entries' names alone (nothing is inflated). */
function noticeIuvs(zip: Uint8Array | null): Set<string> {
  const iuvs = new Set<string>();
  if (zip) {
    unzipSync(zip, {
      filter: (file) => {
        const iuv = iuvOfNoticeFile(file.name);
        if (iuv) iuvs.add(iuv);
        return false;
      },
    });
  }
  return iuvs;
}

/** A rejected row of MyPay's SCARTI file: its code(s) and text are the row's last two fields ("|CODE|CODE" and "|text|text"). */
function rejectionOf(row: string[]): { code: string; reason: string } {
  const parts = (value: string | undefined) => (value ?? '').split('|').map((part) => part.trim()).filter(Boolean);
  return { code: parts(row.at(-2)).join(', '), reason: parts(row.at(-1)).join('; ') };
}

/** An Italian line for the operator out of a Step Functions error ({ Error, Cause }). */
function describeFailure(error: { Error?: string; Cause?: string } | null): string {
  if (!error) return 'Errore interno durante l’invio.';
  if (error.Error === 'MyPayUnavailable') return 'MyPay non risponde: riprova più tardi con «Rielabora».';
  if (error.Error === 'ImportNotDone') return 'MyPay non ha più il file di questo invio: «Rielabora» lo invia di nuovo.';
  if (error.Error?.startsWith('Execution.')) return flowMessages.executionStopped;
  let cause = error.Cause ?? '';
  try {
    cause = JSON.parse(cause).errorMessage ?? cause;
  } catch {
    // Not JSON: the cause as it is.
  }
  return `Errore interno durante l’invio${cause ? `: ${cause.slice(0, 300)}` : '.'}`;
}

export type FlowUseCases = ReturnType<typeof makeFlowUseCases>;
export type ExportSteps = ReturnType<typeof makeExportSteps>;
