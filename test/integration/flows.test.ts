import { DescribeExecutionCommand, SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { isValidIuv } from '../../functions/domain/iuv.ts';
import { gpdCallIupd, gpdIuv, gpdPaymentPosition, iudOfIupd, isCouncilIuv } from '../../functions/domain/gpd.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import {
  approvedSubscriber,
  mypayConfiguration,
  settledFlow,
  storedPositions,
  storeRawConfiguration,
} from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { renderFirstPage } from '../support/pdf-render.ts';
import { flowMessages } from '../../functions/domain/flows.ts';
import { FUNCTION_TIMEOUT_PATH } from '../../lib/local/step-functions.ts';
import { billedMonth } from '../support/months.ts';

/**
 * 'Invia a MyPay' over the real local stack: the flows API starts the export through the local Step
 * Functions endpoint, the same state machine runs the task function, which talks to the MyPay simulator.
 * Faults are switched on in the simulator; every test checks what the operator sees (the flow) and what
 * the money depends on (each position exported once with its IUV, or failed with its reason).
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let delegate: Client;
let citizen: Client;
const month = billedMonth();
const billed = month.period;
/**
 * The stack's payment platform (issue 37): the project integration-gpd runs this file again on pagoPA GPD. The
 * operator's side is the same; what only MyPay has (its import, its result files, its refusals) is asserted on MyPay,
 * and GPD's own outcome (each position published with the IUV the portal saved) on GPD.
 */
const onGpd = process.env.PAYMENT_PLATFORM === 'gpd';
const simulator = () => (onGpd ? inject('gpdUrl')! : inject('myPayEndpoint').replace(/\/pa\/services.*$/, ''));
const approvedLabel = onGpd ? 'Posizioni pubblicate su pagoPA' : 'Flusso approvato';

