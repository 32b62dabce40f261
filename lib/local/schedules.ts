import { romeDay } from '../../functions/domain/period.ts';
import type { Closable } from './stores.ts';

/**
 * The schedules of the cloud (EventBridge Scheduler, lib/background-jobs.ts reportingSchedules) on this machine:
 * the sweep of the reportings due after checkouts every minute, and the daily reporting of every call with open
 * positions once a day, from 06:00 in Rome (or at the first minute after the start when that hour has passed).
 * They call the same entry point the cloud's schedules invoke (functions/entry/scheduled-jobs.ts). LOCAL_SCHEDULES=off
 * stops them (the integration tier, whose tests start the same runs themselves).
 */
export const LOCAL_SWEEP_MS = 60_000;
const DAILY_FROM_HOUR = 6;

export function startLocalSchedules(options: { sweepMs?: number } = {}): Closable {
  if (process.env.LOCAL_SCHEDULES === 'off') return { close: async () => {} };
  let lastDaily: string | null = null;
  let running: Promise<void> | null = null;
  const romeHour = (now: Date) =>
    Number(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', hour: '2-digit', hourCycle: 'h23' }).format(now),
    );
  const tick = async () => {
    const { runScheduled } = await import('../../functions/entry/scheduled-jobs.ts');
    await runScheduled({ kind: 'reporting-follow-ups' });
    const now = new Date();
    if (lastDaily !== romeDay(now) && romeHour(now) >= DAILY_FROM_HOUR) {
      lastDaily = romeDay(now);
      await runScheduled({ kind: 'reporting-daily' });
    }
  };
  const timer = setInterval(() => {
    running ??= tick()
      .catch((error) => console.warn(`Rendicontazione pianificata non riuscita: ${(error as Error).message}`))
      .finally(() => (running = null));
  }, options.sweepMs ?? LOCAL_SWEEP_MS);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
