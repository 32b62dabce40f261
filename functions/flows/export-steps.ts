import { unzipSync, strToU8, strFromU8 } from 'fflate';
import {
  DEFAULT_IMPORT_MAX_WAIT_MINUTES,
  exportLeaseUntil,
  isFlowRunning,
  flowFileName,
  flowIuf,
  flowMessages,
  isMyPayFailure,
  mypayFailureReason,
  nextImportPollSeconds,
  type FlowFileKind,
} from '../domain/flows.ts';
import { ConflictError } from '../domain/errors.ts';
import { navOfIuv } from '../domain/iuv.ts';
import { noticePdfKey } from '../domain/position-rules.ts';
import { messages } from '../domain/messages.ts';
import { mypayImportZip } from '../adapters/mypay-zip.ts';
import type { ExportPositions, ExportResults } from '../adapters/ports/export.ts';
import { noMetrics } from '../adapters/ports/metrics.ts';
import { mypayCsvLine, mypayCsvLines, type MyPayCsvRow } from '../domain/mypay-csv-format.ts';
import type { FlowRecord } from '../domain/flow-record.ts';
import type { PlatformPosition } from '../domain/payment-platform.ts';
import { noticeIuvs, rejectionOf, resultFileName, rowsOfResultZip } from './mypay-result-files.ts';
import type { ExportStepDeps } from './ports.ts';
import { holdsMyPayRows, requireFlowIn } from './use-cases.ts';

/** Held-back positions kept on the flow item (each a few hundred bytes: far from DynamoDB's 400 KB). */
export const HELD_BACK_KEPT = 200;

/**
 * Rows of MyPay's result files written back per call of the Collect step (the step loops in the state
 * machine until the last slice). Each slice reads the whole month once (the positions are found by IUD),
 * so a slice covers a usual month whole: 10,000 rows are 400 batched writes, seconds, far from the task's
 * timeout now that the notice PDFs stay in their ZIP. Bigger months go in more slices.
 */
export const COLLECT_SLICE = 10_000;

/** ISEEs marked per call of the MarkIsees step (one conditional write each). */
export const ISEE_SLICE = 2500;

/**
 * Positions handed to the platform per call of the Send step when the platform takes them one by one (GPD): at
 * most 10 bulk creates of 100, or 1,000 updates or cancellations one call each (100 s at GPD's 10 calls a
 * second), well within the task's timeout. The step loops in the state machine from the flow's sendCursor.
 */
export const SEND_SLICE = 1000;

/**
 * New rows asked about one by one per call of Send when 'Rielabora' reconciles an import MyPay failed (one or two
 * paaSILImportaDovuto each): 200 at a few hundred ms a call stay well inside the task's timeout.
 */
