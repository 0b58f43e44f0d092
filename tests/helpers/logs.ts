import { vi } from 'vitest';

/**
 * The JSON lines the server's logger writes (lib/server/logging/logger.ts writes each through
 * process.stdout.write at once) while capturing, instead of printing them. `stop()` prints again.
 */
export function captureLogs() {
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  return {
    lines: () => printed.map((l) => JSON.parse(l) as Record<string, unknown>),
    raw: () => printed,
    stop: () => spy.mockRestore(),
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
