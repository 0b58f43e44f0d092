/**
 * Issue 8 (a rate limit): the server's whole-range load of 20,000 batches (pages of 100, 40 ms per request,
 * 8 requests at once) against a service whose gateway answers 429 with `Retry-After: 1` to more than 4
 * concurrent requests, side by side with the same load without the limit, alternately. The load must slow
 * down, not fail: every batch, none twice, in at most about 3× the time.
 */
import { BatchApiClient } from '../lib/batch-api/client';
import { keepAliveFetch } from '../lib/batch-api/keep-alive-fetch';
import { RangeLoad } from '../lib/batch-api/range-load';
import type { UpstreamCall } from '../lib/batch-api/transport';
import { DEMO_CREDENTIALS } from '../sandbox/organisations';
import { runDirectly } from './support/main';
import { startBenchSandbox, type Sandbox } from './support/stack';
import { fmtMs, median, type BenchResult } from './support/stats';

const BATCHES = Number(process.env.BENCH_RATE_LIMIT_BATCHES ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LIMIT = 4;

type Run = { ms: number; ids: string[]; limited: number; requests: number };

async function loadAll(sandbox: Sandbox): Promise<Run> {
  const calls: UpstreamCall[] = [];
  const client = new BatchApiClient({
    baseUrl: sandbox.url,
    ...DEMO_CREDENTIALS,
    fetch: keepAliveFetch,
    onCall: (c) => calls.push(c),
  });
  await client.authenticate();
  const started = performance.now();
  const ids: string[] = [];
  for await (const chunk of new RangeLoad(client, {}, { concurrency: 8 }).chunks())
    for (const b of chunk) ids.push(b.batch_id);
  const batchCalls = calls.filter((c) => c.path === '/v2/batches');
  return {
    ms: performance.now() - started,
    ids,
    limited: batchCalls.filter((c) => c.status === 429).length,
    requests: batchCalls.length,
  };
}

export async function run(): Promise<BenchResult[]> {
  const sandbox = await startBenchSandbox({ batches: BATCHES, pageSize: 100, latencyMs: 40, seed: 'bench' });
  try {
    const expected = new Set(sandbox.organisations[0]!.batches.map((b) => b.batch_id));
    const free: Run[] = [];
    const limited: Run[] = [];
    const faults = (settings: object) => Object.assign(sandbox.faults, settings);
    await loadAll(sandbox); // warm-up: connections, JIT
    for (let i = 0; i < RUNS; i++) {
      faults({ rateLimitConcurrent: null });
      free.push(await loadAll(sandbox));
      faults({ rateLimitConcurrent: LIMIT, rateLimitRetryAfterS: 1 });
      limited.push(await loadAll(sandbox));
    }
    faults({ rateLimitConcurrent: null });
    const complete = [...free, ...limited].every(
      (r) =>
        r.ids.length === expected.size &&
        new Set(r.ids).size === expected.size &&
        r.ids.every((id) => expected.has(id)),
    );
    const ratio = median(limited.map((r, i) => r.ms / free[i]!.ms));
    return [
      {
        target: `8. ${BATCHES.toLocaleString('en-US')} batches under a limit of ${LIMIT} concurrent requests (429, Retry-After: 1) vs none`,
        figure: `${ratio.toFixed(2)}× (${fmtMs(median(limited.map((r) => r.ms)))} vs ${fmtMs(median(free.map((r) => r.ms)))})`,
        goal: '≤ 3×, complete',
        ok: ratio <= 3 && complete,
        detail:
          `medians of ${RUNS} runs, ratio per run; every batch once in every run: ${complete ? 'yes' : 'NO'}; ` +
          `429s per limited load: ${limited.map((r) => r.limited).join(', ')} of ${limited.map((r) => r.requests).join(', ')} requests`,
      },
    ];
  } finally {
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'rate-limit', 'Issue 8: a range load under a rate limit', run);
