import { CallState } from '../domain/call-limits.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import {
  FLOWS_PAGE_SIZE,
  assertRestartable,
  flowMessages,
  flowStateLabel,
  flowStepLabels,
  isMyPayFailure,
  type FlowFileKind,
} from '../domain/flows.ts';
import type { ExportRequest, Flow } from '../domain/flow-schemas.ts';
import { messages, positionOpsMessages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { FlowRecord } from '../domain/flow-record.ts';
import { resultFileName } from './mypay-result-files.ts';
import type { FlowDeps, FlowRepository } from './ports.ts';

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


/** The flow of an id, or the 404 of a missing one. */
export const requireFlowIn = (flows: FlowRepository) => async (id: string) => (await flows.getFlow(id)) ?? Promise.reject(new NotFoundError(flowMessages.notFound));

/** The operator's side: start an export, follow it, restart it, open its files. */
export function makeFlowUseCases({ flows, configuration, calls, positions, exportFiles, runner, positionsSync, audit, clock, ids }: FlowDeps) {
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
      if (await positions.hasLiveCheckouts(call.id, { mese: request.mese, anno: request.anno }, now())) throw new ConflictError(positionOpsMessages.checkoutLiveMonth);
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
      const pending = await positions.pendingCount({ callId: call.id, mese: request.mese, anno: request.anno, fiscalCode: request.fiscalCode ?? null, flowId: record.id }).catch(async (error: unknown) => {
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

export type FlowUseCases = ReturnType<typeof makeFlowUseCases>;
