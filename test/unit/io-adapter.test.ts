import { describe, expect, it } from 'vitest';
import { IoRefused, IoUnavailable, IoUnconfirmed, makeIo } from '../../functions/adapters/io.ts';
import {
  endOfDayInRome,
  groupedNav,
  ioMessageContent,
  iuvOfNoticeFile,
  markdownText,
  navGroups,
} from '../../functions/domain/notices.ts';
import { newMessageProblem } from '../../lib/local/io-simulator.ts';
import { ioNotice } from '../support/io-notice.ts';

/**
 * The IO adapter against a fake `fetch` that answers in turn and records every request: what IO receives
 * (path, key, body) and how the adapter reacts to 404, sender not allowed, 5xx and timeouts.
 */
type Answer =
  { status: number; body?: unknown; headers?: Record<string, string> } | 'timeout' | 'refused' | 'connection-refused';
/** A fake clock too: sleeping moves it, so budgets are checked without waiting. */
function fakeIo(answers: Answer[], options: { budgetMs?: number; baseUrl?: string } = {}) {
  const calls: { url: string; method: string; headers: Record<string, string>; body: any }[] = [];
  let clock = 1_000_000;
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: String(init.method),
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected call');
    if (answer === 'timeout')
      throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    if (answer === 'refused') throw new TypeError('fetch failed');
    if (answer === 'connection-refused')
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as unknown as typeof globalThis.fetch;
  const sleeps: number[] = [];
  const io = makeIo({
    baseUrl: options.baseUrl ?? 'https://io.example/',
    apiKey: 'chiave',
    fetch,
    sleep: async (ms) => void (sleeps.push(ms), (clock += ms)),
    now: () => clock,
    retries: 3,
    backoffMs: 100,
    budgetMs: options.budgetMs,
  });
  return { io, calls, sleeps };
}

const { position, content } = ioNotice('Rossi Anna (RSSNNA80A41H501X)');
const CF = 'RSSMRA85C52H501N';

