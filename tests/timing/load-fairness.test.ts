import { describe, expect, it } from 'vitest';
import * as batches from '@/app/api/batches/route';
import { bffBeside, detailOf, PEOPLE, request, signInBody } from '../helpers/bff';
import { drainedBodies, median, signIn, streamOf, timed } from '../helpers/range-loads';
import { control, sandboxProcessForFile } from '../helpers/sandbox';

/**
 * One organisation's range loads do not slow another's: its page and its whole range, timed alone and beside
 * 30 streams of a busy organisation against a service answering in 300 ms. Timed in a run of its own, with
 * nothing else on the machine's cores (npm run test:unit runs tests/timing after the other files).
 */
// The service in a process of its own, as in production: what is timed here is this process's work alone.
const sandbox = bffBeside(sandboxProcessForFile({ SANDBOX_BATCHES: '6000' }), {
  SIGNIN_ATTEMPTS_PER_IP: '100000',
  RANGE_LOAD_WAIT_S: '0',
});

const { drain } = drainedBodies();

describe('another organisation while one runs 30 streams against a service answering in 300 ms', () => {
  it('keeps its upstream connections: its page and its whole range stay within twice their time alone', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 300 });
    const other = await signIn(signInBody(PEOPLE.other.editor));
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
    expect(await detailOf(refused[0]!)).toBe(
      'organisation: 16 date ranges are already loading for your organisation; try again in 1 s, when one has finished',
    );
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
