import { afterAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { gpdCreditorFromEnv, gpdConfigFromEnv } from '../../functions/adapters/payment-platform.ts';
import { makeGpdClient } from '../../functions/adapters/gpd/client.ts';
import { makeGpdPlatform } from '../../functions/adapters/gpd/platform.ts';
import { gpdIupd, gpdIuv } from '../../functions/domain/gpd.ts';
import { DEFAULT_API_KEY, DEFAULT_ORGANIZATION, DEFAULT_RECEIPTS_KEY } from '../../lib/local/gpd/model.ts';
import { gpdAdmin, gpdClient, onGpd } from '../support/gpd.ts';
import { billedMonth } from '../support/months.ts';

/**
 * The GPD client's timeout against the stack's GPD simulator (issue 37; project integration-gpd): the simulator's
 * timeout switch holds a request without answering, the client gives the attempt up after GPD_TIMEOUT_MS (a setting,
 * 10 s by default: here 400 ms, so the test does not wait) and tries again; a create whose first attempt timed out is
 * created once; GPD that never answers is 'GpdUnavailable' (the export's state machine retries that) with the reason.
 */
const settings = () => ({
  PAYMENT_PLATFORM: 'gpd',
  GPD_BASE_URL: inject('gpdUrl') ?? '',
  GPD_API_KEY: DEFAULT_API_KEY,
  GPD_RECEIPTS_KEY: DEFAULT_RECEIPTS_KEY,
  GPD_ORGANIZATION_FISCAL_CODE: DEFAULT_ORGANIZATION.fiscalCode,
  GPD_COMPANY_NAME: DEFAULT_ORGANIZATION.companyName,
  GPD_IBAN: 'IT60X0542811101000000123456',
  GPD_TAXONOMY_CODE: '9/0101108TS/',
  GPD_TIMEOUT_MS: '400',
});
afterAll(async () => {
  if (onGpd()) await gpdAdmin('reset', {});
});

const position = (n: number) => ({
  iud: `PTIMEOUT${Date.now()}${n}`,
  action: 'create' as const,
  iuv: gpdIuv(DEFAULT_ORGANIZATION.segregationCodes[0]!, 7_000_000_000_000 + (Date.now() % 1_000_000_000) * 10 + n),
  fiscalCode: 'RSSMRA85C52H501N',
  fullName: 'Rossi Maria',
  email: null,
  amountCents: 6643,
  description: `Quota ${billedMonth().label}`,
  dueDay: billedMonth().dueDay,
});

describe.skipIf(!onGpd())('the GPD client’s timeout', () => {
  it('is the setting GPD_TIMEOUT_MS', () => {
    expect(gpdConfigFromEnv(settings()).timeoutMs).toBe(400);
    expect(gpdConfigFromEnv({ ...settings(), GPD_TIMEOUT_MS: '' }).timeoutMs).toBeUndefined();
  });

  it('a bulk create whose first attempt times out is tried again and created once', async () => {
    const platform = makeGpdPlatform(makeGpdClient(gpdConfigFromEnv(settings())), gpdCreditorFromEnv(settings()));
    await gpdAdmin('faults', { operation: 'bulk-create', kind: 'timeout', times: 1 });
    const sent = [position(1), position(2)];
    const { results } = await platform.export.submit({ flowId: 'timeout', attempt: 1, positions: sent });
    expect(results!.rejected).toEqual([]);
    expect(results!.accepted.map((a) => a.iud)).toEqual(sent.map((p) => p.iud));
    // The switch was used (the first attempt was held), and GPD holds each position once, published.
    expect((await gpdAdmin('reset', {})).switches.faults).toEqual([]);
    for (const p of sent) expect((await gpdClient().getPosition(gpdIupd(p.iud)))?.status).toBe('VALID');
  });

  it('GPD that never answers: GpdUnavailable with the reason, after the client’s retries, and nothing read', async () => {
    const client = makeGpdClient({ ...gpdConfigFromEnv(settings()), retries: 2, backoffMs: 50 });
    await gpdAdmin('faults', { operation: 'get', kind: 'timeout', times: 'always' });
    const failed = client.getPosition(gpdIupd('PNOTTHERE'));
    await expect(failed).rejects.toMatchObject({ name: 'GpdUnavailable' });
    await expect(failed).rejects.toThrow(/timeout/);
    await gpdAdmin('reset', {});
    expect(await client.getPosition(gpdIupd('PNOTTHERE'))).toBeNull();
  });
});
