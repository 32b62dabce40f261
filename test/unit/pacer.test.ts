import { describe, expect, it } from 'vitest';
import { makePacer } from '../../functions/adapters/pacer.ts';

/** A clock that moves only when the one caller sleeps: the times at which its turns come. */
function fakeTime() {
  let time = 0;
  return { now: () => time, sleep: async (ms: number) => void (time += ms) };
}

async function turns(pace: () => Promise<void>, clock: { now: () => number }, count: number) {
  const at: number[] = [];
  for (let i = 0; i < count; i++) {
    await pace();
    at.push(clock.now());
  }
  return at;
}
const gaps = (times: number[]) => times.slice(1).map((t, i) => Math.round(t - times[i]));

describe('the pace of the INPS queries', () => {
  it('gives a turn every 100 ms at 10 a second', async () => {
    const clock = fakeTime();
    const pacer = makePacer(10, clock.sleep, clock.now);
    expect(gaps(await turns(pacer.pace, clock, 5))).toEqual([100, 100, 100, 100]);
  });

  it('after a 429 retries once the wait INPS asked is over, then goes slower and comes back to the configured pace', async () => {
    const clock = fakeTime();
    const pacer = makePacer(10, clock.sleep, clock.now);
    await turns(pacer.pace, clock, 3);
    const refused = clock.now();
    await pacer.rateLimited(1000);
    expect(clock.now() - refused).toBeGreaterThanOrEqual(1000);
    const spacing = gaps([clock.now(), ...(await turns(pacer.pace, clock, 80))]);
    expect(spacing[0]).toBeGreaterThan(100);
    expect(spacing.at(-1)).toBe(100);
    // Never faster than configured, and slower less and less.
    expect(spacing.every((gap, i) => gap >= 100 && (i === 0 || gap <= spacing[i - 1]))).toBe(true);
  });

  it('lets the queries refused together retry one at a time, and slows down once for them', async () => {
    const woke: number[] = [];
    const pacer = makePacer(
      10,
      async (ms) => void woke.push(ms),
      () => 0,
    );
    await Promise.all(Array.from({ length: 8 }, () => pacer.rateLimited(1000)));
    expect(woke[0]).toBe(1000);
    const spacing = gaps(woke);
    expect(spacing.every((gap) => gap > 100)).toBe(true);
    // One slowdown (to 150 ms), not eight in a row.
    expect(spacing[0]).toBe(150);
  });

  it('slows down again on a 429 after the pause, down to one query every 10 s at the slowest', async () => {
    const clock = fakeTime();
    const pacer = makePacer(10, clock.sleep, clock.now);
    for (let i = 0; i < 20; i++) {
      await pacer.rateLimited(0);
      await clock.sleep(20_000);
    }
    const [gap] = gaps(await turns(pacer.pace, clock, 2));
    expect(gap).toBeGreaterThan(9_000);
    expect(gap).toBeLessThanOrEqual(10_000);
  });
});
