import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IoRefused, IoUnavailable, IoUnconfirmed, makeIo } from '../../functions/adapters/io.ts';
import type { IoMessages } from '../../functions/adapters/ports/io.ts';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';
import { LOCAL_IO, startIoSimulator, type IoSimulator } from '../../lib/local/io-simulator.ts';
import { freePort } from '../support/ports.ts';
import { ioNotice } from '../support/io-notice.ts';

/**
 * Contracts with the IO app: the adapter (functions/adapters/io.ts) against the simulator
 * (lib/local/io-simulator.ts) over real HTTP. Each test names the upstream file it follows; the simulator
 * answers as that code does, so these fail where the portal would fail against IO.
 */
let simulator: IoSimulator;
let io: IoMessages;
const CF = 'RSSMRA85C52H501N';
const OTHER = 'VRDGPP90P07F839R';
const { content } = ioNotice('Rossi Maria (RSSMRA85C52H501N)');

async function admin(path: string, body: object) {
  const response = await fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}
const received = async () =>
  (await (await fetch(`${simulator.url}/admin/messages`)).json()).messages as Array<{
    id: string;
    fiscal_code: string;
    content: any;
    status: string;
  }>;
/** What the IO API answers to a raw call (for what the adapter never sends). */
const raw = (path: string, body: object, key = simulator.apiKey) =>
  fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Ocp-Apim-Subscription-Key': key },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  simulator = await startIoSimulator({ port: await freePort(), holdMs: 2000 });
  io = makeIo({ baseUrl: simulator.url, apiKey: simulator.apiKey, timeoutMs: 1000, backoffMs: 20 });
});
afterAll(() => simulator?.close());
beforeEach(() => admin('/admin/reset', { messages: true }));

describe('IO contract: payee (io-messages apps/services-func/src/functions/CreateMessage/handler.ts, ProcessMessage/handler.ts)', () => {
  it('IO refuses a payee from a key without ApiMessageWriteWithPayee (not a default group: io-services-cms APIM_USER_GROUPS); the portal sends none and IO makes the service’s organisation the payee', async () => {
    const withPayee = await raw('/api/v1/messages', {
      fiscal_code: CF,
      content: { ...content, payment_data: { ...content.payment_data, payee: { fiscal_code: '80012340123' } } },
    });
    expect(withPayee.status).toBe(403);
    expect(await withPayee.json()).toMatchObject({
      title: 'You are not allowed here',
      detail: 'You do not have enough permissions to send a payment message with payee',
    });

    await admin('/admin/service', { processingMs: 0 });
    const { id } = await io.sendMessage(CF, content);
    expect(await io.messageStatus(CF, id)).toBe('PROCESSED');
    const [message] = await received();
    expect(message!.content.payment_data).toEqual({
      amount: 6643,
      notice_number: '301000000001234519',
      invalid_after_due_date: false,
      payee: { fiscal_code: LOCAL_IO.organizationFiscalCode },
    });
  });

  it('a key that has the group may send one (the simulator configured otherwise)', async () => {
    await admin('/admin/service', { groups: ['ApiMessageWrite', 'ApiMessageWriteWithPayee'] });
    const allowed = await raw('/api/v1/messages', {
      fiscal_code: CF,
      content: { ...content, payment_data: { ...content.payment_data, payee: { fiscal_code: '80012340123' } } },
    });
    expect(allowed.status).toBe(201);
  });
});

