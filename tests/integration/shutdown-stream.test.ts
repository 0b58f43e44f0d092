import { describe, expect, it } from 'vitest';
import * as stream from '@/app/api/batches/stream/route';
import * as session from '@/app/api/session/route';
import { inAnyPart } from '@/lib/batch-api/range-parts';
import { type StreamLine } from '@/lib/contract';
import { endGrace } from '@/lib/server/health/shutdown';
import { metrics } from '@/lib/server/metrics/registry';
import { bffForFile, DEMO, request, sessionCookieOf } from '../helpers/bff';
import { control, tokenFor, walkV2 } from '../helpers/sandbox';

const sandbox = bffForFile({ SIGNIN_ATTEMPTS_PER_IP: '100000' }, { batches: 2000, pageSize: 50 });

const counter = async (name: string) =>
  (await metrics().registry.getSingleMetric(name)!.get()).values.reduce((n, v) => n + v.value, 0);

describe('a stream when the grace period of a shutdown ends', () => {
  it('ends with the error line, naming the parts still missing: the rest and the batches sent are the whole range', async () => {
    const signedIn = await session.POST(request('/api/session', { method: 'POST', json: DEMO }));
    const cookie = sessionCookieOf(signedIn)!;
    const finished = await counter('range_loads_finished_total');
    // Slow pages, so that the load is still running when the grace period ends.
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 100 });
    const response = await stream.GET(request('/api/batches/stream', { cookie }));
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value!;
    endGrace();
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += part.value;

    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StreamLine);
    const last = lines.at(-1)!;
    expect(last).toMatchObject({
      error: {
        status: 503,
        detail: 'server: this server is restarting; try again to fetch what is missing',
        retryAfterS: 1,
      },
    });
    const remaining = (last as { remaining: string }).remaining;
    expect(remaining).toMatch(/~/);

    // What was sent and what lies in the remaining parts together make the range, so a retry of those parts
    // (the browser's) completes it.
    const sent = new Set(lines.flatMap((l) => ('batches' in l ? l.batches.map((b) => b.batch_id) : [])));
    const parts = remaining.split(',').map((p) => {
      const [start_date, end_date] = p.split('~');
      return { start_date: start_date || undefined, end_date: end_date || undefined };
    });
    await control(sandbox(), 'POST', '/_sandbox/reset');
    const { batches: all } = await walkV2(sandbox(), await tokenFor(sandbox(), 'v2'), {});
    const inRemaining = inAnyPart(parts);
    expect(all.filter((b) => !sent.has(b.batch_id) && !inRemaining(b.batch_creation_date))).toEqual([]);
    expect(sent.size).toBeLessThan(all.length);

    // Counted as a failed load, not a finished one.
    expect(await counter('range_loads_failed_total')).toBeGreaterThanOrEqual(1);
    expect(await counter('range_loads_finished_total')).toBe(finished);
  });
});
