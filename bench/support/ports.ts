import { createServer } from 'node:net';

/** Every server a bench starts listens on loopback, on a port of this range (issue 5). */
export const BENCH_HOST = '127.0.0.1';
export const BENCH_PORT_MIN = 4600;
export const BENCH_PORT_MAX = 4699;

const handedOut = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, BENCH_HOST, () => probe.close(() => resolve(true)));
  });
}

/**
 * A free port of the bench range. Ports handed out earlier in this process are skipped even when not bound
 * yet, so two servers started back to back never race for the same one; several bench processes at once
 * (another engineer's scripts) simply find the next free port.
 */
export async function freeBenchPort(): Promise<number> {
  const span = BENCH_PORT_MAX - BENCH_PORT_MIN + 1;
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = BENCH_PORT_MIN + ((offset + i) % span);
    if (handedOut.has(port)) continue;
    if (await isFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${BENCH_PORT_MIN}-${BENCH_PORT_MAX}`);
}
