/** The fault switches on the wire: a 5xx, a timeout (the request held, then dropped) or a lost answer. */
import type { ServerResponse } from 'node:http';
import type { FaultRule, Switches } from './model.ts';

export function createFaults(switches: Pick<Switches, 'faults'>, holdMs: number) {
  const takeFault = (target: string): FaultRule | undefined => {
    const rule = switches.faults.find(
      (f) => (f.target === target || f.target === '*') && (f.remaining === null || f.remaining > 0),
    );
    if (rule && rule.remaining !== null) rule.remaining -= 1;
    switches.faults = switches.faults.filter((f) => f.remaining === null || f.remaining > 0);
    return rule;
  };
  const held = new Set<ServerResponse>();
  /** Holds the request without answering, then drops the connection: the client sees a timeout. */
  const hold = (res: ServerResponse) => {
    held.add(res);
    const timer = setTimeout(() => {
      held.delete(res);
      res.destroy();
    }, holdMs);
    res.on('close', () => {
      clearTimeout(timer);
      held.delete(res);
    });
  };
  /** Applies a fault before the request is handled; true when the request was answered (or held) by it. */
  const applyFault = (target: string, res: ServerResponse): boolean => {
    const rule = takeFault(target);
    if (!rule) return false;
    if (rule.kind === '5xx') {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><h1>503 Service Unavailable</h1></body></html>');
      return true;
    }
    if (rule.kind === 'timeout') {
      hold(res);
      return true;
    }
    // lost-answer: the request is processed, its answer never arrives
    res.writeHead = (() => res) as unknown as typeof res.writeHead;
    res.write = (() => true) as typeof res.write;
    res.end = (() => {
      hold(res);
      return res;
    }) as typeof res.end;
    return false;
  };

  return { applyFault, held };
}