describe('IO adapter', () => {
  it('checks the profile, then sends the message exactly as reference.md says, and returns its id', async () => {
    const { io, calls } = fakeIo([
      { status: 200, body: { sender_allowed: true } },
      { status: 201, body: { id: '01HMSG' } },
    ]);
    expect(await io.sendMessage(CF, content)).toEqual({ id: '01HMSG' });
    expect(calls.map((c) => c.url)).toEqual([
      'https://io.example/api/v1/profiles',
      'https://io.example/api/v1/messages',
    ]);
    expect(calls.every((c) => c.headers['Ocp-Apim-Subscription-Key'] === 'chiave')).toBe(true);
    expect(calls[0]!.body).toEqual({ fiscal_code: CF });
    const sent = calls[1]!.body;
    expect(sent).toMatchObject({ fiscal_code: CF, feature_level_type: 'STANDARD' });
    // No payee (IO refuses it without the group ApiMessageWriteWithPayee, and sets the service's organisation).
    expect(sent.content.payment_data).toEqual({
      amount: 6643,
      notice_number: '301000000001234519',
      invalid_after_due_date: false,
    });
    expect(sent.content.due_date).toBe('2026-11-30T22:59:59.000Z');
    expect(sent.content.subject.length).toBeGreaterThanOrEqual(10);
    expect(sent.content.subject.length).toBeLessThanOrEqual(120);
    expect(sent.content.markdown.length).toBeGreaterThanOrEqual(80);
    expect(sent.content.markdown).toContain('Rossi Anna');
    // The simulator's validation (the same contract) finds nothing wrong with it.
    expect(newMessageProblem(sent)).toBeNull();
  });

  it('a citizen without IO (404) is reported at once: no retry, no message', async () => {
    const { io, calls } = fakeIo([
      {
        status: 404,
        body: {
          title: 'Profile not found',
          status: 404,
          detail: 'The profile you requested was not found in the system.',
        },
      },
    ]);
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

  it('the profile check is retried on 5xx and timeouts with growing backoff, then the message goes once', async () => {
    const { io, calls, sleeps } = fakeIo([
      { status: 503 },
      'timeout',
      { status: 200, body: { sender_allowed: true } },
      { status: 201, body: { id: 'M2' } },
    ]);
    expect(await io.sendMessage(CF, content)).toEqual({ id: 'M2' });
    expect(calls.map((c) => c.url.split('/').pop())).toEqual(['profiles', 'profiles', 'profiles', 'messages']);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]!).toBeGreaterThan(sleeps[0]!);
  });

  it.each([
    ['a 500', { status: 500 }],
    ['a 503', { status: 503 }],
    ['a timeout', 'timeout'],
    ['a connection cut after the request went', 'refused'],
  ] as [string, Answer][])(
    'a message POST answered with %s is never posted again (IO has no idempotency key): IoUnconfirmed',
    async (_label, answer) => {
      let recorded = 0;
      const { io, calls } = fakeIo([
        { status: 200, body: { sender_allowed: true } },
        answer,
        { status: 201, body: { id: 'SECOND' } },
      ]);
      await expect(io.sendMessage(CF, content, { beforeMessage: async () => void recorded++ })).rejects.toBeInstanceOf(
        IoUnconfirmed,
      );
      expect(calls.filter((c) => c.url.endsWith('/messages'))).toHaveLength(1);
      expect(recorded).toBe(1);
    },
  );

  it('a message POST that never connected (connection refused) is tried again: nothing reached IO', async () => {
    const { io, calls } = fakeIo([
      { status: 200, body: { sender_allowed: true } },
      'connection-refused',
      { status: 201, body: { id: 'M4' } },
    ]);
    expect(await io.sendMessage(CF, content)).toEqual({ id: 'M4' });
    expect(calls.filter((c) => c.url.endsWith('/messages'))).toHaveLength(2);
  });

  it('a 404 is ‘no IO profile’ only when IO says ‘Profile not found’; another 404 (a wrong base URL) is NOT_FOUND, the portal’s configuration', async () => {
    const wrong = fakeIo([
      { status: 404, body: { title: 'Not Found', status: 404, detail: '/api/v1/api/v1/profiles' } },
    ]);
    await expect(wrong.io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'NOT_FOUND' });
    const html = fakeIo([{ status: 404, body: '<html>Resource not found</html>' }]);
    await expect(html.io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason: 'NOT_FOUND' });
  });

  it('takes the base URL with or without /api/v1', async () => {
    for (const baseUrl of ['https://io.example', 'https://io.example/api/v1', 'https://io.example/api/v1/']) {
      const { io, calls } = fakeIo(
        [
          { status: 200, body: { sender_allowed: true } },
          { status: 201, body: { id: 'M5' } },
        ],
        { baseUrl },
      );
      await io.sendMessage(CF, content);
      expect(
        calls.map((c) => c.url),
        baseUrl,
      ).toEqual(['https://io.example/api/v1/profiles', 'https://io.example/api/v1/messages']);
    }
  });

  it('IO still down after the retries: IoUnavailable, four attempts in all', async () => {
    const { io, calls } = fakeIo([{ status: 503 }, { status: 502 }, 'refused', { status: 504 }]);
    await expect(io.sendMessage(CF, content)).rejects.toBeInstanceOf(IoUnavailable);
    expect(calls).toHaveLength(4);
  });

  it('a 429 waits the seconds of x-rate-limit-retry-after, then goes on', async () => {
    const { io, calls, sleeps } = fakeIo([
      { status: 200, body: { sender_allowed: true } },
      {
        status: 429,
        body: { statusCode: 429, message: 'Rate limit is exceeded. Try again in 3 seconds.' },
        headers: { 'x-rate-limit-retry-after': '3' },
      },
      { status: 201, body: { id: 'M3' } },
    ]);
    expect(await io.sendMessage(CF, content)).toEqual({ id: 'M3' });
    expect(sleeps).toEqual([3000]);
    expect(calls.filter((c) => c.url.endsWith('/messages'))).toHaveLength(2);
  });

  it('a wait longer than the time left is not made: IoUnavailable with the seconds, and no message posted', async () => {
    const { io, calls } = fakeIo([{ status: 429, headers: { 'x-rate-limit-retry-after': '30' } }], {
      budgetMs: 20_000,
    });
    const error = await io.sendMessage(CF, content).catch((e) => e);
    expect(error).toBeInstanceOf(IoUnavailable);
    expect(error.retryAfterSeconds).toBe(30);
    expect(calls.map((c) => c.url.split('/').pop())).toEqual(['profiles']);
  });

  it('the message is posted only when a whole attempt fits before the deadline', async () => {
    // The profile check took the time (three timeouts and backoffs, on the fake clock): 4.5 s left of 20, under one 5 s attempt.
    const { io, calls } = fakeIo([
      { status: 200, body: { sender_allowed: true } },
      { status: 201, body: { id: 'never' } },
    ]);
    await expect(io.sendMessage(CF, content, { deadline: 1_000_000 + 4_500 })).rejects.toBeInstanceOf(IoUnavailable);
    expect(calls.map((c) => c.url.split('/').pop())).toEqual(['profiles']);
  });

  it.each([
    [
      '401 from the gateway',
      { status: 401, body: { statusCode: 401, message: 'Access denied due to invalid subscription key.' } },
      'UNAUTHORIZED',
    ],
    [
      '403 Recipient forbidden (a trial key)',
      {
        status: 403,
        body: { title: 'Recipient forbidden', detail: 'You are not allowed to issue requests for the recipient.' },
      },
      'RECIPIENT_NOT_AUTHORIZED',
    ],
    [
      '403 You are not allowed here (a group, the IP)',
      {
        status: 403,
        body: {
          title: 'You are not allowed here',
          detail: 'You do not have enough permission to complete the operation you requested',
        },
      },
      'FORBIDDEN',
    ],
  ])('a profile check answered %s is refused with its reason, not retried', async (_label, answer, reason) => {
    const { io, calls } = fakeIo([answer]);
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({ name: 'IoRefused', reason });
    expect(calls).toHaveLength(1);
  });

  it('an amount above the service’s ceiling is AMOUNT_NOT_ALLOWED with the ceiling', async () => {
    const { io } = fakeIo([
      { status: 200, body: { sender_allowed: true } },
      {
        status: 400,
        body: {
          title: 'Error while sending payment metadata',
          detail: 'The requested amount (6643 cents) exceeds the maximum allowed for this service (0 cents)',
        },
      },
    ]);
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({
      name: 'IoRefused',
      reason: 'AMOUNT_NOT_ALLOWED',
      maxAllowed: 0,
    });
  });

  it('reads a message’s status with GET /messages/{fiscal_code}/{id}', async () => {
    const { io, calls } = fakeIo([
      { status: 503 },
      { status: 200, body: { message: { id: 'M1' }, status: 'REJECTED' } },
      { status: 200, body: { message: { id: 'M1' } } },
    ]);
    expect(await io.messageStatus(CF, 'M1')).toBe('REJECTED');
    expect(calls[1]).toMatchObject({
      method: 'GET',
      url: `https://io.example/api/v1/messages/${CF}/M1`,
      body: undefined,
    });
    // No status yet: IO's GetMessage says ACCEPTED then; a missing one reads the same.
    expect(await io.messageStatus(CF, 'M1')).toBe('ACCEPTED');
  });

  it('a message IO refuses (400) is reported with IO’s reason, not retried', async () => {
    const { io, calls } = fakeIo([
      { status: 200, body: { sender_allowed: true } },
      { status: 400, body: { title: 'Invalid', detail: 'content.subject: da 10 a 120 caratteri' } },
    ]);
    await expect(io.sendMessage(CF, content)).rejects.toMatchObject({
      name: 'IoRefused',
      reason: 'REJECTED',
      detail: 'content.subject: da 10 a 120 caratteri',
    });
    expect(calls).toHaveLength(2);
  });
});

