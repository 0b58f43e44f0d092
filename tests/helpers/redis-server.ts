import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

/** Debian's redis-server on loopback, in memory only (no snapshot, no append-only file); stop it with kill(). */
export function spawnRedisServer(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}

/** A client of the server on `port`, once it answers: retries while it starts (bounded: 50 × 100 ms). */
export async function redisClient(port: number): Promise<Redis> {
  // Refused connections before the server listens are expected.
  const redis = new Redis(`redis://127.0.0.1:${port}`, { retryStrategy: (n) => (n > 50 ? null : 100) });
  redis.on('error', () => {});
  await redis.ping();
  return redis;
}
