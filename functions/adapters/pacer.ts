/**
 * Spaces calls to an outside service to at most `perSecond` a second, for every caller in the process (a
 * Lambda container runs one slice at a time; locally one process runs them all): each caller waits its turn.
 */
export function makePacer(perSecond: number, sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)), now: () => number = Date.now) {
  const gap = 1000 / Math.max(perSecond, 0.001);
  let next = 0;
  return async function pace(): Promise<void> {
    const at = Math.max(now(), next);
    next = at + gap;
    const wait = at - now();
    if (wait > 0) await sleep(wait);
  };
}
