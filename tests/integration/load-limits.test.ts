import { describe, expect, it } from 'vitest';
import * as exported from '@/app/api/batches/export/route';
import * as stream from '@/app/api/batches/stream/route';
import { bffBeside, detailOf, request } from '../helpers/bff';
import { drainedBodies, signIn, streamOf } from '../helpers/range-loads';
import { control, sandboxProcessForFile } from '../helpers/sandbox';

/**
 * One session, or one organisation, cannot take the process's capacity from the others: range loads at once
 * per session (RANGE_LOADS_PER_SESSION, 6 by default) and per organisation (RANGE_LOADS_PER_ORGANISATION, 16),
 * refused at once here (RANGE_LOAD_WAIT_S=0), and each organisation's share of the 64 upstream connections
 * (UPSTREAM_REQUESTS_PER_ORGANISATION, 32): all at their defaults but the wait. The time another organisation
 * takes beside them is measured in tests/timing, run alone.
 */
// The service in a process of its own, as in production: what is timed here is this process's work alone.
const sandbox = bffBeside(sandboxProcessForFile({ SANDBOX_BATCHES: '6000' }), {
  SIGNIN_ATTEMPTS_PER_IP: '100000',
  RANGE_LOAD_WAIT_S: '0',
});

const { drain } = drainedBodies();

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
