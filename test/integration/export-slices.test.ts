import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_TIMEOUT_SECONDS, type FlowTaskStep } from '../../functions/flows/state-machine.ts';
import { invocationTimedOut } from '../../lib/local/api-server.ts';
import { iudOfIupd } from '../../functions/domain/gpd.ts';
import { as } from '../support/api.ts';
import { localTable } from '../support/dynamo.ts';
import { gpdIupdOf, onGpd } from '../support/gpd.ts';
import { billedMonth } from '../support/months.ts';
import { callWithSubscribers, operatorWithMyPay, storedPositions } from '../support/positions.ts';
import { operatorActor as actor } from '../support/events.ts';
import { inject } from '../support/stack-context.ts';

/**
 * The export's Prepare of a month bigger than one call (issue 37: at 10,000 positions under load it ran past the task
 * function's 300 s). The task function's own steps (functions/flows/export-steps.ts, wired as functions/entry/flow-task*.ts
 * wire them, on the stack's DynamoDB, S3 and platform simulator) with a budget of three positions a call, driven step by
 * step as the state machine drives them. The second call is cut while it writes (its function's timeout): one position
 * of its batch reaches DynamoDB, the rest never does. The flow fails as the Catch makes it fail, 'Rielabora' starts it
 * again, and Prepare goes on from what is stored. The integration-gpd project runs this file again on pagoPA GPD, where
 * Prepare also saves the IUVs a chunk a call.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
const month = billedMonth();

const simulator = () => (onGpd() ? inject('gpdUrl')! : inject('myPayEndpoint').replace(/\/pa\/services.*$/, ''));
const simulatorState = async () => (await fetch(`${simulator()}/admin/state`)).json();

/** The steps and the flows' use cases as the task and API functions wire them, with a budget of `chunk` positions a call. */
async function exportParts(chunk: number) {
  const wired = await import('../../functions/entry/wired-payments.ts');
  const { reserveIuvs } = await import('../../functions/positions/iuv-sequence.ts');
  const { makeExportSteps } = await import('../../functions/flows/export-steps.ts');
  const { makeFlowUseCases } = await import('../../functions/flows/use-cases.ts');
  const flowRepository = await import('../../functions/flows/repository.ts');
  const { s3ExportFiles } = await import('../../functions/adapters/export-files.ts');
  const { systemClock } = await import('../../functions/adapters/ports/clock.ts');
  const { myPayImport } = await import('../../functions/flows/mypay-import.ts');
  const { gpdExportPlatformFromEnv } = await import('../../functions/adapters/payment-platform.ts');
  const { PLATFORM_CAPABILITIES } = await import('../../functions/domain/payment-platform.ts');
  const { getCall } = await import('../../functions/calls/repository.ts');
  const { hasLiveCheckouts } = await import('../../functions/payments/checkouts.ts');
  const { dynamoAuditLog } = await import('../../functions/adapters/audit-log.ts');

  const payments = wired.paymentUseCases({
    exportSliceBudget: { chunk, ms: 0 },
    iuvSequence: { reserveIuvs: (count) => reserveIuvs(process.env.GPD_SEGREGATION_CODE ?? '', count) },
  });
  const gpd = onGpd() ? gpdExportPlatformFromEnv() : undefined;
  const steps = makeExportSteps({
    flows: flowRepository,
    platform: gpd && { name: 'gpd', capabilities: PLATFORM_CAPABILITIES.gpd, export: gpd.export },
    positions: {
      buildExport: (request, by) => payments.exportCsv(request, by),
      buildPlatformExport: (request, by) => payments.exportPlatformPositions(request, by),
      markIsees: async (ids) => void (await payments.markIseesUsedForFee(ids)),
      recordResults: (request, results) => payments.recordExportResults(request, results),
    },
    mypay: myPayImport(),
    exportFiles: s3ExportFiles,
    clock: systemClock,
    codIpa: process.env.MYPAY_COD_IPA ?? '',
  });
  // 'Invia a MyPay' and 'Rielabora' as the flows API runs them; the steps run here instead of on the stack's machine.
  const flows = makeFlowUseCases({
    flows: flowRepository,
    configuration: { requireComplete: async () => ({}) },
    calls: { getCall },
    positions: { hasLiveCheckouts },
    exportFiles: s3ExportFiles,
    runner: { start: async (flowId) => `arn:aws:states:local:execution:export-slices:${flowId}` },
    positionsSync: { isRunning: async () => false },
    audit: dynamoAuditLog,
    clock: systemClock,
    ids: () => crypto.randomUUID(),
    platform: onGpd() ? 'gpd' : 'mypay',
  });
  return { steps, flows };
}

/**
 * Cuts the next batch of position writes as a function timeout would: the first `landed` of its items reach DynamoDB,
 * then the invocation ends with Lambda's error (the rest of the batch is never sent).
 */
