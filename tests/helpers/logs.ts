import { vi } from 'vitest';
import { logger } from '@/lib/server/logging/logger';

/**
 * The JSON lines the server's logger writes (lib/server/logging/logger.ts writes each through
 * process.stdout.write at once) while capturing, instead of printing them: the logger, silent in tests
 * (tests/setup/quiet-logs.ts), writes at its production level `info` meanwhile. `stop()` restores both.
 */
export function captureLogs() {
  const printed: string[] = [];
  const level = logger().level;
  logger().level = 'info';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  return {
    lines: () => printed.map((l) => JSON.parse(l) as Record<string, unknown>),
    raw: () => printed,
    stop: () => {
      spy.mockRestore();
      logger().level = level;
    },
  };
}

/** The JSON lines logged while `work` ran. */
export async function logsOf(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const capture = captureLogs();
  try {
    await work();
  } finally {
    capture.stop();
  }
  return capture.lines();
}
