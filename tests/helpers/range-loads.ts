import { afterEach } from 'vitest';
import * as stream from '@/app/api/batches/stream/route';
import { DEMO, request, signIn as signInAs } from './bff';

/** A session of `credentials` (the demo organisation's editor unless said) in the app beside the test, as its cookie. */
export const signIn = (credentials: { email: string; password: string } = DEMO) => signInAs(credentials);
/** The whole-range stream of the session's organisation, unread. */
export const streamOf = (cookie: string) => stream.GET(request('/api/batches/stream', { cookie }));

/**
 * Range-load bodies read in the background as a browser would, keeping nothing; those still open when a test
 * ends are cancelled, so nothing keeps asking the service. Call once at the top of a test file.
 */
export function drainedBodies() {
  let open: Response[] = [];
  afterEach(async () => {
    await Promise.all(open.map((r) => r.body?.cancel().catch(() => undefined)));
    open = [];
  });
  /** Reads the body to its end, resolving when it has (or when it was cancelled). */
  async function drain(response: Response): Promise<void> {
    open.push(response);
    const reader = response.body!.getReader();
    try {
      while (!(await reader.read()).done);
    } catch {
      // Cancelled at the end of the test.
    }
  }
  return { drain };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** How long `work` takes, `runs` times one after another (ms). */
export async function timed(runs: number, work: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}