async function cutNextPositionBatch(landed: number) {
  const { documentClient } = await import('../../functions/adapters/dynamo.ts');
  const name = 'exportSlicesCut';
  const partitionOf = (request: { PutRequest?: { Item?: { pk?: unknown } } }) => {
    const pk = request.PutRequest?.Item?.pk;
    return typeof pk === 'string' ? pk : ((pk as { S?: string } | undefined)?.S ?? '');
  };
  documentClient.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { RequestItems?: Record<string, { PutRequest?: { Item?: { pk?: unknown } } }[]> };
      const [table, requests] = Object.entries(input.RequestItems ?? {})[0] ?? [];
      // A BatchWriteItem (an array of requests) of positions; anything else (a BatchGetItem's keys…) goes as it is.
      if (
        !table ||
        !Array.isArray(requests) ||
        !requests.some((request) => partitionOf(request).includes('#POSITIONS#'))
      )
        return next(args);
      documentClient.middlewareStack.remove(name);
      input.RequestItems = { [table]: requests.slice(0, landed) };
      await next(args);
      throw invocationTimedOut(TASK_TIMEOUT_SECONDS);
    },
    { step: 'initialize', name },
  );
}

beforeAll(async () => {
  operator = await operatorWithMyPay();
});

describe("the export's Prepare in slices", () => {
  it('seven new positions, three a call, the second call cut mid-write: Rielabora goes on from what is stored, each position created once, with one IUV, sent once', async () => {
    const people = ['Rossi', 'Bianchi', 'Verdi', 'Neri', 'Gialli', 'Marroni', 'Viola'];
    const call = await callWithSubscribers(operator, people);
    const { steps, flows } = await exportParts(3);
    const flow = await flows.startExport(call.id, month.period, actor);
    const stored = async () => (await storedPositions(call.id, month.key)).length;
    /** Each call of Prepare: its answer (or 'cut') and the positions stored after it. */
    const prepared: [string, number][] = [];
    const run = async (step: FlowTaskStep, call: () => Promise<{ done: boolean }>) => {
      for (let calls = 0; calls < 20; calls++) if ((await call()).done) return;
      throw new Error(`${step} never answered done`);
    };

    expect(await steps.prepare(flow.id)).toEqual({ rows: 0, done: false });
    prepared.push(['more', await stored()]);
    await cutNextPositionBatch(1);
    await expect(steps.prepare(flow.id)).rejects.toThrow('Task timed out');
    prepared.push(['cut', await stored()]);
    // The state machine's Catch: MarkFailed; the operator then presses 'Rielabora'.
    const cut = invocationTimedOut(TASK_TIMEOUT_SECONDS);
    await steps.markFailed(flow.id, { Error: cut.name, Cause: cut.message });
    expect(await flows.getFlow(flow.id)).toMatchObject({ step: 'ERRORE' });
    await flows.restartFlow(flow.id, actor);
    for (;;) {
      const answer = await steps.prepare(flow.id);
      prepared.push([answer.done ? `done ${answer.rows}` : 'more', await stored()]);
      if (answer.done) break;
    }
    // Three, then one of the cut call's three, then the last three. On GPD the IUVs follow, three a call: the call that
    // completes the month saves three, the next three, the last one.
    expect(prepared).toEqual(
      onGpd()
        ? [
            ['more', 3],
            ['cut', 4],
            ['more', 7],
            ['more', 7],
            ['done 7', 7],
          ]
        : [
            ['more', 3],
            ['cut', 4],
            ['done 7', 7],
          ],
    );

    await run('MarkIsees', () => steps.markIsees(flow.id));
    await run('Send', () => steps.send(flow.id));
    if (!onGpd()) {
      // The state machine's wait for MyPay's import, then Collect.
      const until = Date.now() + 60_000;
      while ((await steps.checkImport(flow.id)).stato !== 'IMPORT_ESEGUITO') {
        if (Date.now() > until) throw new Error('MyPay never finished the import');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      await run('Collect', () => steps.collect(flow.id));
    }
    expect(await flows.getFlow(flow.id)).toMatchObject({ step: 'COMPLETATO', num: 7, accepted: 7, rejected: 0 });

    const positions = await storedPositions(call.id, month.key);
    expect(positions).toHaveLength(7);
    expect(new Set(positions.map((p) => p.iud)).size).toBe(7);
    expect(positions.every((p) => p.statoExport === 'ESPORTATA' && /^\d{17}$/.test(p.codIuv))).toBe(true);
    expect(new Set(positions.map((p) => p.codIuv)).size).toBe(7);
    if (onGpd()) {
      // GPD holds each once, published, with the IUV the portal saved on it.
      const held = Object.values(
        (await simulatorState()).positions as Record<
          string,
          { iupd: string; status: string; paymentOption: { iuv: string }[] }
        >,
        // Whatever iupd form GPD got (iudOfIupd reads both): one position a IUD, under the iupd saved on it.
      ).filter((p) => positions.some((position) => iudOfIupd(p.iupd)?.iud === position.iud));
      expect(held.map((p) => [p.iupd, p.status, p.paymentOption[0]!.iuv]).sort()).toEqual(
        positions.map((p) => [gpdIupdOf(p), 'VALID', p.codIuv]).sort(),
      );
    } else {
      // MyPay received one file of the flow, with the seven rows.
      const imports = Object.values(
        (await simulatorState()).imports as Record<string, { fileName?: string; state: string }>,
      ).filter((i) => i.fileName?.includes(flow.id));
      expect(imports).toHaveLength(1);
    }
    // No position audited twice: the one the cut call wrote is the one left without its entry (the cut came before it).
    const audited: string[] = [];
    for (const position of positions)
      for (const entry of await localTable().auditOf('position', position.iud as string))
        if (entry.action === 'create') audited.push(position.iud as string);
    expect(new Set(audited).size).toBe(audited.length);
    expect(audited).toHaveLength(6);
  }, 180_000);
});