describe('IO contract: profiles and keys (io-functions-services apps/io-functions-services/utils/profile.ts, GetLimitedProfileByPOST/handler.ts; io-functions-commons src/utils/middlewares/azure_api_auth.ts, src/utils/source_ip_check.ts)', () => {
  it('a limited (trial) key reads only its authorised recipients: 403 Recipient forbidden for anyone else', async () => {
    await admin('/admin/service', {
      groups: ['ApiLimitedMessageWrite', 'ApiLimitedProfileRead', 'ApiMessageRead'],
      authorizedRecipients: [OTHER],
    });
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({
      name: 'IoRefused',
      reason: 'RECIPIENT_NOT_AUTHORIZED',
    });
    expect(await io.sendMessage(OTHER, content)).toMatchObject({ id: expect.any(String) });
    expect((await received()).map((m) => m.fiscal_code)).toEqual([OTHER]);
  });

  it('the caller’s IP outside the service’s CIDRs, or a key without ApiLimitedProfileRead: 403, FORBIDDEN', async () => {
    await admin('/admin/service', { authorizedCidrs: ['10.20.0.0/16'] });
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'FORBIDDEN' });
    await admin('/admin/service', { authorizedCidrs: ['127.0.0.0/8'], groups: ['ApiMessageWrite', 'ApiMessageRead'] });
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'FORBIDDEN' });
    expect(await received()).toHaveLength(0);
  });

  it('a key the gateway does not know: 401, UNAUTHORIZED, never retried', async () => {
    const wrongKey = makeIo({ baseUrl: simulator.url, apiKey: 'chiave-revocata', timeoutMs: 1000 });
    await expect(wrongKey.sendMessage(CF, content)).rejects.toMatchObject({
      name: 'IoRefused',
      reason: 'UNAUTHORIZED',
    });
  });

  it('no profile: 404; a citizen who blocks the service: sender_allowed false', async () => {
    await admin('/admin/profiles', { fiscalCode: CF, state: 'none' });
    await admin('/admin/profiles', { fiscalCode: OTHER, state: 'blocked' });
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({ reason: 'NO_PROFILE' });
    await expect(io.sendMessage(OTHER, content)).rejects.toMatchObject({ reason: 'SENDER_NOT_ALLOWED' });
  });
});

describe('IO contract: no idempotency key (io-messages CreateMessage/handler.ts: every POST /messages is a new message)', () => {
  it.each(['lost-answer', 'created-5xx'])(
    'a message created whose answer is %s is never posted again: IoUnconfirmed, and the citizen has one message',
    async (kind) => {
      await admin('/admin/faults', { operation: 'messages', kind, times: 1 });
      await expect(io.sendMessage(CF, content)).rejects.toBeInstanceOf(IoUnconfirmed);
      expect((await received()).map((m) => m.fiscal_code)).toEqual([CF]);
    },
  );

  it('a 5xx is not resent either: the portal cannot tell whether IO created the message before failing', async () => {
    await admin('/admin/faults', { operation: 'messages', kind: '5xx', times: 1 });
    await expect(io.sendMessage(CF, content)).rejects.toBeInstanceOf(IoUnconfirmed);
    expect(await received()).toHaveLength(0);
  });
});

describe('IO contract: the address (io-functions-services openapi/index.yaml: basePath /api/v1; utils/profile.ts ResponseErrorNotFound "Profile not found")', () => {
  it('takes the base URL with or without /api/v1', async () => {
    const withPrefix = makeIo({ baseUrl: `${simulator.url}/api/v1/`, apiKey: simulator.apiKey, timeoutMs: 1000 });
    expect(await withPrefix.sendMessage(CF, content)).toMatchObject({ id: expect.any(String) });
    expect(await received()).toHaveLength(1);
  });

  it('a wrong base URL’s 404 is the portal’s configuration (NOT_FOUND), never ‘no IO profile’', async () => {
    const wrong = makeIo({ baseUrl: `${simulator.url}/servizi-io`, apiKey: simulator.apiKey, timeoutMs: 1000 });
    await expect(wrong.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'NOT_FOUND' });
    await admin('/admin/profiles', { fiscalCode: CF, state: 'none' });
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'NO_PROFILE' });
  });
});

