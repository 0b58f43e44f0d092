import { afterEach, describe, expect, it } from 'vitest';
import * as batches from '@/app/api/batches/route';
import * as exported from '@/app/api/batches/export/route';
import * as stream from '@/app/api/batches/stream/route';
import * as session from '@/app/api/session/route';
import { OTHER_CREDENTIALS } from '@/sandbox/organisations';
import { bffBeside, DEMO, detailOf, request, sessionCookieOf } from '../helpers/bff';
import { control, sandboxProcessForFile } from '../helpers/sandbox';

/**
 * One session, or one organisation, cannot take the process's capacity from the others: range loads at once
 * per session (RANGE_LOADS_PER_SESSION, 6 by default) and per organisation (RANGE_LOADS_PER_ORGANISATION, 16),
 * refused at once here (RANGE_LOAD_WAIT_S=0), and each organisation's share of the 64 upstream connections
 * (UPSTREAM_REQUESTS_PER_ORGANISATION, 32): all at their defaults but the wait.
 */
// The service in a process of its own, as in production: what is timed here is this process's work alone.
const sandbox = bffBeside(sandboxProcessForFile({ SANDBOX_BATCHES: '6000' }), { SIGNIN_ATTEMPTS_PER_IP: '100000', RANGE_LOAD_WAIT_S: '0' });

const signIn = async (credentials = DEMO) => sessionCookieOf(await session.POST(request('/api/session', { method: 'POST', json: credentials })))!;
const streamOf = (cookie: string) => stream.GET(request('/api/batches/stream', { cookie }));

/** Bodies still being read when a test ends: cancelled, so nothing keeps asking the service. */
let open: Response[] = [];
afterEach(async () => {
  await Promise.all(open.map((r) => r.body?.cancel().catch(() => undefined)));
  open = [];
});

/** Reads the body to its end in the background (as a browser would, keeping nothing), resolving when it has. */
async function drain(response: Response): Promise<void> {
  open.push(response);
  const reader = response.body!.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // Cancelled at the end of the test.
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** How long `work` takes, `runs` times one after another (ms). */
async function timed(runs: number, work: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

describe('range loads at once, per session', () => {
  it('a session running its 6 range loads gets 429 for a 7th, with Retry-After and a sentence saying what to do; its turn comes back as they end', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 200 });
    const cookie = await signIn();
    const answers = await Promise.all(Array.from({ length: 7 }, () => streamOf(cookie)));
    const refused = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(6);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect(await detailOf(refused[0]!)).toBe(
      'session: 6 date ranges are already loading for this session (its tabs, windows and exports together); try again in 1 s, when one has finished',
    );
    // An export is a range load too; another session of the organisation is not held up.
    const exportRefused = await exported.GET(request('/api/batches/export', { cookie }));
    expect(exportRefused.status).toBe(429);
    const colleague = await streamOf(await signIn());
    expect(colleague.status).toBe(200);
    void drain(colleague);
    // HEAD does no load: it is never refused for this.
    expect((await stream.HEAD(request('/api/batches/stream', { cookie, method: 'HEAD' }))).status).toBe(200);

    // One cancelled (a tab closed), one read to its end: two turns come back.
    await answers.find((r) => r.status === 200)!.body!.cancel();
    const [read, ...others] = answers.filter((r) => r.status === 200).slice(1);
    await drain(read!);
    others.forEach((r) => void drain(r));
    const again = await Promise.all([streamOf(cookie), streamOf(cookie), streamOf(cookie)]);
    expect(again.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    again.forEach((r) => void drain(r));
  });
});

describe('another organisation while one runs 30 streams against a service answering in 300 ms', () => {
  it('keeps its upstream connections: its page and its whole range stay within twice their time alone', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 300 });
    const other = await signIn(OTHER_CREDENTIALS);
    const page = async () => {
      const response = await batches.GET(request('/api/batches', { cookie: other }));
      expect(response.status).toBe(200);
      await response.json();
    };
    const range = async () => {
      const response = await streamOf(other);
      expect(response.status).toBe(200);
      expect((await response.text()).trimEnd().split('\n').at(-1)).toMatch(/^\{"done":true,"count":\d+\}$/);
    };
    const alone = { page: await timed(5, page), range: await timed(3, range) };

    // Five sessions of the busy organisation, six streams each.
    const busy = await Promise.all(Array.from({ length: 5 }, () => signIn()));
    const answers = await Promise.all(busy.flatMap((cookie) => Array.from({ length: 6 }, () => streamOf(cookie))));
    const running = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 429);
    expect(running).toHaveLength(16);
    expect(refused).toHaveLength(14);
    expect(await detailOf(refused[0]!)).toBe('organisation: 16 date ranges are already loading for your organisation; try again in 1 s, when one has finished');
    let finished = 0;
    running.forEach((r) => void drain(r).then(() => finished++));

    const during = { page: await timed(5, page), range: await timed(3, range) };
    // The busy organisation was loading all along.
    expect(finished).toBeLessThan(running.length);
    console.log(
      `median ms, alone -> beside 30 streams of another organisation: page ${median(alone.page).toFixed(0)} -> ${median(during.page).toFixed(0)}, ` +
        `whole range ${median(alone.range).toFixed(0)} -> ${median(during.range).toFixed(0)}`,
    );
    expect(median(during.page)).toBeLessThan(2 * median(alone.page));
    expect(median(during.range)).toBeLessThan(2 * median(alone.range));
  }, 60_000);
});
