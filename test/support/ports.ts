import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * The kernel hands ports from this range to outgoing connections. A port taken from it with listen(0) and
 * released can be taken by one of the stack's own connections before its server listens (EADDRINUSE in CI),
 * so test servers get ports below it.
 */
function ephemeralRangeStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const lowest = 20_000;
const highest = ephemeralRangeStart() - 1;
const handedOut = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port nobody listens on right now, outside the ephemeral range and never handed out twice by this process. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = lowest + Math.floor(Math.random() * (highest - lowest + 1));
    if (handedOut.has(port) || !(await isFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`No free port between ${lowest} and ${highest}`);
}