export const RECONCILE_SLICE = 200;

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
  sendSlice = SEND_SLICE,
  reconcileSlice = RECONCILE_SLICE,
  importMaxWaitMinutes = DEFAULT_IMPORT_MAX_WAIT_MINUTES,
  metrics = noMetrics,
  platform,
}: ExportStepDeps) {
  const requireFlow = requireFlowIn(flows);
  /**
   * The platform takes the positions themselves and answers at once (GPD): no import file, no import to wait
   * for, no result files; Send hands them over in slices and writes the results back itself.
   */
  const direct = platform !== undefined && !platform.capabilities.importFiles;
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
    const { bytes: zip, md5 } = mypayImportZip(zipName, csvOf(stored));
    const zipKey = `flows/${flow.id}/${zipName}`;
    await exportFiles.put(zipKey, zip, 'application/zip');
    await flows.advanceFlow(flow.id, { zipKey, zipName, md5 }, now());
    return { zip, zipName };
  }

  /**
   * The flow's lease on the call's export lock goes on (domain/flows.ts EXPORT_LEASE_MS): every step renews
   * it, so only a run that stopped lets it expire. Another flow holding the lock (this one's lease expired
   * and was taken) stops this one.
   */
  async function keepLease(flow: FlowRecord): Promise<void> {
    if (await flows.renewExportLock(flow.announcement.id, flow.id, exportLeaseUntil(clock.now()))) return;
    const holder = await flows.runningExportOf(flow.announcement.id);
    if (holder && holder !== flow.id) throw new ConflictError(messages.positions.exportRunning);
  }

  /** The flow's positions are all settled: it reads approved, the call is free, the dashboard counts it. */
  async function completed(flow: FlowRecord, fields: Partial<FlowRecord> & { accepted: number }): Promise<void> {
    await flows.advanceFlow(
      flow.id,
      { ...fields, stato: 'IMPORT_ESEGUITO', step: 'COMPLETATO', collectedAt: now(), error: null },
      now(),
    );
    await flows.releaseExportLock(flow.announcement.id, flow.id);
    metrics.count('ExportsCompleted', 1);
    metrics.count('PositionsExported', fields.accepted);
  }

  /** The flow of a step, its lease renewed. */
  async function leasedFlow(flowId: string): Promise<FlowRecord> {
    const flow = await requireFlow(flowId);
    if (isFlowRunning(flow)) await keepLease(flow);
    return flow;
  }

  async function markIseeSlice(flowId: string, slice: number): Promise<{ done: boolean }> {
    const flow = await leasedFlow(flowId);
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
    /**
     * The month generated, then the CSV of its pending positions → the ZIP MyPay expects, with its MD5, in the
     * exports bucket (on GPD the list of positions to send). A month bigger than one call's budget
     * (EXPORT_SLICE_BUDGET, functions/payments) answers `done` false: the state machine calls Prepare again, which
     * plans the month again and goes on where this call stopped, also after a call cut short.
     */
    async prepare(flowId: string): Promise<{ rows: number; done: boolean }> {
      const flow = await leasedFlow(flowId);
      if (flow.zipKey || flow.planKey) return { rows: flow.num, done: true };
      // The call's export lock is this module's: another flow holding it stops this one; holding it, the
      // month's new positions go in batches (no other generation of the call can run).
      const holder = await flows.runningExportOf(flow.announcement.id);
      if (holder && holder !== flowId) throw new ConflictError(messages.positions.exportRunning);
      const request = {
        callId: flow.announcement.id,
        mese: flow.mese,
        anno: flow.anno,
        fiscalCode: flow.fiscalCode,
        flowId,
        underLock: holder === flowId,
      };
      const prepared = direct
        ? await platformExportOf(request, flow.startedBy)
        : await positions.buildExport(request, flow.startedBy);
      if (!prepared.finished) return { rows: 0, done: false };
      const { rows, heldBack = [], iseeIds = [] } = prepared;
      if (heldBack.length) await flows.advanceFlow(flowId, { heldBack: heldBack.slice(0, HELD_BACK_KEPT) }, now());
      // The ISEEs to mark go to the bucket (10,000 ids would not fit in the flow item); MarkIsees marks them.
      const iseeKey = iseeIds.length ? `flows/${flowId}/isees.json` : null;
      if (iseeKey) await exportFiles.put(iseeKey, strToU8(JSON.stringify(iseeIds)), 'application/json');
      if (iseeKey) await flows.advanceFlow(flowId, { iseeKey, iseeCursor: 0 }, now());
      if (rows === 0) {
        if (iseeKey) await markIseeSlice(flowId, Number.MAX_SAFE_INTEGER);
        const error = heldBack.length ? flowMessages.allHeldBack : flowMessages.nothingToSend;
        await flows.advanceFlow(
          flowId,
          { step: 'COMPLETATO', stato: 'IMPORT_ESEGUITO', num: 0, accepted: 0, rejected: 0, error },
          now(),
        );
        // Nothing new for the month: the dialog that started it says so, and the flows page lists no empty
        // 'Flusso approvato' (it would only mislead). A flow that held positions back stays listed with them.
        if (!heldBack.length) await flows.unlistFlow(flowId);
        await flows.releaseExportLock(flow.announcement.id, flowId);
        metrics.count('ExportsCompleted', 1);
        return { rows: 0, done: true };
      }
      if (direct) {
        // The positions to send, their IUVs saved on them already: every slice of Send reads the same list.
        const planKey = `flows/${flowId}/positions.json`;
        await exportFiles.put(
          planKey,
          strToU8(JSON.stringify('positions' in prepared ? prepared.positions : [])),
          'application/json',
        );
        await flows.advanceFlow(flowId, { planKey, sendCursor: 0, num: rows, step: 'INVIO' }, now());
        return { rows, done: true };
      }
      const zipName = flowFileName(codIpa, flowIuf(flowId, flow.attempt ?? 1));
      const { bytes: zip, md5 } = mypayImportZip(zipName, strToU8('csv' in prepared ? prepared.csv : ''));
      const zipKey = `flows/${flowId}/${zipName}`;
      await exportFiles.put(zipKey, zip, 'application/zip');
      await flows.advanceFlow(flowId, { zipKey, zipName, md5, num: rows, step: 'INVIO' }, now());
      return { rows, done: true };
    },

    /**
     * The ISEEs of the month's fees marked as used (they can no longer be deleted), ISEE_SLICE a call:
     * `done` false means the state machine calls the step again; it goes on from the flow's iseeCursor.
     * Marking twice changes nothing (an ISEE already marked is skipped).
     */
    markIsees: (flowId: string) => markIseeSlice(flowId, iseeSlice),

    /**
     * Hands the flow's positions to the platform: MyPay's upload (uploadOf), or GPD's slices (sendSliceOf).
     * `done` false: the state machine calls Send again; `completed`: the platform's answers are written back
     * already (GPD), so there is no import to wait for nor files to collect.
     */
    send: (flowId: string): Promise<SendAnswer> =>
      direct ? sendSliceOf(flowId) : recordingRefusal(flowId, () => uploadOf(flowId)),

    /**
     * MyPay's import state, recorded on the flow: MyPay's error code when it failed the import (the flow's
     * error then says what it means). `waitMore` while MyPay still works on it and the deployment's wait has
     * not passed, and how long to wait before asking again (`waitSeconds`).
     */
    checkImport: (flowId: string) =>
      recordingRefusal(flowId, async (): Promise<{ stato: string; waitMore: boolean; waitSeconds: number }> => {
        const flow = await leasedFlow(flowId);
        if (flow.collectedAt) return { stato: 'IMPORT_ESEGUITO', waitMore: false, waitSeconds: 0 };
        const status = flow.requestToken ? await mypay.importStatus(flow.requestToken) : null;
        const stato = status?.stato ?? 'IMPORT_ERROR_SL';
        const failed = isMyPayFailure(stato);
        if (stato !== flow.stato)
          await flows.advanceFlow(flowId, { stato, ...(failed ? { error: mypayFailureReason(stato) } : {}) }, now());
        const waited = clock.now().getTime() - Date.parse(flow.pollingSince ?? flow.uploadedAt ?? now());
        const working = stato === 'LOAD_IMPORT' || stato === 'IMPORT_IN_ELAB';
        return {
          stato,
          waitMore: working && waited < importMaxWaitMinutes * 60_000,
          waitSeconds: nextImportPollSeconds(waited),
        };
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

  /** GPD's Prepare: the month's pending positions as the port sends them, their IUVs reserved and saved first. */
  async function platformExportOf(
    request: Parameters<ExportPositions['buildExport']>[0],
    actor: FlowRecord['startedBy'],
  ) {
    if (!positions.buildPlatformExport) throw new Error('Export verso la piattaforma non collegato.');
    const prepared = await positions.buildPlatformExport(request, actor);
    return prepared.finished ? { ...prepared, rows: prepared.positions.length, heldBack: [] } : prepared;
  }

  /**
   * GPD's Send: the next slice of the flow's positions (SEND_SLICE, from sendCursor) to the platform, whose answers
   * are final, written back with the same recordResults as MyPay's Collect (IUV and notice number onto each
   * accepted position, the reason onto each refused one). The cursor moves with the slice's counts in one write;
   * a slice retried after a fault or a crash is sent again as it was (same IUV and iupd: GPD reads a create back,
   * an update or invalidate again is the same), so no position is created twice and none is lost.
   */
  async function sendSliceOf(flowId: string): Promise<SendAnswer> {
    const flow = await leasedFlow(flowId);
    if (flow.collectedAt) return { done: true, completed: true };
    if (!flow.planKey) throw new Error('Le posizioni del flusso non sono state preparate.');
    const toSend = JSON.parse(strFromU8(await exportFiles.get(flow.planKey))) as PlatformPosition[];
    const from = flow.sendCursor ?? 0;
    const to = Math.min(toSend.length, from + sendSlice);
    const answer = await platform!.export.submit({
      flowId,
      attempt: flow.attempt ?? 1,
      positions: toSend.slice(from, to),
    });
    if (!answer.results) throw new Error('La piattaforma non ha dato gli esiti dell’invio.');
    const { results } = answer;
    await positions.recordResults(
      { callId: flow.announcement.id, mese: flow.mese, anno: flow.anno, flowId, noticeZip: null },
      results,
    );
    const counts = {
      accepted: (from > 0 ? (flow.accepted ?? 0) : 0) + results.accepted.length,
      rejected: (from > 0 ? (flow.rejected ?? 0) : 0) + results.rejected.length,
      sendCursor: to,
    };
    if (to < toSend.length) {
      await flows.advanceFlow(flowId, counts, now());
      return { done: false, completed: false };
    }
    await completed(flow, { ...counts, uploadedAt: flow.uploadedAt ?? now() });
    return { done: true, completed: true };
  }

  /**
   * MyPay's Send: authorise and upload. The one-use request token is saved BEFORE the upload: after a crash the
   * restart asks MyPay about that token first and uploads again only if MyPay never received the file.
   */
  async function uploadOf(flowId: string): Promise<SendAnswer> {
    const uploaded: SendAnswer = { done: true, completed: false };
    const flow = await leasedFlow(flowId);
    if (flow.uploadedAt) return uploaded;
    if (flow.requestToken && (await mypay.importStatus(flow.requestToken)) !== null) {
      await flows.advanceFlow(flowId, { uploadedAt: now(), pollingSince: now(), step: 'ATTESA_ESITO' }, now());
      return uploaded;
    }
    if (flow.reconcile && !flow.reconcile.doneAt) return reconcileSliceOf(flow);
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
    await flows.advanceFlow(
      flowId,
      { uploadedAt: now(), pollingSince: now(), stato: 'LOAD_IMPORT', step: 'ATTESA_ESITO' },
      now(),
    );
    return uploaded;
  }

  /**
   * 'Rielabora' after MyPay failed an import once its rows were in (domain/flows.ts mayHoldRowsAfter), before the
   * file goes again: which of its rows MyPay holds, so none comes back PAA_IMPORT_IUD_DUPLICATO and no IUV is lost.
   * First what the failed import's own files say (MyPay4 still offers them: the import is IMPORT_ESEGUITO with the
   * code, and its IUV file is whole when only the notices failed); then each new row ('I') they do not settle, one
   * by one through paaSILImportaDovuto, RECONCILE_SLICE a call (the state machine calls Send again). Inserted now:
   * its IUV. PAA_IMPORT_IUD_DUPLICATO: MyPay holds it, with the IUV the row carried, or, when MyPay generated one
   * the portal never learnt, with a new one an 'M' asks it for (DovutoService.importDovuto generates it for an 'M'
   * without IUV; modify_mygov_dovuto puts it in place of the old). Any other refusal is the row's, as in SCARTI.
   * The rows left (changes, cancellations) go again in the file under the attempt's new name; none left ends the
   * flow. Each row is written back as it is settled, so a crash mid-slice asks again and lands the same. A row
   * settled so has no notice in an AVVISI ZIP: the PDF MyPay links with the IUV it generated (urlFileAvviso) is kept
   * where a position's own notice is read (noticePdfKey), so the citizen and the e-mail get MyPay's PDF as for the rest.
   */
  async function reconcileSliceOf(flow: FlowRecord): Promise<SendAnswer> {
    let reconcile = flow.reconcile!;
    const request = {
      callId: flow.announcement.id,
      mese: flow.mese,
      anno: flow.anno,
      flowId: flow.id,
      noticeZip: null,
    };
    const { header, lines } = mypayCsvLines(strFromU8(csvOf(await exportFiles.get(flow.zipKey!))));
    const rows = lines.map(mypayCsvLine);
    if (!reconcile.planKey) {
      const results = await resultsOfFailedImport(reconcile.requestToken);
      await positions.recordResults(request, results);
      const known = [...results.accepted, ...results.rejected].map((row) => row.iud);
      const settled = new Set(known);
      const ask = rows.filter((row) => row.azione === 'I' && !settled.has(row.IUD)).map((row) => row.IUD);
      const planKey = `flows/${flow.id}/reconcile-${flow.attempt ?? 1}.json`;
      await exportFiles.put(planKey, strToU8(JSON.stringify({ known, ask })), 'application/json');
      reconcile = {
        ...reconcile,
        planKey,
        accepted: reconcile.accepted + results.accepted.length,
        rejected: reconcile.rejected + results.rejected.length,
      };
      await flows.advanceFlow(flow.id, { reconcile }, now());
    }
    const plan = JSON.parse(strFromU8(await exportFiles.get(reconcile.planKey!))) as { known: string[]; ask: string[] };
    const byIud = new Map(rows.map((row) => [row.IUD, row]));
    const to = Math.min(plan.ask.length, reconcile.cursor + reconcileSlice);
    const results: ExportResults = { accepted: [], rejected: [] };
    for (const iud of plan.ask.slice(reconcile.cursor, to)) {
      const outcome = await heldByMyPay(byIud.get(iud)!);
      if (!('iuv' in outcome)) {
        results.rejected.push({ iud, ...outcome });
        continue;
      }
      if (outcome.noticeUrl)
        await exportFiles.put(noticePdfKey(iud), await mypay.download(outcome.noticeUrl), 'application/pdf');
      results.accepted.push({ iud, iuv: outcome.iuv, nav: navOfIuv(outcome.iuv), notice: Boolean(outcome.noticeUrl) });
    }
    await positions.recordResults(request, results);
    reconcile = {
      ...reconcile,
      cursor: to,
      accepted: reconcile.accepted + results.accepted.length,
      rejected: reconcile.rejected + results.rejected.length,
    };
    if (to < plan.ask.length) {
      await flows.advanceFlow(flow.id, { reconcile }, now());
      return { done: false, completed: false };
    }
    reconcile = { ...reconcile, doneAt: now() };
    const settled = new Set([...plan.known, ...plan.ask]);
    const left = lines.filter((_, index) => !settled.has(rows[index]!.IUD));
    if (!left.length) {
      await completed(flow, { reconcile, accepted: reconcile.accepted, rejected: reconcile.rejected });
      return { done: true, completed: true };
    }
    const zipName = flowFileName(codIpa, flowIuf(flow.id, flow.attempt ?? 1));
    const { bytes: zip, md5 } = mypayImportZip(zipName, strToU8(`${[header, ...left].join('\r\n')}\r\n`));
    const zipKey = `flows/${flow.id}/${zipName}`;
    await exportFiles.put(zipKey, zip, 'application/zip');
    await flows.advanceFlow(flow.id, { reconcile, zipKey, zipName, md5 }, now());
    return { done: false, completed: false };
  }

  /** The rows a failed import's own files settle: the IUV file's (with their IUV) and the SCARTI's; a file MyPay deleted settles none. */
  async function resultsOfFailedImport(requestToken: string): Promise<ExportResults> {
    const results: ExportResults = { accepted: [], rejected: [] };
    const status = await mypay.importStatus(requestToken);
    const fileAt = async (url: string | null | undefined) => {
      if (!url) return null;
      try {
        return await mypay.download(url);
      } catch (error) {
        if ((error as Error).name === 'MyPayFault') return null;
        throw error;
      }
    };
    const iuvZip = await fileAt(status?.urlFileIUV);
    for (const [iud, iuv] of iuvZip ? rowsOfResultZip(iuvZip) : [])
      if (iud && iuv) results.accepted.push({ iud, iuv, nav: navOfIuv(iuv), notice: false });
    const scartiZip = await fileAt(status?.urlFileScarti);
    for (const row of scartiZip ? rowsOfResultZip(scartiZip) : [])
      if (row[0]) results.rejected.push({ iud: row[0], ...rejectionOf(row) });
    return results;
  }

  /** Whether MyPay holds a new row, and with which IUV (reconcileSliceOf): its IUV, or its refusal. */
  async function heldByMyPay(
    row: MyPayCsvRow,
  ): Promise<{ iuv: string; noticeUrl: string | null } | { code: string; reason: string }> {
    let iuv: string | null;
    let noticeUrl: string | null = null;
    try {
      ({ iuv, noticeUrl = null } = await mypay.importDovuto(row));
      iuv ??= row.codIuv;
    } catch (error) {
      if ((error as Error).name !== 'MyPayFault') throw error;
      const { faultCode, faultString, description } = error as Error & {
        faultCode: string;
        faultString?: string;
        description?: string;
      };
      if (faultCode !== 'PAA_IMPORT_IUD_DUPLICATO')
        return { code: faultCode, reason: description || faultString || faultCode };
      if (row.codIuv) iuv = row.codIuv;
      else ({ iuv, noticeUrl = null } = await mypay.importDovuto({ ...row, azione: 'M', flagGeneraIuv: 'true' }));
    }
    if (!iuv) throw new Error(`MyPay non ha dato lo IUV della posizione ${row.IUD}.`);
    return { iuv, noticeUrl };
  }

  async function collectSliceOf(flowId: string): Promise<{ done: boolean }> {
    const flow = await leasedFlow(flowId);
    if (flow.collectedAt) return { done: true };
    const fetched: Partial<Record<FlowFileKind, Uint8Array>> = {};
    let files = flow.files;
    let cursor = flow.collectCursor ?? null;
    if (cursor === null) {
      const status = await mypay.importStatus(flow.requestToken!);
      if (!status || status.stato !== 'IMPORT_ESEGUITO')
        throw new Error(`Stato del flusso inatteso: ${status?.stato ?? 'sconosciuto'}`);
      const urls: Record<FlowFileKind, string | null | undefined> = {
        avvisi: status.urlFileAvvisi,
        iuv: status.urlFileIUV,
        scarti: status.urlFileScarti,
      };
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
    const fileOf = async (kind: FlowFileKind) =>
      fetched[kind] ?? (files[kind] ? await exportFiles.get(files[kind]!) : null);
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
      rejected: results.rejected.slice(
        Math.max(0, cursor - results.accepted.length),
        Math.max(0, end - results.accepted.length),
      ),
    };
    // The notice PDFs stay in MyPay's AVVISI ZIP as it came: each accepted position is told where its own
    // is, and is served from it on demand (functions/adapters/notice-pdf.ts).
    await positions.recordResults(
      { callId: flow.announcement.id, mese: flow.mese, anno: flow.anno, flowId, noticeZip: files.avvisi },
      slice,
    );
    if (end < results.accepted.length + results.rejected.length) {
      await flows.advanceFlow(flowId, { collectCursor: end }, now());
      return { done: false };
    }
    await completed(flow, {
      files,
      // The rows 'Rielabora' settled before this file went (reconcileSliceOf) count with its own.
      accepted: results.accepted.length + (flow.reconcile?.accepted ?? 0),
      rejected: results.rejected.length + (flow.reconcile?.rejected ?? 0),
      collectCursor: end,
    });
    metrics.count('MyPayRowsRejected', results.rejected.length);
    return { done: true };
  }

  /**
   * The workflow stopped: the flow says why. MyPay's failure or refusal keeps MyPay's code as `stato`
   * ('Errore flusso') with its Italian reason; MyPay still working on the import when the wait ran out
   * suspends the flow (waiting, not failed); anything else is the portal's IMPORT_ERROR_SL ('Errore flusso
   * interno'). The call stays locked if MyPay may hold the file (a restart resumes from it).
   */
  /** The flow failed, or suspended while MyPay still holds the import: `suspended` says which (the state machine ends accordingly). */
  async function markFailed(
    flowId: string,
    error: { Error?: string; Cause?: string } | null,
  ): Promise<{ suspended: boolean }> {
    const flow = await requireFlow(flowId);
    if (flow.step === 'COMPLETATO') return { suspended: false };
    const cause = error?.Error === 'ImportNotDone' ? (error.Cause ?? '') : '';
    if (cause === 'LOAD_IMPORT' || cause === 'IMPORT_IN_ELAB') {
      await flows.updateFlow(flowId, { step: 'SOSPESO', stato: cause, error: flowMessages.stillWaiting }, now());
      await flows.keepExportLock(flow.announcement.id, flowId);
      return { suspended: true };
    }
    const stato = cause && isMyPayFailure(cause) ? cause : isMyPayFailure(flow.stato) ? flow.stato : 'IMPORT_ERROR_SL';
    const reason =
      stato === 'IMPORT_ERROR_SL'
        ? describeFailure(error)
        : stato === flow.stato && flow.error
          ? flow.error
          : mypayFailureReason(stato);
    await flows.updateFlow(flowId, { step: 'ERRORE', stato, error: reason }, now());
    // MyPay may hold the file (a request token) or rows of it: the lock stays with the flow, without expiry, until
    // 'Rielabora'.
    if (!holdsMyPayRows(flow)) await flows.releaseExportLock(flow.announcement.id, flowId);
    else await flows.keepExportLock(flow.announcement.id, flowId);
    metrics.count('ExportsFailed', 1);
    return { suspended: false };
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
    if (flow.uploadedAt && (flow.stato === 'LOAD_IMPORT' || flow.stato === 'IMPORT_IN_ELAB')) {
      await markFailed(event.flowId, { Error: 'ImportNotDone', Cause: flow.stato });
      return;
    }
    await markFailed(event.flowId, { Error: `Execution.${event.status}`, Cause: flowMessages.executionStopped });
  }
}

/** The CSV inside the flow's ZIP. */
function csvOf(zip: Uint8Array): Uint8Array {
  const csv = Object.entries(unzipSync(zip)).find(([name]) => name.toLowerCase().endsWith('.csv'))?.[1];
  if (!csv) throw new Error('Il file del flusso non contiene il CSV.');
  return csv;
}

/** An Italian line for the operator out of a Step Functions error ({ Error, Cause }). */
function describeFailure(error: { Error?: string; Cause?: string } | null): string {
  if (!error) return 'Errore interno durante l’invio.';
  if (error.Error === 'MyPayUnavailable') return 'MyPay non risponde: riprova più tardi con «Rielabora».';
  if (error.Error === 'GpdUnavailable') return 'pagoPA non risponde: riprova più tardi con «Rielabora».';
  if (error.Error === 'ImportNotDone')
    return 'MyPay non ha più il file di questo invio: «Rielabora» lo invia di nuovo.';
  // A step cut at its function's timeout (Lambda.Unknown, "Task timed out after …"): every step resumes.
  if (error.Error?.startsWith('Execution.') || error.Error === 'Lambda.Unknown') return flowMessages.executionStopped;
  let cause = error.Cause ?? '';
  try {
    cause = JSON.parse(cause).errorMessage ?? cause;
  } catch {
    // Not JSON: the cause as it is.
  }
  return `Errore interno durante l’invio${cause ? `: ${cause.slice(0, 300)}` : '.'}`;
}

/** What Send answers the state machine (state-machine.ts IsSent). */
export interface SendAnswer {
  done: boolean;
  completed: boolean;
}

export type ExportSteps = ReturnType<typeof makeExportSteps>;
