import { makeGpdClient, type GpdConfig } from '../../functions/adapters/gpd/client.ts';
import { readReceipt } from '../../functions/adapters/gpd/receipt-xml.ts';
import { makePacer } from '../../functions/adapters/pacer.ts';
import { DEFAULT_API_KEY, DEFAULT_ORGANIZATION, DEFAULT_RECEIPTS_KEY } from '../../lib/local/gpd/model.ts';

/** The council as the GPD simulator knows it by default, with the IBAN and taxonomy code its positions carry. */
export const gpdCreditor = {
  fiscalCode: DEFAULT_ORGANIZATION.fiscalCode,
  companyName: DEFAULT_ORGANIZATION.companyName,
  iban: 'IT60X0542811101000000123456',
  taxonomyCode: '9/0101108TS/',
};

/** A due day GPD accepts whenever the test runs: 31 January of next year. */
export const gpdDueDay = `${new Date().getUTCFullYear() + 1}-01-31`;

/** The portal's GPD client on a simulator started in this process, with the council's keys and short retries. */
export const gpdClientOn = (sim: { url: string }, options: Partial<GpdConfig> = {}) =>
  makeGpdClient({
    baseUrl: sim.url,
    organizationFiscalCode: gpdCreditor.fiscalCode,
    apiKey: DEFAULT_API_KEY,
    receiptsKey: DEFAULT_RECEIPTS_KEY,
    readReceipt,
    pacer: makePacer(1000),
    backoffMs: 10,
    ...options,
  });
