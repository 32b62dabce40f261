/** The longest gap a pace slows down to: one call every 10 s. */
const SLOWEST_GAP_MS = 10_000;
/** Each turn given narrows a slowed-down gap by this factor, back toward the configured pace. */
const RECOVERY = 0.99;
/** A 429 widens the gap by half (measured with bench:isee-inps: doubling it left INPS idle, a quarter was too little). */
const BACK_OFF = 1.5;

export interface Pacer {
  /** Waits for this caller's turn. */
  pace(): Promise<void>;
  /**
   * The service answered 429 and asked to wait `retryAfterMs`: every caller waits that long, the pace slows
   * down, and this caller retries at its turn (not all at once when the wait ends). The pace comes back by
   * a percent a turn, so a service whose real limit is below the configured rate is asked at about its own
   * pace, with an occasional 429 where the pace probes upward again.
   */
  rateLimited(retryAfterMs: number): Promise<void>;
}

/**
 * Spaces calls to an outside service to at most `perSecond` a second, for every caller in the process (a
 * Lambda container runs one slice at a time; locally one process runs them all): each caller waits its turn.
 */
export function makePacer(
  perSecond: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => number = Date.now,
): Pacer {
  const fastest = 1000 / Math.max(perSecond, 0.001);
  let gap = fastest;
  let next = 0;
  let pausedUntil = 0;
  async function pace() {
    const at = Math.max(now(), next);
    next = at + gap;
    gap = Math.max(fastest, gap * RECOVERY);
    const wait = at - now();
    if (wait > 0) await sleep(wait);
  }
  return {
    pace,
    async rateLimited(retryAfterMs) {
      // The calls in flight were sent at the same pace: their 429s, within the pause, are one signal.
      if (now() >= pausedUntil) {
        gap = Math.min(gap * BACK_OFF, SLOWEST_GAP_MS);
        pausedUntil = now() + Math.max(retryAfterMs, gap);
        next = Math.max(next, pausedUntil);
      }
      await pace();
    },
  };
}
