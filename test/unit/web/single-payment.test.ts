import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendSinglePayment } from '@/features/enrolments/api/send-single-payment';
import { startExport } from '@/features/flows/api/start-export';
import { loadRuntimeConfig } from '@/lib/runtime-config';

/** Spec part 2 §8: what the operator reads when 'Pagamento singolo' fails. */
const answer = (status: number, body: string, type = 'application/json') =>
  vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } }));

beforeAll(async () => {
  vi.stubGlobal(
    'fetch',
    answer(
      200,
      JSON.stringify({ apiBaseUrl: 'http://api.test', issuer: 'http://idp.test', clientId: 'web', scope: 'openid' }),
    ),
  );
  await loadRuntimeConfig();
});
afterEach(() => vi.unstubAllGlobals());

describe("'Pagamento singolo' failures", () => {
  it("shows the server's message", async () => {
    vi.stubGlobal(
      'fetch',
      answer(409, JSON.stringify({ detail: 'È già in corso un invio a MyPay per questo bando: attendi che finisca.' })),
    );
    await expect(sendSinglePayment(startExport, 'C1', 'RSSMRA85C52H501N')).rejects.toMatchObject({
      status: 409,
      message: 'È già in corso un invio a MyPay per questo bando: attendi che finisca.',
    });
  });

  it("reads 'Errore nella risposta dal server.' for an error answer without a message", async () => {
    vi.stubGlobal('fetch', answer(502, '<html>Bad Gateway</html>', 'text/html'));
    await expect(sendSinglePayment(startExport, 'C1', 'RSSMRA85C52H501N')).rejects.toMatchObject({
      status: 502,
      message: 'Errore nella risposta dal server.',
    });
  });

  it("reads 'Si è verificato un errore. Riprovare più tardi.' when no answer came", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(sendSinglePayment(startExport, 'C1', 'RSSMRA85C52H501N')).rejects.toMatchObject({
      status: 0,
      message: 'Si è verificato un errore. Riprovare più tardi.',
    });
  });

  it('sends this month in Rome of one fiscal code to the call’s exports (31 December 23:30 UTC is already January)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T23:30:00.000Z'));
    try {
      const fetch = answer(201, JSON.stringify({ id: 'flow-1' }));
      vi.stubGlobal('fetch', fetch);
      await sendSinglePayment(startExport, 'C1', 'RSSMRA85C52H501N');
      const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('http://api.test/api/calls/C1/exports');
      expect(JSON.parse(String(init.body))).toEqual({ fiscalCode: 'RSSMRA85C52H501N', mese: 1, anno: 2027 });
    } finally {
      vi.useRealTimers();
    }
  });
});