describe('IO message content and notice files', () => {
  it('due date: the end of the day in Rome, in UTC, winter and summer', () => {
    expect(endOfDayInRome('2026-11-30')).toBe('2026-11-30T22:59:59.000Z');
    expect(endOfDayInRome('2026-07-31')).toBe('2026-07-31T21:59:59.000Z');
  });

  it('keeps subject and markdown within IO’s limits for very long titles', () => {
    const long = ioMessageContent(
      { ...position, titolo: 'T'.repeat(500), descrizione: '*'.repeat(20000) },
      position.dataScadenza,
    );
    expect(long.subject.length).toBe(120);
    expect(long.markdown.length).toBeLessThanOrEqual(10000);
    expect(long.markdown.length).toBeGreaterThan(9000);
    // What the citizen must read is never clipped away, and no escape is left in halves.
    expect(long.markdown).toContain('**Codice avviso**: 3010 0000 0001 2345 19');
    expect(long.markdown).toContain('**Importo**: 66,43');
    expect(long.markdown).not.toMatch(/(^|[^\\])(\\\\)*\\…/);
    expect(newMessageProblem({ fiscal_code: CF, feature_level_type: 'STANDARD', content: long })).toBeNull();
  });

  it('the simulator refuses what IO refuses', () => {
    const body = { fiscal_code: CF, feature_level_type: 'STANDARD', content };
    expect(newMessageProblem({ ...body, content: { ...content, subject: 'breve' } })).toMatch(/subject/);
    expect(newMessageProblem({ ...body, content: { ...content, markdown: 'corto' } })).toMatch(/markdown/);
    expect(
      newMessageProblem({ ...body, content: { ...content, payment_data: { ...content.payment_data, amount: 66.43 } } }),
    ).toMatch(/amount/);
    expect(
      newMessageProblem({
        ...body,
        content: { ...content, payment_data: { ...content.payment_data, notice_number: '401000000001234519' } },
      }),
    ).toMatch(/notice_number/);
    expect(newMessageProblem({ ...body, content: { ...content, due_date: '30/11/2026' } })).toMatch(/due_date/);
    expect(newMessageProblem({ ...body, fiscal_code: 'rssmra' })).toMatch(/fiscal_code/);
  });

  it('escapes what the app would read as markup in titles and descriptions', () => {
    const tricky = ioMessageContent(
      {
        ...position,
        titolo: 'Centro *estivo* _2026_ #1',
        descrizione: '[clicca](http://x.it) <b>Rossi</b> & C.\nseconda riga',
      },
      position.dataScadenza,
    );
    expect(tricky.markdown).toContain('**Centro \\*estivo\\* \\_2026\\_ \\#1**');
    expect(tricky.markdown).toContain(
      '**Beneficiario e causale**: \\[clicca\\](http://x.it) \\<b\\>Rossi\\</b\\> \\& C. seconda riga',
    );
    expect(markdownText('a\\b')).toBe('a\\\\b');
    // The labels the portal writes stay bold.
    expect(tricky.markdown).toContain('**Importo**: 66,43');
  });

  it('groups the notice number in fours, as pagoPA prints it', () => {
    expect(navGroups('301000000000001154')).toEqual(['3010', '0000', '0000', '0011', '54']);
    expect(groupedNav('301000000000001154')).toBe('3010 0000 0000 0011 54');
  });

  it('finds the IUV a file of MyPay’s AVVISI ZIP is about', () => {
    expect(iuvOfNoticeFile('avviso_301000000001234519.pdf')).toBe('01000000001234519');
    expect(iuvOfNoticeFile('cartella/avviso_01000000001234519.PDF')).toBe('01000000001234519');
    expect(iuvOfNoticeFile('avviso_301000000001234519.txt')).toBeNull();
    expect(iuvOfNoticeFile('leggimi.pdf')).toBeNull();
  });
});
