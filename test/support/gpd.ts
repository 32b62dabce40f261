import { randomInt } from 'node:crypto';
import { inject } from './stack-context.ts';
import { localTable } from './dynamo.ts';
import { exportMonth, storedPositions } from './positions.ts';
import { as } from './api.ts';
import { makeGpdClient } from '../../functions/adapters/gpd/client.ts';
import { gpdIupd, gpdIuv, gpdNoticeNumber, gpdPaymentPosition } from '../../functions/domain/gpd.ts';
import { romeDay } from '../../functions/domain/period.ts';
import { DEFAULT_API_KEY, DEFAULT_ORGANIZATION, DEFAULT_RECEIPTS_KEY } from '../../lib/local/gpd/model.ts';

type Client = Awaited<ReturnType<typeof as>>;

/** Whether this test's stack bills through pagoPA GPD (the -gpd projects: test/support/stack-pool.ts platformEnv). */
export const onGpd = () => process.env.PAYMENT_PLATFORM === 'gpd';

/** The GPD simulator of this worker's stack, as the portal's client talks to it (lib/local/runtime.ts's settings). */
export const gpdClient = () =>
  makeGpdClient({
    baseUrl: inject('gpdUrl')!,
    organizationFiscalCode: DEFAULT_ORGANIZATION.fiscalCode,
    apiKey: DEFAULT_API_KEY,
    receiptsKey: DEFAULT_RECEIPTS_KEY,
  });

/** A switch of the GPD simulator (lib/local/gpd-simulator.ts: faults, paid, receipts, reset). */
export async function gpdAdmin(action: string, body: object) {
  const response = await fetch(`${inject('gpdUrl')}/admin/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`GPD simulator ${action}: ${response.status}`);
  return response.json();
}

/**
 * A month exported as the council does every month, so its positions can be paid: the export workflow; on a GPD
 * stack each position then also has to be a published GPD position with the portal's IUV. Until the export itself
 * creates them at GPD (the flows' part of issue 37), this puts the ones GPD does not know there, as the export
 * will (gpdPaymentPosition, a due date GPD accepts), and gives the stored position that IUV and notice number.
 */
export async function publishMonth(operator: Client, callId: string, period: { mese: number; anno: number }) {
  await exportMonth(operator, callId, period);
  if (!onGpd()) return;
  const client = gpdClient();
  const tomorrow = romeDay(new Date(Date.now() + 86_400_000));
  const month = `${period.anno}-${String(period.mese).padStart(2, '0')}`;
  for (const item of await storedPositions(callId, month)) {
    const iud = item.iud as string;
    if (await client.getPosition(gpdIupd(iud))) continue;
    const iuv = gpdIuv(DEFAULT_ORGANIZATION.segregationCodes[0]!, randomInt(1_000_000_000_000, 9_000_000_000_000));
    const dueDay = (item.dataScadenza as string) > tomorrow ? (item.dataScadenza as string) : tomorrow;
    await client.createPositions([
      gpdPaymentPosition(
        {
          iud,
          iuv,
          fiscalCode: item.fiscalCode as string,
          fullName: `${item.cognome} ${item.nome}`,
          email: null,
          amountCents: item.importoDovuto as number,
          description: item.descrizione as string,
          dueDay,
        },
        {
          fiscalCode: DEFAULT_ORGANIZATION.fiscalCode,
          companyName: DEFAULT_ORGANIZATION.companyName,
          iban: 'IT60X0542811101000000123456',
          taxonomyCode: '9/0101108TS/',
        },
      ),
    ]);
    await localTable().putItem({ ...item, codIuv: iuv, nav: gpdNoticeNumber(iuv) });
  }
}