async function admin(action: string, body: object) {
  const response = await fetch(`${simulator()}/admin/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}
async function simulatorState() {
  return (await (await fetch(`${simulator()}/admin/state`)).json()) as {
    imports: Record<string, { fileName?: string; state: string; requestToken: string; rejected?: number }>;
  };
}
/** The GPD simulator's switches as they are now (a fault's count goes down as it is met). */
const gpdSwitches = async () =>
  (
    (await (await fetch(`${simulator()}/admin/state`)).json()) as {
      switches: { faults: unknown[]; rateLimited: number };
    }
  ).switches;

/** Cuts a task function's invocations after `seconds` on the local Step Functions (null: its deployed timeout). */
async function functionTimeout(name: string, seconds: number | null) {
  const response = await fetch(`${inject('stepFunctionsEndpoint')}${FUNCTION_TIMEOUT_PATH}`, {
    method: 'POST',
    body: JSON.stringify({ function: name, seconds }),
  });
  expect(response.status).toBe(200);
}

/** What MyPay holds of these IUDs (its DA_PAGARE positions): IUD and IUV. */
async function mypayHeld(iuds: readonly string[]) {
  const { positions } = (await (await fetch(`${simulator()}/admin/state`)).json()) as {
    positions: Record<string, { iud: string; iuv: string; status: string }>;
  };
  return Object.values(positions)
    .filter((p) => iuds.includes(p.iud) && p.status === 'DA_PAGARE')
    .map((p) => ({ iud: p.iud, iuv: p.iuv }));
}
const importsOf = async (flowId: string) =>
  Object.values((await simulatorState()).imports).filter((i) => i.fileName?.includes(flowId));

/** What GPD holds of these positions (by the IUD each iupd names): state, IUV, amount. */
async function gpdHeld(iuds: readonly string[]) {
  const state = (await (await fetch(`${simulator()}/admin/state`)).json()) as {
    positions: Record<string, { iupd: string; status: string; paymentOption: { iuv: string; amount: number }[] }>;
  };
  const wanted = new Set(iuds);
  return Object.values(state.positions)
    .filter((p) => wanted.has(iudOfIupd(p.iupd)?.iud ?? ''))
    .map((p) => ({
      iud: iudOfIupd(p.iupd)!.iud,
      status: p.status,
      iuv: p.paymentOption[0]!.iuv,
      amount: p.paymentOption[0]!.amount,
    }));
}

/**
 * Each position sent exactly once, as the operator's flow says: on MyPay one import of the flow's file; on GPD each
 * accepted position published once (VALID) with the IUV the portal saved on it.
 */
async function sentOnce(flowId: string, callId: string) {
  if (!onGpd) return expect(await importsOf(flowId)).toHaveLength(1);
  const exported = (await positionsOf(callId)).filter((p) => p.statoExport === 'ESPORTATA');
  const held = await gpdHeld(exported.map((p) => p.iud));
  expect(held.map((h) => [h.iud, h.status, h.iuv]).sort()).toEqual(
    exported.map((p) => [p.iud, 'VALID', p.codIuv]).sort(),
  );
}

/**
 * GPD already holds a position of this IUD that cannot take the portal's (created elsewhere with another amount,
 * then paid outside the portal): the portal's create meets a 409, reads it back, finds it different and refuses it.
 */
async function gpdHoldsPaid(callId: string, iud: string) {
  const org = process.env.GPD_ORGANIZATION_FISCAL_CODE!;
  const body = gpdPaymentPosition(
    {
      iud,
      // The iupd the portal's export will create it under (gpdCallIupd): the create meets this position's 409.
      iupd: gpdCallIupd(callId, iud),
      iuv: gpdIuv(process.env.GPD_SEGREGATION_CODE!, 9_000_000_000_000 + Math.floor(Math.random() * 1e9)),
      fiscalCode: 'RSSMRA80A01H501U',
      fullName: 'Altro Debitore',
      amountCents: 1,
      description: 'Posizione creata fuori dal portale',
      dueDay: '2099-12-31',
    },
    {
      fiscalCode: org,
      companyName: process.env.GPD_COMPANY_NAME!,
      iban: process.env.GPD_IBAN!,
      taxonomyCode: process.env.GPD_TAXONOMY_CODE!,
    },
  );
  const created = await fetch(
    `${simulator()}/gpd/debt-positions-service/v1/organizations/${org}/debtpositions?toPublish=true`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'ocp-apim-subscription-key': process.env.GPD_API_KEY! },
      body: JSON.stringify(body),
    },
  );
  expect(created.status).toBe(201);
  await admin('paid', { iupds: [body.iupd] });
}

beforeAll(async () => {
  operator = await as('operator');
  delegate = await as('delegate');
  citizen = await as('citizen');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
beforeEach(() => admin('reset', {}));
afterAll(() => admin('reset', {}));

/** An open call with three approved citizens whose fee is above zero (7,20 €/h). */
async function callWithThreeDue() {
  const { call } = await openCall(operator);
  const people = [];
  for (const lastName of ['Rossi', 'Bianchi', 'Verdi'])
    people.push(await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 }));
  return { call, people };
}

/** Waits until the flow stops moving (completed or stopped on an error). */
const settled = (flowId: string, timeoutMs = 25_000) => settledFlow(operator, flowId, { timeoutMs });

/** Waits until the flow stops moving or is suspended (waiting for MyPay). */
const settledOrSuspended = (flowId: string, timeoutMs = 40_000) =>
  settledFlow(operator, flowId, { timeoutMs, orSuspended: true });

/** Every position of the month: each exported exactly once with a valid IUV, or failed with its reason. */
async function positionsOf(callId: string) {
  return (await storedPositions(callId, month.key)).map((p) => ({
    iud: p.iud as string,
    fiscalCode: p.fiscalCode as string,
    codIuv: p.codIuv as string | null,
    nav: p.nav as string | null,
    statoExport: p.statoExport as string,
    lastExportError: p.lastExportError as string | null,
  }));
}

/** The text of the notice PDF the operator opens ('Avviso PDF') on a citizen's record; null when none is offered. */
async function noticeText(userId: string, iud: string): Promise<string | null> {
  const { json } = await operator.get(`/api/users/${userId}/positions`);
  const item = (json.items as { iud: string; noticeUrl: string | null }[]).find((p) => p.iud === iud);
  if (!item?.noticeUrl) return null;
  const pdf = new Uint8Array(await (await fetch(item.noticeUrl)).arrayBuffer());
  return (await renderFirstPage(pdf, 0)).text;
}

describe('Invia a MyPay', () => {
  it('exports the month: IUV and notice number on each accepted position, the rejected row with its reason, files to open', async () => {
    const { call, people } = await callWithThreeDue();
    const rejectedCf = people[1]!.fiscalCode;
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).json.created).toBe(3);
    const positions0 = await positionsOf(call.id);
    // The platform is told to refuse one of the three: MyPay rejects its row; GPD already holds a paid position of it.
    const refusedIud = positions0.find((p) => p.fiscalCode === rejectedCf)!.iud;
    if (onGpd) await gpdHoldsPaid(call.id, refusedIud);
    else await admin('reject', { iuds: [refusedIud] });
    const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ step: 'PREPARAZIONE', statoLabel: 'In preparazione', ...billed });

    const flow = await settled(started.json.id);
    expect(flow).toMatchObject({
      step: 'COMPLETATO',
      stato: 'IMPORT_ESEGUITO',
      statoLabel: approvedLabel,
      num: 3,
      accepted: 2,
      rejected: 1,
      available: true,
    });
    const positions = await positionsOf(call.id);
    for (const p of positions.filter((p) => p.fiscalCode !== rejectedCf)) {
      expect(p.statoExport).toBe('ESPORTATA');
      expect(isValidIuv(p.codIuv!)).toBe(true);
      if (onGpd) expect(isCouncilIuv(p.codIuv!, process.env.GPD_SEGREGATION_CODE!)).toBe(true);
      expect(p.nav).toBe(`3${p.codIuv}`);
    }
    expect(positions.find((p) => p.fiscalCode === rejectedCf)).toMatchObject({
      codIuv: null,
      statoExport: 'ERRORE',
      lastExportError: expect.stringMatching(/\S/),
    });
    await sentOnce(started.json.id, call.id);

    const list = await operator.get(`/api/flows?descrizione=${encodeURIComponent(call.name.slice(-6))}`);
    expect(list.json.items.map((f: { id: string }) => f.id)).toContain(flow.id);
    // The flows page learns the platform from the list: its title, and whether there are result files to link.
    expect(list.json.platform).toMatchObject({
      name: onGpd ? 'gpd' : 'mypay',
      capabilities: { importFiles: !onGpd, publication: onGpd },
    });
    if (onGpd) {
      // No result files on GPD: the positions themselves are published.
      expect((await operator.get(`/api/flows/${flow.id}/files/iuv`)).status).toBe(404);
      expect(positions.find((p) => p.fiscalCode === rejectedCf)!.lastExportError).toContain('pagoPA');
    } else
      for (const kind of ['iuv', 'scarti', 'avvisi']) {
        const link = await operator.get(`/api/flows/${flow.id}/files/${kind}`);
        expect(link.status).toBe(200);
        expect(link.json.url).toMatch(/X-Amz-Expires=300/);
        const zip = new Uint8Array(await (await fetch(link.json.url)).arrayBuffer());
        expect(Object.keys(unzipSync(zip)).length).toBeGreaterThan(0);
      }
    const audit = await localTable().auditOf('flow', flow.id);
    expect(audit[0]).toMatchObject({ action: 'create', who: { fiscalCode: 'BNCLRA79H61F205F' } });

    // The month again: only the refused one goes, and it is accepted this time (GPD: the paid one is gone).
    await admin('reset', onGpd ? { state: true } : {});
    const again = await operator.post(`/api/calls/${call.id}/exports`, billed);
    expect(await settled(again.json.id)).toMatchObject({ num: 1, accepted: 1, rejected: 0 });
    expect((await positionsOf(call.id)).every((p) => p.statoExport === 'ESPORTATA' && isValidIuv(p.codIuv!))).toBe(
      true,
    );
  });

  it.each(
    onGpd
      ? [
          ['bulk-create', '5xx', 2],
          // GPD created them and the answer never came: the retry meets 409, reads each back, finds it the same.
          ['bulk-create', 'lost-answer', 1],
          ['get', '5xx', 2],
          // More than the client's own retries: the state machine retries the step (GpdUnavailable).
          ['bulk-create', '5xx', 5],
          // No answer within GPD_TIMEOUT_MS (10 s): GPD did nothing, the client tries again.
          ['bulk-create', 'timeout', 1],
        ]
      : [
          ['paaSILAutorizzaImportFlusso', '5xx', 2],
          ['upload', '5xx', 2],
          ['paaSILChiediStatoImportFlusso', '5xx', 2],
          ['download', '5xx', 2],
          ['upload', 'lost-answer', 2],
        ],
  )('%s answering %s %i times: retried, sent once, every position exported once', async (operation, kind, times) => {
    const { call } = await callWithThreeDue();
    // A lost answer of a create is seen only by a create that follows it: the month's positions are made first.
    if (operation === 'get') await admin('faults', { operation: 'bulk-create', kind: 'lost-answer', times: 1 });
    await admin('faults', { operation, kind, times });
    const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
    expect(await settled(started.json.id)).toMatchObject({ step: 'COMPLETATO', accepted: 3, rejected: 0 });
    await sentOnce(started.json.id, call.id);
    const positions = await positionsOf(call.id);
    expect(positions.every((p) => p.statoExport === 'ESPORTATA' && isValidIuv(p.codIuv!))).toBe(true);
    expect(new Set(positions.map((p) => p.codIuv)).size).toBe(3);
    // Every fault the switch was given met the export.
    if (onGpd) expect((await gpdSwitches()).faults).toEqual([]);
  });

  it.runIf(onGpd)(
    'GPD’s call quota spent by another system of the council (APIM’s 429 without a body, three times): waited out, sent once',
    async () => {
      const { call } = await callWithThreeDue();
      await admin('rate-limited', { times: 3 });
      const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
      expect(await settled(started.json.id)).toMatchObject({ step: 'COMPLETATO', accepted: 3, rejected: 0 });
      await sentOnce(started.json.id, call.id);
      // The three 429s were answered to the export, which waited and went on.
      expect((await gpdSwitches()).rateLimited).toBe(0);
    },
  );

  it('the platform down for good: "Errore flusso interno" with the reason; Rielabora finishes it without sending twice', async () => {
    const { call } = await callWithThreeDue();
    await admin(
      'faults',
      onGpd
        ? { operation: 'bulk-create', kind: '5xx', times: 'always' }
        : { operation: 'paaSILChiediStatoImportFlusso', kind: '5xx', times: 'always' },
    );
    const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
    const failed = await settled(started.json.id, 60_000);
    expect(failed).toMatchObject({ step: 'ERRORE', stato: 'IMPORT_ERROR_SL', statoLabel: 'Errore flusso interno' });
    expect(failed.error).toContain(onGpd ? 'pagoPA non risponde' : 'MyPay non risponde');
    // MyPay may hold the file: the call stays locked until Rielabora. GPD answered nothing: the call is free again,
    // and the IUVs the flow saved stay on its positions.
    if (!onGpd) {
      expect((await operator.post(`/api/calls/${call.id}/exports`, billed)).status).toBe(409);
      expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).status).toBe(409);
    }
    const reserved = onGpd ? (await storedPositions(call.id, month.key)).map((p) => p.reservedIuv) : [];
    if (onGpd) expect(reserved.every((iuv) => typeof iuv === 'string' && isValidIuv(iuv as string))).toBe(true);

    await admin('reset', {});
    const restarted = await operator.post(`/api/flows/${failed.id}/restart`, {});
    expect(restarted.status).toBe(200);
    expect(await settled(failed.id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    await sentOnce(failed.id, call.id);
    // Rielabora sent the IUVs saved before the first attempt: none was reserved again.
    if (onGpd) expect((await positionsOf(call.id)).map((p) => p.codIuv).sort()).toEqual(reserved.sort());
    expect((await positionsOf(call.id)).every((p) => p.statoExport === 'ESPORTATA')).toBe(true);
    expect((await operator.post(`/api/flows/${failed.id}/restart`, {})).status).toBe(409);
  });

  it.skipIf(onGpd).each([
    ['PAA_IMPORT_NO_MATCH_MD5', 'l’impronta MD5 non corrisponde'],
    ['PAA_IMPORT_FLUSSO_DUPLICATO', 'MyPay ha già caricato un flusso con questo identificativo'],
  ])(
    'MyPay failing the import with %s: "Errore flusso" with its meaning, no code; Rielabora sends it with a new token, IUF and ZIP name (MyPay4 FlussoService, FlussoDao)',
    async (code, meaning) => {
      const { call } = await callWithThreeDue();
      await admin('import', { mode: 'failed', code, times: 1 });
      const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
      const failed = await settled(started.json.id);
      expect(failed).toMatchObject({ step: 'ERRORE', stato: code, statoLabel: 'Errore flusso' });
      expect(failed.error).toContain(meaning);
      expect(failed.error).not.toMatch(/PAA_|IMPORT_/);
      expect((await positionsOf(call.id)).every((p) => p.codIuv === null)).toBe(true);
      expect((await operator.post(`/api/flows/${started.json.id}/restart`, {})).status).toBe(200);
      const done = await settled(started.json.id);
      expect(done, JSON.stringify(await positionsOf(call.id))).toMatchObject({
        step: 'COMPLETATO',
        accepted: 3,
        error: null,
      });
      const imports = await importsOf(started.json.id);
      expect(imports.map((i) => i.fileName).sort()).toEqual([
        `C_DEMO-${started.json.id}-1_3.zip`,
        `C_DEMO-${started.json.id}_2-1_3.zip`,
      ]);
      expect(new Set(imports.map((i) => i.requestToken)).size).toBe(2);
    },
  );

  it.skipIf(onGpd).each([
    ['avvisi', 'its IUV file whole: every row settled from it'],
    ['iuv', 'its IUV file deleted: every row asked one by one'],
    ['righe', 'the first two rows in, the third never read'],
  ])(
    'MyPay failing the import with PAA_IMPORT_ERROR after inserting rows (%s: %s): Rielabora finds which rows MyPay holds; none comes back PAA_IMPORT_IUD_DUPLICATO and each position gets the IUV MyPay holds (MyPay4 ImportFlussoTaskService.java:873-981)',
    async (stage) => {
      const { call, people } = await callWithThreeDue();
      await admin('import', { mode: 'failed', code: 'PAA_IMPORT_ERROR', stage, afterRows: 2, times: 1 });
      const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
      const failed = await settled(started.json.id);
      expect(failed).toMatchObject({ step: 'ERRORE', stato: 'PAA_IMPORT_ERROR', statoLabel: 'Errore flusso' });
      const iuds = (await positionsOf(call.id)).map((p) => p.iud);
      // As MyPay4 does, the failed import left its rows in.
      const heldBefore = await mypayHeld(iuds);
      expect(heldBefore).toHaveLength(stage === 'righe' ? 2 : 3);

      expect((await operator.post(`/api/flows/${started.json.id}/restart`, {})).status).toBe(200);
      const done = await settled(started.json.id);
      const positions = await positionsOf(call.id);
      expect(done, JSON.stringify(positions)).toMatchObject({
        step: 'COMPLETATO',
        stato: 'IMPORT_ESEGUITO',
        accepted: 3,
        rejected: 0,
        error: null,
      });
      // Each position exported once, with the IUV MyPay holds for its IUD, and no row refused as a duplicate.
      const held = await mypayHeld(iuds);
      expect(held).toHaveLength(3);
      expect(positions.map((p) => [p.iud, p.statoExport, p.codIuv, p.lastExportError]).sort()).toEqual(
        held.map((h) => [h.iud, 'ESPORTATA', h.iuv, null]).sort(),
      );
      expect(positions.every((p) => isValidIuv(p.codIuv!))).toBe(true);
      expect((await importsOf(started.json.id)).every((i) => !i.rejected)).toBe(true);
      // Rows settled one by one (paaSILImportaDovuto) are in no AVVISI ZIP: the operator still opens MyPay's notice
      // for each, the one for its IUV, as for a row the import settled. (With 'avvisi' the failed import made none.)
      // The citizen's list is read through an index, which shows the export's write a moment later.
      if (stage !== 'avvisi')
        for (const position of positions) {
          const userId = people.find((p) => p.fiscalCode === position.fiscalCode)!.userId;
          await expect
            .poll(() => noticeText(userId, position.iud), { message: position.iud })
            .toContain(`IUV ${position.codIuv}`);
        }
    },
  );

  it.skipIf(onGpd)(
    'a step cut at its function’s timeout, as Lambda cuts it, stops the flow with the reason in Italian; Rielabora resumes it and every position is exported once with its IUV',
    async () => {
      const { call } = await callWithThreeDue();
      // FlowTask is cut after 2 s instead of its deployed 300; MyPay holds the result file's download past that.
      await functionTimeout('FlowTask', 2);
      await admin('faults', { operation: 'download', kind: 'timeout', times: 1 });
      const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
      let failed;
      try {
        failed = await settled(started.json.id, 60_000);
      } finally {
        await functionTimeout('FlowTask', null);
      }
      expect(failed).toMatchObject({
        step: 'ERRORE',
        stato: 'IMPORT_ERROR_SL',
        statoLabel: 'Errore flusso interno',
        error: flowMessages.executionStopped,
      });
      expect((await positionsOf(call.id)).every((p) => p.codIuv === null)).toBe(true);

      expect((await operator.post(`/api/flows/${started.json.id}/restart`, {})).status).toBe(200);
      const done = await settled(started.json.id);
      expect(done).toMatchObject({ step: 'COMPLETATO', accepted: 3, rejected: 0, error: null });
      await sentOnce(started.json.id, call.id);
      const positions = await positionsOf(call.id);
      const held = await mypayHeld(positions.map((p) => p.iud));
      expect(positions.map((p) => [p.iud, p.statoExport, p.codIuv]).sort()).toEqual(
        held.map((h) => [h.iud, 'ESPORTATA', h.iuv]).sort(),
      );
    },
  );

  it.skipIf(onGpd)(
    'a reused request token is refused by MyPay: "Errore flusso" with the reason in Italian, and Rielabora sends it with a fresh token',
    async () => {
      const { call } = await callWithThreeDue();
      await admin('reuse-token', { times: 1 });
      const first = await operator.post(`/api/calls/${call.id}/exports`, billed);
      const settledFirst = await settled(first.json.id);
      expect(settledFirst).toMatchObject({ step: 'ERRORE', statoLabel: 'Errore flusso' });
      expect(settledFirst.error).toBe(
        'MyPay ha rifiutato l’invio: l’autorizzazione ricevuta era già stata usata. «Rielabora» ne chiede una nuova e invia il file di nuovo.',
      );
      await operator.post(`/api/flows/${first.json.id}/restart`, {});
      expect(await settled(first.json.id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
      const positions = await positionsOf(call.id);
      expect(new Set(positions.map((p) => p.codIuv)).size).toBe(3);
    },
  );

  it.skipIf(onGpd)(
    'an import MyPay keeps in IMPORT_IN_ELAB (GPD) reads as waiting, then suspended, never failed; Rielabora collects it without sending again',
    async () => {
      const { call } = await callWithThreeDue();
      await admin('import', { mode: 'stuck', times: 1 });
      const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
      const id = started.json.id as string;
      const until = Date.now() + 20_000;
      let seenWaiting = false;
      for (;;) {
        const flow = (await operator.get(`/api/flows/${id}`)).json;
        if (flow.stato === 'IMPORT_IN_ELAB' && flow.step === 'ATTESA_ESITO') seenWaiting = true;
        if (flow.step === 'SOSPESO' || flow.step === 'ERRORE' || flow.step === 'COMPLETATO' || Date.now() > until)
          break;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect(seenWaiting).toBe(true);
      // The wait set for this stack (MYPAY_IMPORT_MAX_WAIT_MINUTES) has passed: suspended, its badge still MyPay's state.
      const waiting = await settledOrSuspended(id);
      expect(waiting).toMatchObject({
        step: 'SOSPESO',
        stato: 'IMPORT_IN_ELAB',
        statoLabel: 'In elaborazione...',
        stepLabel: 'In attesa dell’esito di MyPay',
      });
      // MyPay holds the file: the call stays locked, the positions unchanged.
      expect((await operator.post(`/api/calls/${call.id}/positions/generate`, billed)).status).toBe(409);
      await admin('import', { mode: 'release' });
      expect((await operator.post(`/api/flows/${id}/restart`, {})).status).toBe(200);
      expect(await settled(id, 45_000)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
      expect(await importsOf(id)).toHaveLength(1);
    },
    90_000,
  );

  it('an execution stopped outside any Catch (StopExecution) fails the flow cleanly: the call is free and Rielabora works', async () => {
    const { call } = await callWithThreeDue();
    // The platform down: the flow waits in the state machine's retries while the execution is stopped.
    await admin(
      'faults',
      onGpd
        ? { operation: 'bulk-create', kind: '5xx', times: 'always' }
        : { operation: 'paaSILAutorizzaImportFlusso', kind: '5xx', times: 'always' },
    );
    const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
    const id = started.json.id as string;
    const execution = async () => (await localTable().item(keys.flow(id)))?.execution as string | undefined;
    await expect.poll(execution, { timeout: 10_000 }).toMatch(/execution/);
    const sfn = new SFNClient({
      endpoint: inject('stepFunctionsEndpoint'),
      region: 'eu-south-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    await sfn.send(new StopExecutionCommand({ executionArn: (await execution())! }));
    await expect
      .poll(async () => (await sfn.send(new DescribeExecutionCommand({ executionArn: (await execution())! }))).status, {
        timeout: 10_000,
      })
      .toBe('ABORTED');
    const failed = await settled(id);
    expect(failed).toMatchObject({ step: 'ERRORE', stato: 'IMPORT_ERROR_SL', statoLabel: 'Errore flusso interno' });
    expect(failed.error).toContain('«Rielabora» lo riprende');
    await admin('reset', {});
    expect((await operator.post(`/api/flows/${id}/restart`, {})).status).toBe(200);
    expect(await settled(id, 45_000)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    await sentOnce(id, call.id);
  }, 90_000);

  it.skipIf(onGpd)(
    'holds back a citizen MyPay would refuse (civic number not ASCII) or whose stored address would run as a formula; the others go',
    async () => {
      const { call, people } = await callWithThreeDue();
      const [civic, formula] = people;
      const user = async (userId: string) => (await localTable().item(keys.user(userId)))!;
      await localTable().putItem({ ...(await user(civic!.userId)), addressNumber: '12°' });
      await localTable().putItem({
        ...(await user(formula!.userId)),
        address: '=HYPERLINK("http://evil.example","x")',
      });
      const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
      const flow = await settled(started.json.id);
      expect(flow).toMatchObject({ step: 'COMPLETATO', num: 1, accepted: 1 });
      expect(flow.heldBack.map((h: { fiscalCode: string; reason: string }) => [h.fiscalCode, h.reason]).sort()).toEqual(
        [
          [
            civic!.fiscalCode,
            'il numero civico “12°” non è accettato da MyPay (solo caratteri senza accenti né simboli speciali, al massimo 16)',
          ],
          [formula!.fiscalCode, 'il campo indirizzo inizia con =, +, -, @, una tabulazione o un a capo'],
        ].sort(),
      );
      const positions = await positionsOf(call.id);
      expect(positions.filter((p) => p.statoExport === 'ESPORTATA').map((p) => p.fiscalCode)).toEqual([
        people[2]!.fiscalCode,
      ]);
    },
  );

  it('the single payment sends one citizen of the month', async () => {
    const { call, people } = await callWithThreeDue();
    const one = await operator.post(`/api/calls/${call.id}/exports`, {
      ...billed,
      fiscalCode: people[2]!.fiscalCode,
    });
    expect(await settled(one.json.id)).toMatchObject({ num: 1, accepted: 1, fiscalCode: people[2]!.fiscalCode });
    const positions = await positionsOf(call.id);
    expect(positions.filter((p) => p.statoExport === 'ESPORTATA').map((p) => p.fiscalCode)).toEqual([
      people[2]!.fiscalCode,
    ]);
  });
});

describe('flows: who and what', () => {
  it('refuses delegates and citizens (403) on every flows route', async () => {
    const { call } = await openCall(operator);
    for (const client of [delegate, citizen]) {
      expect((await client.post(`/api/calls/${call.id}/exports`, billed)).status).toBe(403);
      expect((await client.get('/api/flows')).status).toBe(403);
      expect((await client.get('/api/flows/x')).status).toBe(403);
      expect((await client.post('/api/flows/x/restart', {})).status).toBe(403);
      expect((await client.get('/api/flows/x/files/iuv')).status).toBe(403);
    }
  });

  it('answers bad input with an Italian 400/404 and starts nothing', async () => {
    const { call } = await openCall(operator);
    const before = (await operator.get('/api/flows')).json.items.length;
    expect((await operator.post(`/api/calls/${call.id}/exports`, { mese: 13, anno: billed.anno })).json.detail).toBe(
      'Il mese non è valido.',
    );
    expect((await operator.post(`/api/calls/${call.id}/exports`, { mese: 1, anno: 'duemila' })).status).toBe(400);
    expect((await operator.post(`/api/calls/${call.id}/exports`, { ...billed, fiscalCode: 'NONVALIDO' })).status).toBe(
      400,
    );
    expect((await operator.post('/api/calls/nope/exports', billed)).status).toBe(404);
    expect((await operator.get('/api/flows/nope')).json.detail).toBe('Il flusso richiesto non esiste.');
    expect((await operator.get('/api/flows/nope/files/pdf')).status).toBe(400);
    if (!onGpd) {
      await storeRawConfiguration({ ...mypayConfiguration, tipoDovuto: '' });
      const incomplete = await operator.post(`/api/calls/${call.id}/exports`, billed);
      expect(incomplete.status).toBe(400);
      expect(incomplete.json.detail).toMatch(/Configurazione MyPay incompleta/);
      expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
    }
    expect((await operator.get('/api/flows')).json.items.length).toBe(before);
  });

  it.skipIf(!onGpd)(
    'on pagoPA the export needs the council’s pagoPA settings, not MyPay’s configuration page: sent with that page empty',
    async () => {
      await storeRawConfiguration(null);
      try {
        const { call } = await callWithThreeDue();
        const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
        expect(started.status).toBe(201);
        expect(await settled(started.json.id)).toMatchObject({ step: 'COMPLETATO', accepted: 3, rejected: 0 });
        const sent = await positionsOf(call.id);
        expect(sent.every((p) => p.statoExport === 'ESPORTATA' && p.nav)).toBe(true);
      } finally {
        expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
      }
    },
  );

  it('a month with nothing new to send: the route only starts the work, whose flow says so and is not listed among the flows', async () => {
    const { call } = await openCall(operator);
    const before = (await operator.get(`/api/flows?descrizione=${encodeURIComponent(call.name)}`)).json.items.length;
    const nothing = await operator.post(`/api/calls/${call.id}/exports`, billed);
    expect(nothing.status).toBe(201);
    expect(await settled(nothing.json.id)).toMatchObject({
      step: 'COMPLETATO',
      num: 0,
      error: 'Nessuna posizione da inviare per questo mese.',
    });
    // A month already sent whole: nothing new either.
    const { call: sent } = await callWithThreeDue();
    expect(await settled((await operator.post(`/api/calls/${sent.id}/exports`, billed)).json.id)).toMatchObject({
      step: 'COMPLETATO',
      accepted: 3,
    });
    expect(await settled((await operator.post(`/api/calls/${sent.id}/exports`, billed)).json.id)).toMatchObject({
      num: 0,
      error: 'Nessuna posizione da inviare per questo mese.',
    });
    expect((await operator.get(`/api/flows?descrizione=${encodeURIComponent(call.name)}`)).json.items.length).toBe(
      before,
    );
    expect((await operator.get(`/api/flows?descrizione=${encodeURIComponent(sent.name)}`)).json.items).toHaveLength(1);
    // …and the call is free: nothing was left locked.
    expect((await operator.post(`/api/calls/${call.id}/positions/generate`, billed)).status).toBe(200);
  });
});