describe('IO contract: the fiscal code (io-ts-commons src/strings.ts FiscalCode)', () => {
  it('IO refuses a code whose month letter is not one of A B C D E H L M P R S T, even with a right check character', async () => {
    const first15 = 'RSSMRA85F52H501';
    const wrongMonth = first15 + fiscalCodeCheckCharacter(first15);
    const refused = await io.sendMessage(wrongMonth, content).catch((e) => e);
    expect(refused).toBeInstanceOf(IoRefused);
    expect(refused.reason).toBe('REJECTED');
    expect(refused.detail).toContain('FiscalCode');
  });
});

describe('IO contract: the amount ceiling (CreateMessage/handler.ts canPaymentAmount; io-services-cms MAX_ALLOWED_PAYMENT_AMOUNT)', () => {
  it('above the service’s max_allowed_payment_amount (0 until approved for payments): 400, AMOUNT_NOT_ALLOWED with the ceiling; no message', async () => {
    await admin('/admin/service', { maxAllowedPaymentAmount: 0 });
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({
      name: 'IoRefused',
      reason: 'AMOUNT_NOT_ALLOWED',
      maxAllowed: 0,
    });
    await admin('/admin/service', { maxAllowedPaymentAmount: 6643 });
    expect(await io.sendMessage(CF, content)).toMatchObject({ id: expect.any(String) });
    expect(await received()).toHaveLength(1);
  });
});

describe('IO contract: the gateway’s rate limit (io-infra src/legacy-apim/prod/api_product/io_services/_base_policy.xml)', () => {
  it('a 429 is waited out for the seconds of x-rate-limit-retry-after, then the message goes once', async () => {
    await admin('/admin/faults', { operation: 'messages', kind: '429', retryAfter: 1, times: 1 });
    expect(await io.sendMessage(CF, content)).toMatchObject({ id: expect.any(String) });
    expect(await received()).toHaveLength(1);
  });

  it('the quota spent for longer than the time left: IoUnavailable with IO’s seconds at once, and no message created', async () => {
    await admin('/admin/service', { rateLimit: { calls: 1, renewalPeriodSeconds: 60 } });
    const error = await io.sendMessage(CF, content, { deadline: Date.now() + 5000 }).catch((e) => e);
    expect(error).toBeInstanceOf(IoUnavailable);
    expect(error.retryAfterSeconds).toBeGreaterThan(5);
    expect(await received()).toHaveLength(0);
  });
});

describe('IO contract: accepted is not delivered (io-messages GetMessage/handler.ts, ProcessMessage/handler.ts; io-functions-commons openapi/definitions_v2.yaml MessageStatusValue)', () => {
  it('201 then ACCEPTED until IO processes it, then PROCESSED', async () => {
    await admin('/admin/service', { processingMs: 60_000 });
    const { id } = await io.sendMessage(CF, content);
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(await io.messageStatus(CF, id)).toBe('ACCEPTED');
    await admin('/admin/service', { processingMs: 0 });
    expect(await io.messageStatus(CF, id)).toBe('PROCESSED');
  });

  it('201, then REJECTED: IO looks at the profile only when it processes the message', async () => {
    await admin('/admin/service', { processingMs: 0 });
    await admin('/admin/outcomes', { fiscalCode: CF, status: 'REJECTED' });
    const { id } = await io.sendMessage(CF, content);
    expect(await io.messageStatus(CF, id)).toBe('REJECTED');
    // The citizen's profile gone between the check and the processing: the same.
    await admin('/admin/reset', {});
    await admin('/admin/service', { processingMs: 60_000 });
    const second = await io.sendMessage(OTHER, content);
    await admin('/admin/profiles', { fiscalCode: OTHER, state: 'none' });
    await admin('/admin/service', { processingMs: 0 });
    expect(await io.messageStatus(OTHER, second.id)).toBe('REJECTED');
  });

  it('a message IO does not have: 404 is not a status', async () => {
    await expect(io.messageStatus(CF, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).rejects.toBeInstanceOf(IoRefused);
  });
});
