import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IoRefused, type IoRefusalReason } from '../../functions/adapters/io.ts';
import { citizensWithLastYearIsee, iseeRefreshJobs } from '../support/isee-refresh.ts';

/**
 * The December reminders keep to SES's sending rate (SendQuota.MaxSendRate): SES refuses a message past it,
 * 429 TooManyRequestsException "Maximum sending rate exceeded." (Developer Guide, "Managing your Amazon SES
 * sending limits"). Here SES allows one message a second and twelve citizens are due a reminder, more than a
 * second's worth: paced, none is refused and every one is sent; without the pacing, all of them go at once and
 * SES refuses all but the first. The clock is vitest's fake one, so the seconds pass without waiting.
 */
const PEOPLE = 12;

/** SES at `perSecond`: refuses (as it does, without sending) a message past the rate within the last second. */
function sesAt(perSecond: number) {
  const sentAt: number[] = [];
  const refused: string[] = [];
  const sent: string[] = [];
  return {
    sent,
    refused,
    mailer: {
      async maxSendRate() {
        return perSecond;
      },
      async send(message: { to: string[] }) {
        const now = Date.now();
        if (sentAt.filter((at) => now - at < 1000).length >= perSecond) {
          refused.push(message.to[0]!);
          throw Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'TooManyRequestsException' });
        }
        sentAt.push(now);
        sent.push(message.to[0]!);
        return { messageId: `m-${sent.length}` };
      },
    },
  };
}

/** IO answering every message with `refusal` (the adapter's IoRefused), or accepting it. */
function ioRefusing(refusal: IoRefusalReason | null) {
  const asked: string[] = [];
  return {
    asked,
    io: {
      sendMessage: async (fiscalCode: string) => {
        asked.push(fiscalCode);
        if (refusal) throw new IoRefused(refusal);
        return { id: 'io' };
      },
    },
  };
}

function jobs(ses: ReturnType<typeof sesAt>, io = ioRefusing(null).io) {
  const reminders = new Map<string, { io: string; mail: string }>();
  const expiryJobs = iseeRefreshJobs(citizensWithLastYearIsee(PEOPLE, 'Promemoria'), {
    expiry: {
      putExpiry: async () => undefined,
      claimReminder: async (_year: number, userId: string) => !reminders.has(userId),
      recordReminder: async (_year: number, userId: string, outcome: { io: string; mail: string }) =>
        void reminders.set(userId, outcome),
      listExpiry: async () => ({ items: [], nextCursor: null }),
    },
    reminders: { io, mailer: ses.mailer },
  });
  return { jobs: expiryJobs, reminders };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-12-03T09:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the December reminders at SES’s sending rate', () => {
  it('sends a batch larger than a second’s rate one message at a time: none refused by SES, every citizen reminded', async () => {
    const ses = sesAt(1);
    const { jobs: expiryJobs, reminders } = jobs(ses);
    const slice = expiryJobs.expirySlice({ year: 2026 }, null);
    await vi.runAllTimersAsync();
    expect(await slice).toMatchObject({ cursor: null });

    expect(ses.refused).toEqual([]);
    expect(ses.sent).toHaveLength(PEOPLE);
    expect(new Set(ses.sent).size).toBe(PEOPLE);
    expect([...reminders.values()].map((r) => r.mail)).toEqual(Array(PEOPLE).fill('SENT'));
  });
});

describe('the December reminders when IO refuses', () => {
  it.each([
    ['UNAUTHORIZED', '401: a wrong key', 'la chiave del servizio non è riconosciuta'],
    ['FORBIDDEN', '403: the portal’s IP or the key’s groups', 'indirizzo IP del portale'],
  ] as const)(
    'IO refusing the council (%s, %s) stops the run with the reason for the operators, and nobody is marked as a citizen without IO',
    async (refusal, _why, reason) => {
      const ses = sesAt(100);
      const io = ioRefusing(refusal);
      const { jobs: expiryJobs, reminders } = jobs(ses, io.io);
      const slice = expiryJobs.expirySlice({ year: 2026 }, null);
      const outcome = expect(slice).rejects.toThrow(/Promemoria ISEE interrotti/);
      await vi.runAllTimersAsync();
      await outcome;
      await expect(slice).rejects.toThrow(reason);
      expect(io.asked.length).toBeLessThan(PEOPLE);
      expect([...reminders.values()].filter((r) => r.io === 'NO_CHANNEL')).toEqual([]);
    },
  );

  it('a citizen without an IO profile (IO’s ‘Profile not found’) is marked without IO, and the others are still reminded', async () => {
    const ses = sesAt(100);
    const io = ioRefusing('NO_PROFILE');
    const { jobs: expiryJobs, reminders } = jobs(ses, io.io);
    const slice = expiryJobs.expirySlice({ year: 2026 }, null);
    await vi.runAllTimersAsync();
    expect(await slice).toMatchObject({ cursor: null });
    expect([...reminders.values()].map((r) => r.io)).toEqual(Array(PEOPLE).fill('NO_CHANNEL'));
    expect(ses.sent).toHaveLength(PEOPLE);
  });
});
