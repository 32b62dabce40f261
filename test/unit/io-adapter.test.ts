import { describe, expect, it } from 'vitest';
import { IoRefused, IoUnavailable, makeIo } from '../../functions/adapters/io.ts';
import { endOfDayInRome, ioMessageContent, iuvOfNoticeFile } from '../../functions/domain/notices.ts';
import { newMessageProblem } from '../../lib/local/io-simulator.ts';

/**
 * The IO adapter against a fake `fetch` that answers in turn and records every request: what IO receives
 * (path, key, body) and how the adapter reacts to 404, sender not allowed, 5xx and timeouts.
 */
type Answer = { status: number; body?: unknown } | 'timeout' | 'refused';
function fakeIo(answers: Answer[]) {
  const calls: { url: string; headers: Record<string, string>; body: any }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) });
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected call');
    if (answer === 'timeout') throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    if (answer === 'refused') throw new TypeError('fetch failed');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  const sleeps: number[] = [];
  const io = makeIo({ baseUrl: 'https://io.example/', apiKey: 'chiave', fetch, sleep: async (ms) => void sleeps.push(ms), retries: 3, backoffMs: 100 });
  return { io, calls, sleeps };
}

const position = {
  iud: 'P202611ABC',
  titolo: 'Assistenza domiciliare – Novembre 2026',
  descrizione: 'Quota Novembre 2026 Assistenza domiciliare - Rossi Anna (RSSNNA80A41H501X) - bando Bando 2026',
  importoDovuto: 6643,
  dataScadenza: '2026-11-30',
  nav: '301000000001234519',
  codIuv: '01000000001234519',
  isPagato: false,
  annullato: false,
};
const content = ioMessageContent(position, '01234567890');
const CF = 'RSSMRA85C52H501N';

describe('IO adapter', () => {
  it('checks the profile, then sends the message exactly as reference.md says, and returns its id', async () => {
    const { io, calls } = fakeIo([{ status: 200, body: { sender_allowed: true } }, { status: 201, body: { id: '01HMSG' } }]);
    expect(await io.sendMessage(CF, content)).toEqual({ id: '01HMSG' });
    expect(calls.map((c) => c.url)).toEqual(['https://io.example/api/v1/profiles', 'https://io.example/api/v1/messages']);
    expect(calls.every((c) => c.headers['Ocp-Apim-Subscription-Key'] === 'chiave')).toBe(true);
    expect(calls[0]!.body).toEqual({ fiscal_code: CF });
    const sent = calls[1]!.body;
    expect(sent).toMatchObject({ fiscal_code: CF, feature_level_type: 'STANDARD' });
    expect(sent.content.payment_data).toEqual({ amount: 6643, notice_number: '301000000001234519', invalid_after_due_date: false, payee: { fiscal_code: '01234567890' } });
    expect(sent.content.due_date).toBe('2026-11-30T22:59:59.000Z');
    expect(sent.content.subject.length).toBeGreaterThanOrEqual(10);
    expect(sent.content.subject.length).toBeLessThanOrEqual(120);
    expect(sent.content.markdown.length).toBeGreaterThanOrEqual(80);
    expect(sent.content.markdown).toContain('Rossi Anna');
    // The simulator's validation (the same contract) finds nothing wrong with it.
    expect(newMessageProblem(sent)).toBeNull();
  });

  it('a citizen without IO (404) is reported at once: no retry, no message', async () => {
    const { io, calls } = fakeIo([{ status: 404, body: { title: 'Profile not found' } }]);
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'NO_PROFILE' });
    expect(calls).toHaveLength(1);
  });

  it('a citizen who does not allow the sender is reported: no message', async () => {
    const { io, calls } = fakeIo([{ status: 200, body: { sender_allowed: false } }]);
    const error = await io.sendMessage(CF, content).catch((e) => e);
    expect(error).toBeInstanceOf(IoRefused);
    expect(error.reason).toBe('SENDER_NOT_ALLOWED');
    expect(calls).toHaveLength(1);
  });

  it('5xx and timeouts are retried with growing backoff, then the message goes once', async () => {
    const { io, calls, sleeps } = fakeIo([{ status: 503 }, 'timeout', { status: 200, body: { sender_allowed: true } }, { status: 500 }, { status: 201, body: { id: 'M2' } }]);
    expect(await io.sendMessage(CF, content)).toEqual({ id: 'M2' });
    expect(calls.map((c) => c.url.split('/').pop())).toEqual(['profiles', 'profiles', 'profiles', 'messages', 'messages']);
    expect(sleeps).toHaveLength(3);
    expect(sleeps[1]!).toBeGreaterThan(sleeps[0]!);
  });

  it('IO still down after the retries: IoUnavailable, four attempts in all', async () => {
    const { io, calls } = fakeIo([{ status: 503 }, { status: 502 }, 'refused', { status: 504 }]);
    await expect(io.sendMessage(CF, content)).rejects.toBeInstanceOf(IoUnavailable);
    expect(calls).toHaveLength(4);
  });

  it('a message IO refuses (400) is reported with IO’s reason, not retried', async () => {
    const { io, calls } = fakeIo([{ status: 200, body: { sender_allowed: true } }, { status: 400, body: { title: 'Invalid', detail: 'content.subject: da 10 a 120 caratteri' } }]);
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'REJECTED', detail: 'content.subject: da 10 a 120 caratteri' });
    expect(calls).toHaveLength(2);
  });
});

describe('IO message content and notice files', () => {
  it('due date: the end of the day in Rome, in UTC, winter and summer', () => {
    expect(endOfDayInRome('2026-11-30')).toBe('2026-11-30T22:59:59.000Z');
    expect(endOfDayInRome('2026-07-31')).toBe('2026-07-31T21:59:59.000Z');
  });

  it('keeps subject and markdown within IO’s limits for very long titles', () => {
    const long = ioMessageContent({ ...position, titolo: 'T'.repeat(500), descrizione: 'D'.repeat(20000) }, '01234567890');
    expect(long.subject.length).toBe(120);
    expect(long.markdown.length).toBe(10000);
    expect(newMessageProblem({ fiscal_code: CF, feature_level_type: 'STANDARD', content: long })).toBeNull();
  });

  it('the simulator refuses what IO refuses', () => {
    const body = { fiscal_code: CF, feature_level_type: 'STANDARD', content };
    expect(newMessageProblem({ ...body, content: { ...content, subject: 'breve' } })).toMatch(/subject/);
    expect(newMessageProblem({ ...body, content: { ...content, markdown: 'corto' } })).toMatch(/markdown/);
    expect(newMessageProblem({ ...body, content: { ...content, payment_data: { ...content.payment_data, amount: 66.43 } } })).toMatch(/amount/);
    expect(newMessageProblem({ ...body, content: { ...content, payment_data: { ...content.payment_data, notice_number: '401000000001234519' } } })).toMatch(/notice_number/);
    expect(newMessageProblem({ ...body, content: { ...content, due_date: '30/11/2026' } })).toMatch(/due_date/);
    expect(newMessageProblem({ ...body, fiscal_code: 'rssmra' })).toMatch(/fiscal_code/);
  });

  it('finds the IUV a file of MyPay’s AVVISI ZIP is about', () => {
    expect(iuvOfNoticeFile('avviso_301000000001234519.pdf')).toBe('01000000001234519');
    expect(iuvOfNoticeFile('cartella/avviso_01000000001234519.PDF')).toBe('01000000001234519');
    expect(iuvOfNoticeFile('avviso_301000000001234519.txt')).toBeNull();
    expect(iuvOfNoticeFile('leggimi.pdf')).toBeNull();
  });
});
